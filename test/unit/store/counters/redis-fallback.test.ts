// The Redis counters' fallback, in process, through the fault proxy: state() says ok or
// degraded, an outage is logged once each way, hits never wait for Redis once it is known
// down, counts go back to Redis by themselves, and closed mode refuses with a 503 AppError
// (a free hit excepted).
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { CounterLog, CounterStore } from '../../../../src/store/counters/interface.js'
import { createRedisCounterStore } from '../../../../src/store/counters/redis.js'
import { AppError } from '../../../../src/errors.js'
import { redisMissing, TEST_REDIS_URL, uniqueName } from '../../../support/backends.js'
import { type FaultProxy, startFaultProxy } from '../../../support/fault-proxy.js'
import { until } from '../../../support/processes.js'

const missing = await redisMissing()
const target = new URL(TEST_REDIS_URL)
const WINDOW = 60_000

function recordingLog (): CounterLog & { lines: string[] } {
  const lines: string[] = []
  return { lines, warn: (_f, m) => { lines.push(`warn ${m}`) }, info: (_f, m) => { lines.push(`info ${m}`) } }
}

describe('redis counters when Redis fails', { skip: missing }, () => {
  let proxy: FaultProxy
  before(async () => { proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 6379) }) })
  after(() => proxy?.close())
  const url = (): string => `redis://127.0.0.1:${proxy.port}`

  it('falls back to local counts at once, logs the outage once each way, and counts in Redis again', async () => {
    await proxy.pass()
    const log = recordingLog()
    const store: CounterStore = await createRedisCounterStore(url(), `${uniqueName('fb')}:`, { log })
    try {
      assert.equal(store.state(), 'ok')
      const now = Date.now()
      assert.equal((await store.hit('a', 1, WINDOW, now)).count, 1)
      await proxy.blackHole()
      const t = Date.now()
      for (let n = 1; n <= 5; n++) assert.equal((await store.hit('a', 1, WINDOW, now)).count, n, 'local counts start from zero')
      // The first hit waits one command deadline (250 ms); the others do not wait.
      assert.ok(Date.now() - t < 2000, `5 hits took ${Date.now() - t} ms`)
      assert.equal(store.state(), 'degraded')
      await proxy.pass()
      await until(() => store.state() === 'ok', 8000)
      assert.equal((await store.hit('a', 1, WINDOW, now)).count, 2, 'back in Redis, where one unit was counted before the outage')
      assert.deepEqual(log.lines.map((l) => l.split(' ')[0]), ['warn', 'info'], log.lines.join('\n'))
      assert.match(log.lines[0]!, /does not answer .*counted by this instance alone/)
    } finally {
      await store.close()
    }
  })

  it('keeps recent picks locally while Redis fails, never refusing them, even in closed mode', async () => {
    await proxy.pass()
    const store = await createRedisCounterStore(url(), `${uniqueName('fb')}:`, { onStoreError: 'closed' })
    try {
      await store.remember('np', [1, 2], 50, 60_000)
      assert.deepEqual(await store.recent('np', 5), [2, 1])
      await proxy.blackHole()
      const t = Date.now()
      await store.remember('np', [3], 50, 60_000)
      assert.deepEqual(await store.recent('np', 5), [3], 'this instance\'s own memory while Redis does not answer')
      assert.ok(Date.now() - t < 2000, `took ${Date.now() - t} ms`)
      assert.equal(store.state(), 'degraded')
      await proxy.pass()
      await until(() => store.state() === 'ok', 8000)
      assert.deepEqual(await store.recent('np', 5), [2, 1], 'Redis again')
    } finally {
      await store.close()
    }
  })

  it('starts degraded when Redis is unreachable, and switches to it when it comes', async () => {
    await proxy.cut()
    const log = recordingLog()
    const store = await createRedisCounterStore(url(), `${uniqueName('fb')}:`, { log })
    try {
      assert.equal(store.state(), 'degraded')
      assert.equal((await store.hit('b', 3, WINDOW, Date.now())).count, 3)
      assert.equal(log.lines.length, 1, log.lines.join('\n'))
      await proxy.pass()
      await until(() => store.state() === 'ok', 8000)
      assert.equal((await store.hit('b', 1, WINDOW, Date.now())).count, 1, 'counted in Redis, where nothing was')
    } finally {
      await store.close()
    }
  })

  it('closed: refuses a hit with a 503 and Retry-After while Redis is cut, a free hit excepted', async () => {
    await proxy.pass()
    const store = await createRedisCounterStore(url(), `${uniqueName('fb')}:`, { onStoreError: 'closed' })
    try {
      await proxy.cut()
      await assert.rejects(store.hit('c', 1, WINDOW, Date.now()), (err: unknown) => {
        assert.ok(err instanceof AppError)
        assert.equal(err.status, 503)
        assert.ok(Number(err.headers?.['retry-after']) > 0)
        return true
      })
      assert.equal((await store.hit('c', 0, WINDOW, Date.now())).count, 0)
      await proxy.pass()
      await until(() => store.state() === 'ok', 8000)
      assert.equal((await store.hit('c', 1, WINDOW, Date.now())).count, 1)
    } finally {
      await store.close()
    }
  })
})
