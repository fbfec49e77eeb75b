// The scheduler every heavy job passes through (src/work/scheduler.ts): admission by the
// time queued ahead against the deadline, fair order between keys, shedding of work that
// would miss its deadline. The clock is injected: no test here sleeps.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { AppError } from '../../../src/errors.js'
import { createScheduler, type Owner } from '../../../src/work/scheduler.js'

/** A scheduler on a hand-moved clock, and jobs that finish when the test says. */
function harness (lanes: number) {
  let now = 0
  const scheduler = createScheduler({ lanes, clock: () => now, busyCode: 'WORK_BUSY' })
  const started: string[] = []
  const finishers = new Map<string, () => void>()
  const settle = async (): Promise<void> => { for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve)) }
  return {
    scheduler,
    started,
    advance (ms: number) { now += ms },
    settle,
    submit (name: string, owner: Owner, estimateMs: number, remainingMs?: number, signal?: AbortSignal): Promise<string> {
      return scheduler.run({ owner, estimateMs, remainingMs, signal }, async () => {
        started.push(name)
        await new Promise<void>((resolve) => finishers.set(name, resolve))
        return name
      })
    },
    /** Ends a running job after `ms` of clock; resolves once the scheduler has moved on. */
    async finish (name: string, ms = 0) {
      now += ms
      const end = finishers.get(name)
      assert.ok(end, `${name} is not running`)
      finishers.delete(name)
      end()
      await settle()
    }
  }
}

const busy = (code: string, retryAfter?: string) => (err: unknown): boolean => {
  assert.ok(err instanceof AppError, String(err))
  assert.equal(err.code, code)
  assert.equal(err.status, 503)
  if (retryAfter !== undefined) assert.equal(err.headers?.['retry-after'], retryAfter)
  return true
}

describe('scheduler: a lone key uses the whole machine', () => {
  it('runs as many of one key\'s jobs as there are lanes, and queues the rest in arrival order', async () => {
    const h = harness(2)
    const jobs = ['a1', 'a2', 'a3', 'a4'].map((n) => h.submit(n, 'A', 100, 30_000))
    await h.settle()
    assert.deepEqual(h.started, ['a1', 'a2'])
    assert.deepEqual([h.scheduler.stats.running, h.scheduler.stats.queued], [2, 2])
    await h.finish('a1', 100)
    await h.finish('a2')
    assert.deepEqual(h.started, ['a1', 'a2', 'a3', 'a4'])
    await h.finish('a3', 100)
    await h.finish('a4')
    assert.deepEqual(await Promise.all(jobs), ['a1', 'a2', 'a3', 'a4'])
  })

  it('admits a burst that can finish within its deadline, however many jobs it has (60 jobs of 25 ms on 2 lanes)', async () => {
    const h = harness(2)
    const jobs = Array.from({ length: 60 }, (_, i) => h.submit(`w${i}`, 'A', 25, 30_000))
    await h.settle()
    assert.deepEqual([h.scheduler.stats.running, h.scheduler.stats.queued, h.scheduler.stats.refused], [2, 58, 0])
    for (let i = 0; i < 60; i++) await h.finish(`w${i}`, 12)
    assert.equal((await Promise.allSettled(jobs)).filter((r) => r.status === 'fulfilled').length, 60)
  })
})

describe('scheduler: admission by time against the deadline', () => {
  it('refuses at once, with 503 and a Retry-After of the time to drain, a job that could not finish in time', async () => {
    const h = harness(1)
    const a = h.submit('a1', 'A', 10_000, 30_000)
    const b = h.submit('a2', 'A', 10_000, 30_000)
    await h.settle()
    // 20 s ahead and 10 s of its own leave it 0 s short: admitted. One more is 10 s over.
    const c = h.submit('a3', 'A', 10_000, 30_000)
    await assert.rejects(h.submit('a4', 'A', 10_000, 30_000), busy('WORK_BUSY', '10'))
    assert.equal(h.scheduler.stats.refused, 1)
    // The Retry-After is honest: after it, with the work run as estimated, the same job fits.
    await h.finish('a1', 10_000)
    await assert.rejects(h.submit('early', 'A', 10_000, 30_000 - 1), busy('WORK_BUSY'))
    const d = h.submit('a4', 'A', 10_000, 30_000)
    await h.finish('a2', 10_000)
    await h.finish('a3', 10_000)
    await h.finish('a4', 10_000)
    assert.deepEqual(await Promise.all([a, b, c, d]), ['a1', 'a2', 'a3', 'a4'])
  })

  it('admits a job on an idle machine even when its estimate exceeds its deadline (the estimate may be wrong)', async () => {
    const h = harness(1)
    const a = h.submit('big', 'A', 60_000, 30_000)
    await h.settle()
    assert.deepEqual(h.started, ['big'])
    await h.finish('big')
    assert.equal(await a, 'big')
  })

  it('counts another key\'s queue only up to the newcomer\'s own share: a light key is admitted past a heavy key\'s backlog', async () => {
    const h = harness(1)
    const heavy = Array.from({ length: 20 }, (_, i) => h.submit(`a${i}`, 'A', 1000, 30_000))
    await h.settle()
    // A has 19 s queued; B's one 1 s job waits for A's running job and at most 1 s of A's queue.
    assert.ok(Math.abs(h.scheduler.expectedWaitMs('B', 1000) - 2000) < 1e-6, String(h.scheduler.expectedWaitMs('B', 1000)))
    // A's own next job would wait for all of A's queue.
    assert.ok(Math.abs(h.scheduler.expectedWaitMs('A', 1000) - 20_000) < 1e-6)
    const b = h.submit('b', 'B', 1000, 3000)
    while (h.scheduler.stats.running > 0) await h.finish(h.started[h.started.length - 1]!, 1000)
    assert.equal(await b, 'b')
    assert.equal(h.started.indexOf('b'), 1, 'B ran right after A\'s running job')
    await Promise.all(heavy)
  })
})

