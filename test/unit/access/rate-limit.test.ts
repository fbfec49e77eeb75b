// Rate limits and quotas per key: headers on every answer, 429 with Retry-After, costs,
// per-IP limits on public routes, usage kept across restarts and shown by /me.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, describe, it } from 'node:test'
import { testConfig } from '../../support/config.js'
import { billedUnits } from '../../../src/access/rate-limit.js'
import { createKeyService } from '../../../src/access/keys.js'
import { AppError } from '../../../src/errors.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { createAppOn, createTestApp, json, tempDir, type TestApp } from '../../support/helpers.js'

const apps: TestApp[] = []
after(async () => { for (const a of apps) await a.close() })

async function limitedApp (overrides: Parameters<typeof testConfig>[1] = {}): Promise<TestApp> {
  const t = await createTestApp({
    config: { rateLimitMax: 5, rateLimitWindowMs: 60_000, rateLimitIpMax: 4, ...overrides },
    beforeReady (app) {
      app.get('/probe/costly', { config: { cost: 3 }, schema: { tags: ['probe'] } }, async () => ({ success: true, code: 200, message: '' }))
      app.get('/probe/costly-refused', { config: { cost: 3, errors: ['VALIDATION'] }, schema: { tags: ['probe'] } }, async () => { throw new AppError('VALIDATION', 'a mistyped parameter') })
      app.get('/probe/costly-failed', { config: { cost: 3, errors: ['SERVICE_UNAVAILABLE'] }, schema: { tags: ['probe'] } }, async () => { throw new AppError('SERVICE_UNAVAILABLE', 'busy', { headers: { 'retry-after': '1' } }) })
      app.get('/probe/public', { config: { public: true } }, async () => ({ success: true, code: 200, message: '' }))
    }
  })
  apps.push(t)
  return t
}

function limitHeaders (res: { headers: Record<string, unknown> }) {
  return {
    limit: Number(res.headers['x-ratelimit-limit']),
    remaining: Number(res.headers['x-ratelimit-remaining']),
    reset: Number(res.headers['x-ratelimit-reset']),
    policy: String(res.headers['ratelimit-policy']),
    ratelimit: String(res.headers.ratelimit)
  }
}

