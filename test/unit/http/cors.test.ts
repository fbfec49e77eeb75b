// Browsers calling the API (CORS_ORIGINS) and reading the public files from any page.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { loadConfig } from '../../../src/config.js'
import { ensureStarterCatalog } from '../../../src/gifs/starter.js'
import { createKeyService } from '../../../src/access/keys.js'
import { createTestApp, json, tempDir, type TestApp } from '../../support/helpers.js'
import { request, startServerProcess } from '../../support/processes.js'

const ALLOWED = 'https://app.example.com'
const OTHER = 'https://evil.example.net'

describe('CORS with CORS_ORIGINS set', () => {
  let t: TestApp
  let gifPath: string
  before(async () => {
    t = await createTestApp({ config: { corsOrigins: [ALLOWED, 'http://localhost:5173'], rateLimitMax: 3 } })
    await ensureStarterCatalog(t.store.gifs, t.store.gifFiles)
    gifPath = new URL(json(await t.app.inject({ method: 'GET', url: '/sfw/gif/hug', headers: t.auth })).file).pathname
  })
  after(() => t.close())
  // The suite's rate limit is 3 units: each test that counts takes a key of its own.
  let n = 0
  const freshKey = async (): Promise<{ authorization: string }> => ({ authorization: (await createKeyService(t.store.keys).create(`cors-${n++}`)).key })

  it('lets an allowed origin read the answer and its limit headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/color/random', headers: { ...t.auth, origin: ALLOWED } })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['access-control-allow-origin'], ALLOWED)
    assert.match(String(res.headers.vary), /Origin/)
    const exposed = String(res.headers['access-control-expose-headers']).toLowerCase().split(/\s*,\s*/)
    for (const h of ['x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'x-request-id', 'x-quota-remaining', 'x-image-width', 'ratelimit']) {
      assert.ok(exposed.includes(h), `${h} is exposed`)
    }
  })

  it('sends no allow-origin to an origin not listed', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/color/random', headers: { ...t.auth, origin: OTHER } })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['access-control-allow-origin'], undefined)
  })

  it('answers a preflight for Authorization and Content-Type without a key, and it costs nothing', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'OPTIONS',
        url: '/gen/custom',
        headers: { origin: ALLOWED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' }
      })
      assert.equal(res.statusCode, 204)
      assert.equal(res.headers['access-control-allow-origin'], ALLOWED)
      assert.match(String(res.headers['access-control-allow-methods']), /POST/)
      const allowed = String(res.headers['access-control-allow-headers']).toLowerCase()
      assert.match(allowed, /authorization/)
      assert.match(allowed, /content-type/)
      assert.ok(Number(res.headers['access-control-max-age']) > 0)
      assert.equal(res.headers['x-ratelimit-remaining'], undefined, 'a preflight is not counted')
    }
    // Five preflights above a limit of 3 units: the key still has its whole window.
    const res = await t.app.inject({ method: 'GET', url: '/color/random', headers: { ...(await freshKey()), origin: ALLOWED } })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-ratelimit-remaining'], '2')
  })

  it('lets an allowed origin read a refusal (401, 429) as well', async () => {
    const refused = await t.app.inject({ method: 'GET', url: '/color/random', headers: { origin: ALLOWED } })
    assert.equal(refused.statusCode, 401)
    assert.equal(refused.headers['access-control-allow-origin'], ALLOWED)
    const auth = await freshKey()
    let last
    for (let i = 0; i < 4; i++) last = await t.app.inject({ method: 'GET', url: '/color/random', headers: { ...auth, origin: ALLOWED } })
    assert.equal(last!.statusCode, 429)
    assert.equal(last!.headers['access-control-allow-origin'], ALLOWED)
    assert.match(String(last!.headers['access-control-expose-headers']), /Retry-After/i)
  })

  it('serves the public gif files and previews to any origin', async () => {
    const gif = await t.app.inject({ method: 'GET', url: gifPath, headers: { origin: OTHER } })
    assert.equal(gif.statusCode, 200)
    assert.equal(gif.headers['access-control-allow-origin'], '*')
    const icon = json(await t.app.inject({ method: 'GET', url: '/list/icons', headers: await freshKey() })).list[0]
    const preview = await t.app.inject({ method: 'GET', url: `/assets/icons/${icon}`, headers: { origin: OTHER } })
    assert.equal(preview.statusCode, 200)
    assert.equal(preview.headers['access-control-allow-origin'], '*')
  })
})