describe('scheduler: fair order between keys', () => {
  it('runs another key\'s job next after one key\'s running job, before the rest of that key\'s burst', async () => {
    const h = harness(1)
    const jobs = Array.from({ length: 10 }, (_, i) => h.submit(`a${i}`, 'A', 100, 30_000))
    await h.settle()
    const b = h.submit('b', 'B', 100, 30_000)
    await h.finish('a0', 100)
    assert.deepEqual(h.started, ['a0', 'b'])
    await h.finish('b', 100)
    for (let i = 1; i < 10; i++) await h.finish(`a${i}`, 100)
    await Promise.all([...jobs, b])
  })

  it('weighs jobs by their estimate: a key of cheap jobs is served several for one of a key of costly jobs', async () => {
    const h = harness(1)
    const all = [h.submit('x', 'X', 10, 30_000)]
    await h.settle()
    for (let i = 0; i < 3; i++) all.push(h.submit(`big${i}`, 'A', 300, 30_000))
    for (let i = 0; i < 6; i++) all.push(h.submit(`small${i}`, 'B', 100, 30_000))
    await h.finish('x', 10)
    while (h.started.length < 10) await h.finish(h.started[h.started.length - 1]!, 100)
    await h.finish(h.started[h.started.length - 1]!)
    // Start tags: A's at 0, 300, 600; B's at 0, 100, …, 500: B's three cheap jobs go before A's second.
    assert.deepEqual(h.started.slice(1, 6), ['big0', 'small0', 'small1', 'small2', 'big1'])
    await Promise.all(all)
  })

  it('serves jobs without a key in arrival order', async () => {
    const h = harness(1)
    const jobs = ['u1', 'u2', 'u3'].map((n) => h.submit(n, undefined, 100, 30_000))
    await h.settle()
    await h.finish('u1')
    await h.finish('u2')
    await h.finish('u3')
    assert.deepEqual(h.started, ['u1', 'u2', 'u3'])
    await Promise.all(jobs)
  })
})

describe('scheduler: leaving and shedding', () => {
  it('a queued job whose signal fires leaves the queue with the signal\'s reason', async () => {
    const h = harness(1)
    const a = h.submit('a', 'A', 100, 30_000)
    const controller = new AbortController()
    const b = h.submit('b', 'B', 100, 30_000, controller.signal)
    await h.settle()
    controller.abort(new AppError('TIMEOUT', 'gone'))
    await assert.rejects(b, (err: unknown) => err instanceof AppError && err.message === 'gone')
    assert.equal(h.scheduler.stats.queued, 0)
    await h.finish('a')
    assert.deepEqual(h.started, ['a'])
    await a
  })

  it('sheds, before it runs, queued work that can no longer finish by its deadline, last queued first', async () => {
    const h = harness(1)
    // Estimated 1 s each, but the first runs 28 s: the queue falls behind its deadlines (30 s).
    const a = Array.from({ length: 5 }, (_, i) => h.submit(`a${i}`, 'A', 1000, 30_000))
    const outcomes = a.map((p) => p.then(() => 'served', (err: unknown) => (err as AppError).code))
    await h.settle()
    await h.finish('a0', 28_000)
    // At 28 s: a1 ends at 29 s and a2 at 30 s; a3 and a4 cannot finish in time and go at once.
    assert.equal(h.scheduler.stats.shed, 2)
    while (h.scheduler.stats.running > 0) await h.finish(h.started[h.started.length - 1]!, 1000)
    assert.deepEqual(await Promise.all(outcomes), ['served', 'served', 'served', 'WORK_BUSY', 'WORK_BUSY'])
    assert.deepEqual(h.started, ['a0', 'a1', 'a2'])
  })

  it('sheds from the key with the most queued first', async () => {
    const h = harness(1)
    const first = h.submit('x', 'X', 1000, 30_000)
    const outcomes = new Map<string, Promise<string>>()
    for (let i = 0; i < 3; i++) outcomes.set(`a${i}`, h.submit(`a${i}`, 'A', 1000, 30_000).then(() => 'served', (err: unknown) => (err as AppError).code))
    outcomes.set('b0', h.submit('b0', 'B', 1000, 30_000).then(() => 'served', (err: unknown) => (err as AppError).code))
    await h.settle()
    // X's job runs 27 s: 3 s are left for 4 s of queued work. A, with the most queued, loses its last.
    await h.finish('x', 27_000)
    while (h.scheduler.stats.running > 0) await h.finish(h.started[h.started.length - 1]!, 1000)
    await first
    const results = Object.fromEntries(await Promise.all([...outcomes].map(async ([k, p]) => [k, await p] as const)))
    assert.equal(results.b0, 'served')
    assert.equal(Object.values(results).filter((r) => r === 'served').length, 3, JSON.stringify(results))
    assert.equal(results.a2, 'WORK_BUSY')
  })
})
