// The same auth checks over every protected route the app has, so a route added later
// is covered the moment it is registered.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createKeyService, keyFromHeader } from '../../../src/access/keys.js'
import { createTestApp, json, type TestApp } from '../../support/helpers.js'

let t: TestApp
let disabledKey: string
let revokedKey: string

before(async () => {
  t = await createTestApp()
  const keys = createKeyService(t.store.keys)
  disabledKey = (await keys.create('off')).key
  await keys.disable('off')
  revokedKey = (await keys.create('gone')).key
  await keys.revoke('gone')
})
after(() => t.close())

/** A concrete URL for a route pattern: every :param gets a plausible value. */
function concrete (url: string): string {
  return url.replace(/:(\w+)/g, (_m, name: string) => name === 'type' || name === 'imageType' ? 'hug' : 'x').replace(/\*$/, 'x')
}

const cases: Array<{ name: string, headers: Record<string, string>, error: string }> = [
  { name: 'no Authorization header', headers: {}, error: 'AUTH_MISSING' },
  { name: 'an empty header', headers: { authorization: '' }, error: 'AUTH_EMPTY' },
  { name: 'a bare "Bearer"', headers: { authorization: 'Bearer ' }, error: 'AUTH_EMPTY' },
  { name: 'an unknown key', headers: { authorization: 'um_this-key-does-not-exist-anywhere' }, error: 'AUTH_UNKNOWN_KEY' },
  { name: 'an oversized header', headers: { authorization: 'x'.repeat(4000) }, error: 'AUTH_UNKNOWN_KEY' }
]

describe('every protected route refuses requests without a valid key', () => {
  it('has protected routes to check', () => {
    assert.ok(t.app.routeTable.filter((r) => !r.public && !r.admin).length >= 1)
  })

  it('answers 401 with its own message for each way a key can be wrong', async () => {
    const protectedRoutes = t.app.routeTable.filter((r) => !r.public && !r.admin)
    const messages = new Set<string>()
    for (const route of protectedRoutes) {
      const all = [
        ...cases,
        { name: 'a disabled key', headers: { authorization: disabledKey }, error: 'AUTH_KEY_DISABLED' },
        { name: 'a revoked key', headers: { authorization: revokedKey }, error: 'AUTH_KEY_REVOKED' }
      ]
      for (const c of all) {
        const res = await t.app.inject({ method: route.method as 'GET', url: concrete(route.url), headers: c.headers })
        assert.equal(res.statusCode, 401, `${route.method} ${route.url} with ${c.name}`)
        assert.match(String(res.headers['content-type']), /^application\/json/)
        const body = json(res)
        assert.deepEqual({ success: body.success, code: body.code, error: body.error }, { success: false, code: 401, error: c.error }, `${route.method} ${route.url} with ${c.name}`)
        assert.ok(body.message.length > 10)
        messages.add(body.message)
      }
    }
    // missing, empty, unknown, disabled, revoked: five different messages
    assert.equal(messages.size, 5)
  })

  it('accepts the bare key and "Bearer <key>" on every protected route', async () => {
    for (const route of t.app.routeTable.filter((r) => !r.public && !r.admin)) {
      for (const authorization of [t.key, `Bearer ${t.key}`, `bearer   ${t.key}`]) {
        const res = await t.app.inject({ method: route.method as 'GET', url: concrete(route.url), headers: { authorization } })
        assert.notEqual(res.statusCode, 401, `${route.method} ${route.url} with "${authorization.slice(0, 10)}…": ${res.body}`)
      }
    }
  })

  it('reads the key from each form of the header clients send', () => {
    const key = 'um_abcdefghijklmnopqrstuvwxyz012345'
    for (const value of [key, ` ${key}`, `${key}\t`, `Bearer ${key}`, `bearer ${key}`, `BEARER\t${key}`, `  Bearer   ${key}  `]) {
      assert.equal(keyFromHeader(value), key, JSON.stringify(value))
    }
    // A bare key that starts with "b" is not mistaken for the scheme.
    assert.equal(keyFromHeader('bxyz0123456789abcdef'), 'bxyz0123456789abcdef')
    assert.equal(keyFromHeader('Bearer'), 'Bearer')
    assert.equal(keyFromHeader('   '), '')
  })

  it('keeps public routes public', async () => {
    for (const url of ['/healthz', '/readyz', '/openapi.json', '/docs', '/']) {
      const res = await t.app.inject({ method: 'GET', url })
      assert.ok(res.statusCode < 400, `${url} answered ${res.statusCode}`)
    }
  })

  it('answers an unknown path with 404, with or without a key', async () => {
    for (const headers of [{}, t.auth]) {
      const res = await t.app.inject({ method: 'GET', url: '/no/such/thing', headers })
      assert.equal(res.statusCode, 404)
      const body = json(res)
      assert.equal(body.error, 'NOT_FOUND')
      assert.equal(body.success, false)
      assert.equal(body.code, 404)
    }
  })

  it('stops accepting a key the moment it is disabled, and again when enabled', async () => {
    const keys = createKeyService(t.store.keys)
    const { key } = await keys.create('toggle')
    const call = () => t.app.inject({ method: 'GET', url: '/gen/html', headers: { authorization: key } })
    assert.equal((await call()).statusCode, 500)
    await keys.disable('toggle')
    assert.equal(json(await call()).error, 'AUTH_KEY_DISABLED')
    await keys.enable('toggle')
    assert.equal((await call()).statusCode, 500)
    await keys.revoke('toggle')
    assert.equal(json(await call()).error, 'AUTH_KEY_REVOKED')
    await assert.rejects(keys.enable('toggle'), /revoked/)
  })
})