describe('CORS off (the default)', () => {
  let t: TestApp
  let gifPath: string
  before(async () => {
    t = await createTestApp()
    await ensureStarterCatalog(t.store.gifs, t.store.gifFiles)
    gifPath = new URL(json(await t.app.inject({ method: 'GET', url: '/sfw/gif/pat', headers: t.auth })).file).pathname
  })
  after(() => t.close())

  it('is the default', () => {
    assert.deepEqual(loadConfig({}).corsOrigins, [])
  })

  it('gives the API no allow-origin and answers an API preflight 404 with the envelope, no key asked', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/color/random', headers: { ...t.auth, origin: ALLOWED } })
    assert.equal(res.headers['access-control-allow-origin'], undefined)
    const pre = await t.app.inject({ method: 'OPTIONS', url: '/color/random', headers: { origin: ALLOWED, 'access-control-request-method': 'GET' } })
    assert.equal(pre.statusCode, 404)
    assert.equal(json(pre).success, false)
    assert.equal(pre.headers['access-control-allow-origin'], undefined)
  })

  it('still serves the public files to any origin, preflight included', async () => {
    const gif = await t.app.inject({ method: 'GET', url: gifPath, headers: { origin: OTHER } })
    assert.equal(gif.statusCode, 200)
    assert.equal(gif.headers['access-control-allow-origin'], '*')
    const pre = await t.app.inject({ method: 'OPTIONS', url: gifPath, headers: { origin: OTHER, 'access-control-request-method': 'GET', 'access-control-request-headers': 'range' } })
    assert.equal(pre.statusCode, 204)
    assert.equal(pre.headers['access-control-allow-origin'], '*')
    assert.match(String(pre.headers['access-control-allow-headers']), /Range/)
  })
})

describe('CORS_ORIGINS', () => {
  it('takes origins and "*", and stops the start on anything else, naming the variable', () => {
    assert.deepEqual(loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).corsOrigins, ['https://a.example', 'http://localhost:5173'])
    assert.deepEqual(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins, ['*'])
    for (const bad of ['a.example', 'https://a.example/app', 'ftp://a.example', 'https://a.example?x=1']) {
      assert.throws(() => loadConfig({ CORS_ORIGINS: bad }), /CORS_ORIGINS/)
    }
  })
})

describe('CORS over a socket, in the built server', () => {
  it('answers a browser preflight and an allowed origin, and gif files to anyone', async () => {
    const dataDir = tempDir('uma-cors-')
    const s = await startServerProcess({ DATA_DIR: dataDir, CORS_ORIGINS: ALLOWED, API_KEYS: 'cors-test-key-0123456789' })
    try {
      const pre = await request(`${s.url}/sfw/gif/hug`, {
        method: 'OPTIONS',
        headers: { origin: ALLOWED, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' }
      })
      assert.equal(pre.status, 204)
      assert.equal(pre.headers['access-control-allow-origin'], ALLOWED)
      assert.match(String(pre.headers['access-control-allow-headers']), /Authorization/)
      const res = await request(`${s.url}/sfw/gif/hug`, { headers: { origin: ALLOWED, authorization: 'cors-test-key-0123456789' } })
      assert.equal(res.status, 200)
      assert.equal(res.headers['access-control-allow-origin'], ALLOWED)
      const file = new URL(JSON.parse(res.body.toString()).file).pathname
      const refused = await request(`${s.url}/color/random`, { headers: { origin: OTHER, authorization: 'cors-test-key-0123456789' } })
      assert.equal(refused.headers['access-control-allow-origin'], undefined)
      const gif = await request(`${s.url}${file}`, { headers: { origin: OTHER } })
      assert.equal(gif.status, 200)
      assert.equal(gif.headers['access-control-allow-origin'], '*')
    } finally {
      assert.equal(await s.stop(), 0)
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
