// The management API in process (app.inject): the 404 while no token exists, operator
// tokens and scopes, the failed-attempt limit, keys with Idempotency-Key, the audit log,
// gif moderation, the usage export and the separate OpenAPI document. On SQLite, and on
// PostgreSQL when TEST_STORE=postgres.
import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import { createTestApp, json, type TestApp } from '../../support/helpers.js'
import { FAILED_ATTEMPTS_MAX } from '../../../src/admin/gate.js'

const ENV_TOKEN = 'umo_' + 'e'.repeat(40)

async function withApp (config: Record<string, unknown>, run: (t: TestApp) => Promise<void>): Promise<void> {
  const t = await createTestApp({ config })
  try { await run(t) } finally { await t.close() }
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

describe('management API', () => {
  test('with no operator token, every /admin path answers 404 like an unknown route', async () => {
    await withApp({}, async ({ app, auth }) => {
      for (const url of ['/admin/v1/keys', '/admin/v1/whoami', '/admin/openapi.json', '/admin/v1/usage?from=2026-01-01&to=2026-01-02']) {
        const res = await app.inject({ url, headers: bearer(ENV_TOKEN) })
        assert.equal(res.statusCode, 404, url)
        assert.equal(json(res).error, 'NOT_FOUND')
      }
      const unknown = await app.inject({ url: '/admin/v1/nothing-here', headers: auth })
      assert.equal(json(unknown).error, 'NOT_FOUND')
    })
  })

  test('ADMIN_TOKEN has every scope; an API key is refused 401; a token without the scope 403', async () => {
    await withApp({ adminToken: ENV_TOKEN }, async ({ app, key }) => {
      const { token } = await app.admin.tokens.create('usage-only', ['usage'])
      const who = json(await app.inject({ url: '/admin/v1/whoami', headers: bearer(ENV_TOKEN) }))
      assert.deepEqual(who.token, { name: 'ADMIN_TOKEN', scopes: ['keys', 'usage', 'gifs'] })
      const withKey = await app.inject({ url: '/admin/v1/keys', headers: bearer(key) })
      assert.equal(withKey.statusCode, 401)
      assert.equal(json(withKey).error, 'ADMIN_AUTH_INVALID')
      assert.match(json(withKey).message, /API key/)
      const missing = await app.inject({ url: '/admin/v1/keys' })
      assert.equal(json(missing).error, 'ADMIN_AUTH_MISSING')
      const scoped = await app.inject({ url: '/admin/v1/keys', headers: bearer(token) })
      assert.equal(scoped.statusCode, 403)
      assert.equal(json(scoped).error, 'ADMIN_SCOPE')
      assert.match(json(scoped).message, /"keys"/)
      const usage = await app.inject({ url: '/admin/v1/usage?from=2026-01-01&to=2026-01-02', headers: bearer(token) })
      assert.equal(usage.statusCode, 200)
      // An operator token is no API key either.
      assert.equal((await app.inject({ url: '/me', headers: { authorization: token } })).statusCode, 401)
    })
  })

  test('failed attempts from one address are limited: 429 with Retry-After, even with a good token', async () => {
    await withApp({ adminToken: ENV_TOKEN }, async ({ app }) => {
      for (let i = 0; i < FAILED_ATTEMPTS_MAX; i++) {
        assert.equal((await app.inject({ url: '/admin/v1/keys', headers: bearer('umo_wrong' + i) })).statusCode, 401)
      }
      const limited = await app.inject({ url: '/admin/v1/keys', headers: bearer(ENV_TOKEN) })
      assert.equal(limited.statusCode, 429)
      assert.equal(json(limited).error, 'ADMIN_AUTH_LIMITED')
      assert.ok(Number(limited.headers['retry-after']) > 0)
      // Another address is not refused.
      const other = await app.inject({ url: '/admin/v1/keys', headers: bearer(ENV_TOKEN), remoteAddress: '127.0.0.9' })
      assert.equal(other.statusCode, 200)
    })
  })

  test('keys: create (key shown once), read, list with filters, change, revoke; each change in the audit log', async () => {
    await withApp({ adminToken: ENV_TOKEN }, async ({ app }) => {
      const h = bearer(ENV_TOKEN)
      const created = await app.inject({ method: 'POST', url: '/admin/v1/keys', headers: h, payload: { name: 'shop-1', rate: { max: 50, window_seconds: 60 }, quota: { max: 1000, period: 'month' } } })
      assert.equal(created.statusCode, 201, created.body)
      const c = json(created)
      assert.match(c.key, /^um_/)
      assert.equal(c.name, 'shop-1')
      assert.deepEqual(c.rate, { max: 50, window_seconds: 60 })
      assert.deepEqual(c.quota, { max: 1000, period: 'month' })
      assert.equal(c.source, 'admin')
      const me = await app.inject({ url: '/me', headers: { authorization: c.key } })
      assert.equal(me.statusCode, 200)
      const one = json(await app.inject({ url: `/admin/v1/keys/${c.id}`, headers: h }))
      assert.equal(one.key, undefined)
      assert.equal(one.name, 'shop-1')
      const listed = json(await app.inject({ url: '/admin/v1/keys?name=shop-1', headers: h }))
      assert.deepEqual(listed.keys.map((k: { id: string }) => k.id), [c.id])
      assert.equal(listed.next_cursor, null)
      const patched = json(await app.inject({ method: 'PATCH', url: `/admin/v1/keys/${c.id}`, headers: h, payload: { rate: null, status: 'disabled' } }))
      assert.equal(patched.rate, null)
      assert.equal(patched.status, 'disabled')
      assert.equal(json(await app.inject({ url: '/me', headers: { authorization: c.key } })).error, 'AUTH_KEY_DISABLED')
      const revoked = json(await app.inject({ method: 'DELETE', url: `/admin/v1/keys/${c.id}`, headers: h }))
      assert.equal(revoked.status, 'revoked')
      assert.equal(json(await app.inject({ url: '/admin/v1/keys/999999', headers: h })).error, 'ADMIN_KEY_NOT_FOUND')
      const audit = json(await app.inject({ url: '/admin/v1/audit', headers: h }))
      assert.deepEqual(audit.entries.map((e: { action: string }) => e.action), ['key.revoke', 'key.update', 'key.create'])
      for (const e of audit.entries) {
        assert.equal(e.actor, 'ADMIN_TOKEN')
        assert.equal(e.target, `key:${c.id}`)
        assert.equal(e.address, '127.0.0.1')
      }
      assert.equal(JSON.stringify(audit).includes(c.key), false, 'the secret is never in the audit log')
    })
  })

  test('keys carry owner, meta, credits with refill and expiry; PATCH sets and adds credits; roll keeps the key with a grace', async () => {
    await withApp({ adminToken: ENV_TOKEN }, async ({ app }) => {
      const h = bearer(ENV_TOKEN)
      const expires = new Date(Date.now() + 3_600_000).toISOString()
      const c = json(await app.inject({ method: 'POST', url: '/admin/v1/keys', headers: h, payload: { owner: 'cus_42', meta: { plan: 'pro' }, credits: 10, refill: { amount: 100, period: 'month' }, expires_at: expires } }))
      assert.equal(c.code, 201, JSON.stringify(c))
      assert.match(c.name, /^key-[0-9a-f]{8}$/)
      assert.equal(c.owner, 'cus_42')
      assert.deepEqual(c.meta, { plan: 'pro' })
      assert.deepEqual(c.credits, { remaining: 10, refill: { amount: 100, period: 'month' } })
      assert.equal(c.expires_at, expires)
      const byOwner = json(await app.inject({ url: '/admin/v1/keys?owner=cus_42', headers: h }))
      assert.deepEqual(byOwner.keys.map((k: { id: string }) => k.id), [c.id])
      const added = json(await app.inject({ method: 'PATCH', url: `/admin/v1/keys/${c.id}`, headers: h, payload: { add_credits: 5 } }))
      assert.equal(added.credits.remaining, 15)
      const set = json(await app.inject({ method: 'PATCH', url: `/admin/v1/keys/${c.id}`, headers: h, payload: { credits: 3, expires_at: null, meta: null } }))
      assert.equal(set.credits.remaining, 3)
      assert.equal(set.expires_at, null)
      assert.equal(set.meta, null)
      const both = await app.inject({ method: 'PATCH', url: `/admin/v1/keys/${c.id}`, headers: h, payload: { credits: 3, add_credits: 1 } })
      assert.equal(json(both).error, 'ADMIN_KEY_INVALID')
      const rolled = json(await app.inject({ method: 'POST', url: `/admin/v1/keys/${c.id}/roll`, headers: h, payload: { grace_seconds: 60 } }))
      assert.equal(rolled.id, c.id)
      assert.notEqual(rolled.key, c.key)
      assert.ok(Date.parse(rolled.previous_valid_until) > Date.now())
      assert.equal((await app.inject({ url: '/me', headers: { authorization: c.key } })).statusCode, 200, 'the old key works within the grace')
      assert.equal((await app.inject({ url: '/me', headers: { authorization: rolled.key } })).statusCode, 200)
      const late = json(await app.inject({ method: 'POST', url: `/admin/v1/keys/${c.id}/roll`, headers: h, payload: { grace_seconds: 0 } }))
      assert.equal(late.previous_valid_until, null)
      assert.equal((await app.inject({ url: '/me', headers: { authorization: rolled.key } })).statusCode, 401, 'no grace: refused at once')
      const taken = await app.inject({ method: 'POST', url: '/admin/v1/keys', headers: h, payload: { name: c.name } })
      assert.equal(taken.statusCode, 409)
      assert.equal(json(taken).error, 'ADMIN_KEY_CONFLICT')
    })
  })

  test('Idempotency-Key: the same body answers the same key (secret included), another body 409', async () => {
    await withApp({ adminToken: ENV_TOKEN }, async ({ app, store }) => {
      const headers = { ...bearer(ENV_TOKEN), 'idempotency-key': 'cs_test_123' }
      const payload = { name: 'buyer-1', quota: { max: 100, period: 'day' } }
      const first = await app.inject({ method: 'POST', url: '/admin/v1/keys', headers, payload })
      assert.equal(first.statusCode, 201)
      const again = await app.inject({ method: 'POST', url: '/admin/v1/keys', headers, payload: { quota: { period: 'day', max: 100 }, name: 'buyer-1' } })
      assert.equal(again.statusCode, 200)
      assert.equal(again.headers['idempotent-replayed'], 'true')
      assert.equal(json(again).id, json(first).id)
      assert.equal(json(again).key, json(first).key)
      const other = await app.inject({ method: 'POST', url: '/admin/v1/keys', headers, payload: { name: 'buyer-2' } })
      assert.equal(other.statusCode, 409)
      assert.equal(json(other).error, 'IDEMPOTENCY_MISMATCH')
      assert.equal((await store.keys.list()).filter((k) => k.name.startsWith('buyer')).length, 1)
      // The stored answer is encrypted: the secret is nowhere in the store in clear.
      assert.equal((await store.admin.forgetAnswers(new Date(Date.now() + 1))), 1)
      const late = await app.inject({ method: 'POST', url: '/admin/v1/keys', headers, payload })
      assert.equal(late.statusCode, 200)
      assert.equal(json(late).id, json(first).id)
      assert.equal(json(late).key, null)
      assert.match(json(late).message, /no longer kept/)
    })
  })

  test('gif moderation: the queue with key names, dismiss, hide, unhide, remove', async () => {
    await withApp({ adminToken: ENV_TOKEN }, async ({ app, store }) => {
      const h = bearer(ENV_TOKEN)
      const [gif] = await store.gifs.add([{ category: 'hug', hash: null, url: 'https://cdn.example.com/a.gif', size: 1, width: 10, height: 20, frames: 1, contentType: 'image/gif' }])
      const reporter = (await store.keys.findByName('test'))!
      const report = (await store.gifs.report({ gifId: gif!.id, keyId: reporter.id, reason: 'not_sfw' }))!
      const queue = json(await app.inject({ url: '/admin/v1/gifs/reports', headers: h }))
      assert.deepEqual(queue.reports, [{
        id: String(report.id),
        gif: { id: String(gif!.id), category: 'hug', hidden: false, width: 10, height: 20, file_url: `/admin/v1/gifs/${gif!.id}/file` },
        key_name: 'test',
        reason: 'not_sfw',
        created_at: report.createdAt.toISOString(),
        dismissed_at: null
      }])
      const file = await app.inject({ url: `/admin/v1/gifs/${gif!.id}/file`, headers: h })
      assert.equal(file.statusCode, 302)
      assert.equal(file.headers.location, 'https://cdn.example.com/a.gif')
      assert.equal(json(await app.inject({ method: 'POST', url: `/admin/v1/gifs/${gif!.id}/hide`, headers: h })).hidden, true)
      assert.equal(json(await app.inject({ method: 'POST', url: `/admin/v1/gifs/${gif!.id}/unhide`, headers: h })).hidden, false)
      const dismissed = json(await app.inject({ method: 'POST', url: `/admin/v1/gifs/reports/${report.id}/dismiss`, headers: h }))
      assert.ok(dismissed.report.dismissed_at)
      assert.deepEqual(json(await app.inject({ url: '/admin/v1/gifs/reports', headers: h })).reports, [])
      assert.equal(json(await app.inject({ url: '/admin/v1/gifs/reports?status=dismissed', headers: h })).reports.length, 1)
      assert.equal(json(await app.inject({ method: 'POST', url: '/admin/v1/gifs/reports/999999/dismiss', headers: h })).error, 'ADMIN_REPORT_NOT_FOUND')
      const removed = await app.inject({ method: 'DELETE', url: `/admin/v1/gifs/${gif!.id}`, headers: h })
      assert.equal(removed.statusCode, 200)
      assert.equal(await store.gifs.get(gif!.id), undefined)
      const actions = json(await app.inject({ url: '/admin/v1/audit', headers: h })).entries.map((e: { action: string }) => e.action)
      assert.deepEqual(actions, ['gif.remove', 'report.dismiss', 'gif.unhide', 'gif.hide'])
    })
  })

  test('usage export: what was answered, as JSON and as CSV, pending counts included', async () => {
    await withApp({ adminToken: ENV_TOKEN }, async ({ app, auth }) => {
      for (let i = 0; i < 3; i++) assert.equal((await app.inject({ url: '/color/random', headers: auth })).statusCode, 200)
      const today = new Date().toISOString().slice(0, 10)
      const h = bearer(ENV_TOKEN)
      const rows = json(await app.inject({ url: `/admin/v1/usage?from=${today}&to=${today}`, headers: h })).rows
      assert.deepEqual(rows.filter((r: { key_name: string }) => r.key_name === 'test'), [{ period: today, key_id: rows[0].key_id, key_name: 'test', endpoint_group: 'colors', requests: 3, units: 3 }])
      const csv = await app.inject({ url: `/admin/v1/usage?from=${today}&to=${today}&format=csv`, headers: h })
      assert.match(String(csv.headers['content-type']), /^text\/csv/)
      assert.equal(csv.body, `period,key_id,key_name,endpoint_group,requests,units\r\n${today},${rows[0].key_id},test,colors,3,3\r\n`)
      const bad = await app.inject({ url: '/admin/v1/usage?from=2026-02-30&to=2026-03-01', headers: h })
      assert.equal(json(bad).error, 'VALIDATION')
    })
  })

  test('its own OpenAPI document; the public one holds no /admin path', async () => {
    await withApp({ adminToken: ENV_TOKEN }, async ({ app }) => {
      const pub = json(await app.inject({ url: '/openapi.json' }))
      assert.deepEqual(Object.keys(pub.paths).filter((p) => p.startsWith('/admin')), [])
      const doc = json(await app.inject({ url: '/admin/openapi.json' }))
      assert.equal(doc.openapi, '3.1.0')
      assert.ok(doc.paths['/admin/v1/keys'].post)
      assert.ok(doc.paths['/admin/v1/keys/{id}/roll'].post)
      assert.ok(doc.paths['/admin/v1/keys'].post.responses['409'])
      assert.deepEqual(doc.paths['/admin/v1/keys'].get.security, [{ operatorToken: [] }])
      assert.ok(doc.components.schemas.AdminKey)
    })
  })
})

after(() => {})