describe('rate limits per key', () => {
  it('applies the default limit, with consistent headers on every answer, then 429 with Retry-After', async () => {
    const t = await limitedApp()
    for (let i = 1; i <= 5; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/gen/html?code=418', headers: t.auth })
      assert.equal(res.statusCode, 418)
      const h = limitHeaders(res)
      assert.equal(h.limit, 5)
      assert.equal(h.remaining, 5 - i)
      assert.ok(h.reset >= 1 && h.reset <= 60, `reset ${h.reset}`)
      assert.equal(h.policy, '"key";q=5;w=60')
      assert.equal(h.ratelimit, `"key";r=${5 - i};t=${h.reset}`)
    }
    const res = await t.app.inject({ method: 'GET', url: '/gen/html', headers: t.auth })
    assert.equal(res.statusCode, 429)
    const body = json(res)
    assert.equal(body.error, 'RATE_LIMITED')
    assert.equal(body.code, 429)
    assert.equal(body.success, false)
    assert.match(body.message, /5 units per 60 s/)
    const h = limitHeaders(res)
    assert.equal(h.remaining, 0)
    assert.equal(res.headers['retry-after'], String(h.reset))
    // Another key is not affected.
    const other = await createKeyService(t.store.keys).create('other')
    assert.equal((await t.app.inject({ method: 'GET', url: '/gen/html?code=418', headers: { authorization: other.key } })).statusCode, 418)
  })

  it('uses a key\'s own limit over the default', async () => {
    const t = await limitedApp()
    await t.store.keys.setLimits('test', { rateMax: 2, rateWindowMs: 10_000 })
    const codes = []
    for (let i = 0; i < 3; i++) codes.push((await t.app.inject({ method: 'GET', url: '/gen/html?code=418', headers: t.auth })).statusCode)
    assert.deepEqual(codes, [418, 418, 429])
    const res = await t.app.inject({ method: 'GET', url: '/gen/html', headers: t.auth })
    assert.equal(limitHeaders(res).policy, '"key";q=2;w=10')
  })

  it('charges expensive routes their cost', async () => {
    const t = await limitedApp()
    const first = await t.app.inject({ method: 'GET', url: '/probe/costly', headers: t.auth })
    assert.equal(first.statusCode, 200)
    assert.equal(limitHeaders(first).remaining, 2)
    const second = await t.app.inject({ method: 'GET', url: '/probe/costly', headers: t.auth })
    assert.equal(second.statusCode, 429, 'a second costly call would use 6 of 5 units')
    // The refused call took one unit, not three: 3 + 1 + 1 fit in 5, and nothing more does.
    assert.equal((await t.app.inject({ method: 'GET', url: '/gen/html?code=418', headers: t.auth })).statusCode, 418)
    assert.equal((await t.app.inject({ method: 'GET', url: '/gen/html?code=418', headers: t.auth })).statusCode, 429)
  })

  it('charges a request refused before any work one unit of its window, not its cost (a 400 for a mistyped parameter cost 5 before)', async () => {
    const t = await limitedApp()
    for (let i = 0; i < 2; i++) assert.equal((await t.app.inject({ method: 'GET', url: '/probe/costly-refused', headers: t.auth })).statusCode, 400)
    assert.equal((await t.app.inject({ method: 'GET', url: '/probe/costly-failed', headers: t.auth })).statusCode, 503)
    // 1 + 1 + 1 units taken: a served costly call (3) no longer fits; the headers said so.
    const last = await t.app.inject({ method: 'GET', url: '/probe/costly', headers: t.auth })
    assert.equal(last.statusCode, 429)
    const fresh = await limitedApp()
    for (let i = 0; i < 2; i++) await fresh.app.inject({ method: 'GET', url: '/probe/costly-refused', headers: fresh.auth })
    const served = await fresh.app.inject({ method: 'GET', url: '/probe/costly', headers: fresh.auth })
    assert.equal(served.statusCode, 200, 'two refused calls (2 units) leave room for one of 3')
    assert.equal(limitHeaders(served).remaining, 0)
  })

  it('limits public routes by client IP, and never health checks', async () => {
    const t = await limitedApp()
    const codes = []
    for (let i = 0; i < 5; i++) codes.push((await t.app.inject({ method: 'GET', url: '/probe/public', remoteAddress: '203.0.113.7' })).statusCode)
    assert.deepEqual(codes, [200, 200, 200, 200, 429])
    const res = await t.app.inject({ method: 'GET', url: '/probe/public', remoteAddress: '203.0.113.7' })
    assert.equal(limitHeaders(res).policy, '"ip";q=4;w=60')
    assert.equal((await t.app.inject({ method: 'GET', url: '/probe/public', remoteAddress: '203.0.113.8' })).statusCode, 200)
    for (let i = 0; i < 10; i++) assert.equal((await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '203.0.113.7' })).statusCode, 200)
  })
})

