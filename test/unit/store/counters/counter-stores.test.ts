// The rate-limit counter stores: the same behaviour in memory and in Redis.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { Redis } from 'ioredis'
import type { CounterStore } from '../../../../src/store/counters/interface.js'
import { parseDuration, parseQuota, parseRate } from '../../../../src/config/units.js'
import { createMemoryCounterStore } from '../../../../src/store/counters/memory.js'
import { createRedisCounterStore } from '../../../../src/store/counters/redis.js'
import { redisMissing, TEST_REDIS_URL, uniqueName } from '../../../support/backends.js'

const redisSkip = await redisMissing()
const prefix = `${uniqueName('counters')}:`

const stores: Array<{ name: string, skip?: string, open: () => Promise<CounterStore> }> = [
  { name: 'memory', open: async () => createMemoryCounterStore() },
  { name: 'redis', skip: redisSkip, open: () => createRedisCounterStore(TEST_REDIS_URL, prefix) }
]

for (const s of stores) {
  describe(`counter store: ${s.name}`, { skip: s.skip }, () => {
    let store: CounterStore
    after(async () => { await store?.close() })

    it('adds costs within a window aligned on the epoch, and starts again in the next', async () => {
      store = await s.open()
      const windowMs = 60_000
      const t0 = 1_800_000_000_000 // a window boundary (a multiple of 60 s)
      assert.deepEqual(await store.hit('k1', 1, windowMs, t0 + 5), { count: 1, resetAt: t0 + windowMs })
      assert.deepEqual(await store.hit('k1', 3, windowMs, t0 + 59_999), { count: 4, resetAt: t0 + windowMs })
      assert.deepEqual(await store.hit('k2', 2, windowMs, t0 + 10), { count: 2, resetAt: t0 + windowMs }, 'identities are separate')
      assert.deepEqual(await store.hit('k1', 1, windowMs, t0 + windowMs), { count: 1, resetAt: t0 + 2 * windowMs })
      assert.deepEqual(await store.hit('k1', 0, windowMs, t0 + windowMs + 1), { count: 1, resetAt: t0 + 2 * windowMs }, 'a free hit only reads')
    })

    it('remembers recent values per id (newest first), keeping the newest, forgetting them after their time (norepeat)', async () => {
      assert.deepEqual(await store.recent('np1', 5), [])
      await store.remember('np1', [1, 2, 3], 4, 60_000)
      await store.remember('np1', [4, 5], 4, 60_000)
      await store.remember('np1', [], 4, 60_000)
      assert.deepEqual(await store.recent('np1', 10), [5, 4, 3, 2], 'the newest 4 kept')
      assert.deepEqual(await store.recent('np1', 2), [5, 4])
      assert.deepEqual(await store.recent('np1', 0), [])
      assert.deepEqual(await store.recent('np2', 3), [], 'ids are separate')
      await store.remember('np3', [7], 4, 40)
      await new Promise((resolve) => setTimeout(resolve, 120))
      assert.deepEqual(await store.recent('np3', 3), [], 'forgotten after its time')
    })
  })
}

describe('redis counters expire with their window', { skip: redisSkip }, () => {
  it('sets an expiry on the window key', async () => {
    const store = await createRedisCounterStore(TEST_REDIS_URL, prefix)
    const redis = new Redis(TEST_REDIS_URL)
    try {
      const now = Date.now()
      await store.hit('ttl', 1, 10_000, now)
      const keys = await redis.keys(`${prefix}rl:ttl:*`)
      assert.equal(keys.length, 1)
      const ttl = await redis.pttl(keys[0]!)
      assert.ok(ttl > 0 && ttl <= 11_000, `pttl ${ttl}`)
    } finally {
      await store.close()
      await redis.quit()
    }
  })
})

describe('rates, quotas and durations as operators write them', () => {
  it('parses durations', () => {
    assert.equal(parseDuration('1 minute'), 60_000)
    assert.equal(parseDuration('30s'), 30_000)
    assert.equal(parseDuration('2 hours'), 7_200_000)
    assert.equal(parseDuration('1500'), 1500)
    assert.equal(parseDuration('minute'), 60_000)
    assert.equal(parseDuration('soon'), undefined)
    assert.equal(parseDuration('0s'), undefined)
  })

  it('parses rates and quotas, refusing nonsense', () => {
    assert.deepEqual(parseRate('100/1m'), { max: 100, windowMs: 60_000 })
    assert.deepEqual(parseRate('20 per 10s'), { max: 20, windowMs: 10_000 })
    assert.equal(parseRate('0/1m'), undefined)
    assert.equal(parseRate('fast'), undefined)
    assert.deepEqual(parseQuota('10000/day'), { max: 10_000, period: 'day' })
    assert.deepEqual(parseQuota('5 per Month'), { max: 5, period: 'month' })
    assert.equal(parseQuota('10/week'), undefined)
  })
})
