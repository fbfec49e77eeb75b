// Per-IP buckets that one client cannot multiply: an IPv6 /64 is one client, an
// IPv4-mapped IPv6 address is its IPv4 address; and the in-memory counters stay bounded
// however many identities arrive within one window.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { loadConfig } from '../../../src/config.js'
import { clientBucket } from '../../../src/http/client-address.js'
import { createMemoryCounterStore } from '../../../src/store/counters/memory.js'
import { createTestApp, type TestApp } from '../../support/helpers.js'

const apps: TestApp[] = []
after(async () => { for (const a of apps) await a.close() })

async function ipLimitedApp (overrides: Record<string, unknown> = {}): Promise<TestApp> {
  const t = await createTestApp({
    config: { rateLimitIpMax: 3, rateLimitWindowMs: 60_000, ...overrides },
    beforeReady (app) {
      app.get('/probe/public', { config: { public: true } }, async () => ({ success: true, code: 200, message: '' }))
    }
  })
  apps.push(t)
  return t
}

const statusFrom = async (t: TestApp, remoteAddress: string): Promise<number> =>
  (await t.app.inject({ method: 'GET', url: '/probe/public', remoteAddress })).statusCode

describe('per-IP buckets', () => {
  it('folds IPv4-mapped IPv6 addresses into their IPv4 address', () => {
    assert.equal(clientBucket('::ffff:203.0.113.7'), '203.0.113.7')
    assert.equal(clientBucket('::ffff:cb00:7107'), '203.0.113.7')
    assert.equal(clientBucket('203.0.113.7'), '203.0.113.7')
  })

  it('groups IPv6 addresses by their /64, or the configured prefix', () => {
    assert.equal(clientBucket('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), '2001:db8:1:2::/64')
    assert.equal(clientBucket('2001:db8:1:2::1'), '2001:db8:1:2::/64')
    assert.notEqual(clientBucket('2001:db8:1:3::1'), clientBucket('2001:db8:1:2::1'))
    assert.equal(clientBucket('2001:db8:1:2:ffff::1', 48), '2001:db8:1::/48')
    assert.equal(clientBucket('2001:db8:1:2:ffff::1', 56), '2001:db8:1::/56')
    assert.equal(clientBucket('2001:db8:1:2ff::1', 56), '2001:db8:1:200::/56')
    assert.equal(clientBucket('2001:db8::1', 128), '2001:db8::1')
    assert.equal(clientBucket('::1'), '::/64')
  })

  it('limits a whole IPv6 /64 as one client (regression: every address had its own bucket)', async () => {
    const t = await ipLimitedApp()
    const codes = []
    for (let i = 1; i <= 4; i++) codes.push(await statusFrom(t, `2001:db8:aa:bb::${i.toString(16)}`))
    assert.deepEqual(codes, [200, 200, 200, 429])
    assert.equal(await statusFrom(t, '2001:db8:aa:bc::1'), 200, 'the next /64 is another client')
  })

  it('limits ::ffff:a.b.c.d and a.b.c.d as one client (regression: two buckets)', async () => {
    const t = await ipLimitedApp()
    const codes = [
      await statusFrom(t, '198.51.100.9'),
      await statusFrom(t, '::ffff:198.51.100.9'),
      await statusFrom(t, '198.51.100.9'),
      await statusFrom(t, '::ffff:198.51.100.9')
    ]
    assert.deepEqual(codes, [200, 200, 200, 429])
  })

  it('takes the prefix from RATE_LIMIT_IPV6_PREFIX (1..128, default 64)', async () => {
    assert.equal(loadConfig({}).rateLimitIpv6Prefix, 64)
    assert.equal(loadConfig({ RATE_LIMIT_IPV6_PREFIX: '48' }).rateLimitIpv6Prefix, 48)
    for (const bad of ['0', '129', 'x', '-1']) assert.throws(() => loadConfig({ RATE_LIMIT_IPV6_PREFIX: bad }), /RATE_LIMIT_IPV6_PREFIX/)
    const t = await ipLimitedApp({ rateLimitIpv6Prefix: 48 })
    const codes = []
    for (let i = 1; i <= 4; i++) codes.push(await statusFrom(t, `2001:db8:77:${i}::1`))
    assert.deepEqual(codes, [200, 200, 200, 429], 'four /64s of one /48 share a bucket')
  })
})

describe('the in-memory counter store', () => {
  it('stays at its bound under many distinct identities within one window, and still limits', async () => {
    const bound = 1000
    const store = createMemoryCounterStore(bound)
    const windowMs = 60_000
    const now = 1_800_000_000_000
    for (let i = 0; i < 50 * bound; i++) await store.hit(`ip2001:db8:${i.toString(16)}::/64`, 1, windowMs, now + (i % 1000))
    assert.equal(store.size, bound)
    // A client hitting all along is recently used: its count survives the flood.
    const steady = createMemoryCounterStore(bound)
    for (let i = 0; i < 20 * bound; i++) {
      await steady.hit(`ip${i}`, 1, windowMs, now)
      if (i % 100 === 0) await steady.hit('kbusy', 1, windowMs, now)
    }
    assert.equal(steady.size, bound)
    assert.deepEqual(await steady.hit('kbusy', 1, windowMs, now), { count: 20 * bound / 100 + 1, resetAt: now + windowMs })
  })

  it('takes its bound from RATE_LIMIT_MAX_TRACKED (default 100000)', () => {
    assert.equal(loadConfig({}).rateLimitMaxTracked, 100_000)
    assert.equal(loadConfig({ RATE_LIMIT_MAX_TRACKED: '5000' }).rateLimitMaxTracked, 5000)
    assert.throws(() => loadConfig({ RATE_LIMIT_MAX_TRACKED: '10' }), /RATE_LIMIT_MAX_TRACKED/)
  })
})