describe('quotas and usage', () => {
  it('bills what was served: the cost for 2xx and 3xx, one unit for a 4xx, nothing for a 429 or any 5xx', () => {
    assert.deepEqual([200, 304, 400, 404, 413, 429, 500, 503].map((status) => billedUnits(status, 5)), [5, 5, 1, 1, 1, 0, 0, 0])
    assert.deepEqual([200, 400, 500].map((status) => billedUnits(status, 0)), [0, 0, 0])
  })

  it('records no usage for a 5xx answer, and one unit for a refused costly call', async () => {
    const t = await limitedApp({ rateLimitMax: 1000 })
    assert.equal((await t.app.inject({ method: 'GET', url: '/probe/costly-failed', headers: t.auth })).statusCode, 503)
    assert.equal((await t.app.inject({ method: 'GET', url: '/probe/costly-refused', headers: t.auth })).statusCode, 400)
    assert.equal((await t.app.inject({ method: 'GET', url: '/probe/costly', headers: t.auth })).statusCode, 200)
    const me = json(await t.app.inject({ method: 'GET', url: '/me', headers: t.auth }))
    assert.deepEqual(me.usage.today.probe, { requests: 2, units: 4 })
  })

  it('refuses a key past its quota until the period ends, and counts usage per endpoint group', async () => {
    const t = await limitedApp({ rateLimitMax: 1000 })
    await t.store.keys.setLimits('test', { quotaMax: 4, quotaPeriod: 'day' })
    assert.equal((await t.app.inject({ method: 'GET', url: '/probe/costly', headers: t.auth })).statusCode, 200)
    const ok = await t.app.inject({ method: 'GET', url: '/gen/html?code=418', headers: t.auth })
    assert.equal(ok.statusCode, 418)
    assert.equal(ok.headers['x-quota-limit'], '4')
    assert.equal(ok.headers['x-quota-remaining'], '0')
    const refused = await t.app.inject({ method: 'GET', url: '/gen/html', headers: t.auth })
    assert.equal(refused.statusCode, 429)
    assert.equal(json(refused).error, 'QUOTA_EXCEEDED')
    const retry = Number(refused.headers['retry-after'])
    const midnight = new Date(); midnight.setUTCHours(24, 0, 0, 0)
    assert.ok(Math.abs(retry - (midnight.getTime() - Date.now()) / 1000) < 5, `Retry-After ${retry} should point at UTC midnight`)

    const me = json(await t.app.inject({ method: 'GET', url: '/me', headers: t.auth }))
    assert.equal(me.name, 'test')
    assert.deepEqual(me.quota && { max: me.quota.max, period: me.quota.period, used: me.quota.used, remaining: me.quota.remaining }, { max: 4, period: 'day', used: 4, remaining: 0 })
    assert.deepEqual(me.usage.today.probe, { requests: 1, units: 3 })
    assert.deepEqual(me.usage.today.system, { requests: 1, units: 1 })
    assert.equal(me.rateLimit.max, 1000)
  })

  it('keeps usage and quotas across a restart', async () => {
    const dir = tempDir()
    try {
      let store = openSqliteStore(dir)
      const { key } = await createKeyService(store.keys).create('restart', 'cli')
      await store.keys.setLimits('restart', { quotaMax: 3, quotaPeriod: 'month' })
      let app = await createAppOn(store, dir)
      for (let i = 0; i < 3; i++) assert.equal((await app.inject({ method: 'GET', url: '/gen/html?code=418', headers: { authorization: key } })).statusCode, 418)
      await app.close()
      await store.close()

      store = openSqliteStore(dir)
      app = await createAppOn(store, dir)
      const res = await app.inject({ method: 'GET', url: '/gen/html', headers: { authorization: key } })
      assert.equal(res.statusCode, 429)
      assert.equal(json(res).error, 'QUOTA_EXCEEDED')
      const rows = await store.usage.list({})
      assert.deepEqual(rows.map((r) => [r.group, r.requests, r.units]), [['system', 3, 3]])
      await app.close()
      await store.close()
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('answers /me with the default limit for a key without its own, and no quota', async () => {
    const t = await limitedApp()
    const res = await t.app.inject({ method: 'GET', url: '/me', headers: t.auth })
    assert.equal(res.statusCode, 200)
    const me = json(res)
    assert.deepEqual({ success: me.success, code: me.code, message: me.message }, { success: true, code: 200, message: '' })
    assert.deepEqual(me.rateLimit, { max: 5, windowSeconds: 60, own: false })
    assert.equal(me.quota, null)
    assert.match(me.prefix, /^um_/)
    // The hosted fields (docs/compatibility.md, "/me"), from whichever store runs the test.
    const stored = (await t.store.keys.list()).find((k) => k.name === 'test')!
    assert.equal(me.id, String(stored.id))
    assert.equal(me.created, stored.createdAt.toISOString())
    assert.match(me.created, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
  })
})
