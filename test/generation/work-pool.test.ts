// The worker pool drawing and text conversion run in (src/work/): a job stopped by its
// signal or its time limit holds its slot until its thread has exited, and a request
// waiting for a slot gives up when its signal fires.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { AppError } from '../../src/errors.js'
import type { DrawJob } from '../../src/generation/render-job.js'
import { createLimiter } from '../../src/work/limiter.js'
import { createWork, type Work } from '../../src/work/work.js'
import { tempDir } from '../helpers.js'

/** Seconds of drawing within every budget: 50 rotated full-size triangles, as a 3000×3000 PNG. */
const slowDrawing: DrawJob = {
  format: 'png',
  images: {},
  custom: { output: 'png', base: { width: 3000, height: 3000, color: 'navy' }, images: Array.from({ length: 50 }, (_, i) => ({ type: 'triangle', width: 3000, height: 3000, color: `${i * 5},100,200`, rotate: i * 7 })) }
}

let work: Work
before(() => { work = createWork({ threads: 1, timeoutMs: 0, dataDir: tempDir('uma-pool-') }) })
after(async () => { await work.close() })

describe('work pool', () => {
  it('draws in a worker thread and answers the picture', async () => {
    const png = await work.run({ kind: 'draw', job: { format: 'png', images: {}, template: 'welcome', fields: { username: 'pool' } } }, { signal: new AbortController().signal, busy: 'RENDER_BUSY' })
    assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')])
  })

  it('runs a collection in a thread that drew (what the pool sends each thread once it has been quiet)', async () => {
    await work.run({ kind: 'draw', job: { format: 'png', images: {}, template: 'welcome', fields: { username: 'pool' } } }, { signal: new AbortController().signal, busy: 'RENDER_BUSY' })
    assert.equal(await work.run({ kind: 'collect' }, { signal: new AbortController().signal, busy: 'WORK_BUSY' }), undefined)
    const png = await work.run({ kind: 'draw', job: { format: 'png', images: {}, template: 'welcome', fields: { username: 'again' } } }, { signal: new AbortController().signal, busy: 'RENDER_BUSY' })
    assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')], 'the thread draws again after dropping its idle canvases')
  })

  it('answers a worker\'s AppError as the same AppError', async () => {
    await assert.rejects(work.run({ kind: 'draw', job: { format: 'png', images: {}, custom: { texts: [{ text: 'a', font: 'No Such Font' }] } } }, { signal: new AbortController().signal, busy: 'RENDER_BUSY' }),
      (err: unknown) => err instanceof AppError && err.code === 'UNKNOWN_FONT' && /No Such Font/.test(err.message))
  })

  it('stops an aborted job and gives its slot back only once its thread has exited', async () => {
    const controller = new AbortController()
    const running = work.run({ kind: 'draw', job: slowDrawing }, { signal: controller.signal, busy: 'RENDER_BUSY' })
    // Until a thread has started the job.
    while (work.pool.startedJobs === 0) await new Promise((resolve) => setImmediate(resolve))
    assert.equal(work.pool.liveThreads, 1)
    controller.abort(new AppError('TIMEOUT', 'stopped by the test'))
    await assert.rejects(running, (err: unknown) => err instanceof AppError && err.message === 'stopped by the test')
    assert.equal(work.pool.liveThreads, 0, 'the rejection came before the thread had exited')
    assert.equal(work.limiter.stats.running, 0)
    // The pool serves again.
    const md = await work.run({ kind: 'html-markdown', input: '<b>x</b>' }, { signal: new AbortController().signal, busy: 'WORK_BUSY' })
    assert.equal(JSON.parse(Buffer.from(md).toString()).markdown, '**x**\n')
  })

  it('stops a job at WORK_TIMEOUT_MS with 503 TIMEOUT naming the limit', async () => {
    const limited = createWork({ threads: 1, timeoutMs: 300, dataDir: tempDir('uma-pool-') })
    try {
      await assert.rejects(limited.run({ kind: 'draw', job: slowDrawing }, { signal: new AbortController().signal, busy: 'RENDER_BUSY' }),
        (err: unknown) => err instanceof AppError && err.code === 'TIMEOUT' && err.status === 503 && /300 ms/.test(err.message))
      assert.equal(limited.pool.liveThreads, 0)
    } finally {
      await limited.close()
    }
  })
})

describe('limiter', () => {
  it('a ticket waiting for a slot gives up when its signal fires, and leaves the queue', async () => {
    const limiter = createLimiter({ concurrency: 1, queue: 2 })
    let release!: () => void
    const first = limiter.run(async () => await new Promise<void>((resolve) => { release = resolve }))
    const controller = new AbortController()
    const ticket = limiter.admit()
    const waiting = ticket.run(async () => 'never', controller.signal)
    assert.equal(limiter.stats.waiting, 1)
    controller.abort(new Error('gone'))
    await assert.rejects(waiting, /gone/)
    ticket.release()
    assert.equal(limiter.stats.waiting, 0)
    release()
    await first
    assert.deepEqual(limiter.stats, { admitted: 0, running: 0, waiting: 0 })
  })
})

describe('the limiter shares slots fairly between keys', () => {
  /** A job that runs until the test lets it finish. */
  function held (): { job: () => Promise<void>, finish: () => void } {
    let finish!: () => void
    const done = new Promise<void>((resolve) => { finish = resolve })
    return { job: async () => await done, finish }
  }

  it('a freed slot goes to a waiting key that has nothing running, before the busy key\'s older requests (one key\'s stream of heavy requests made every other key wait its turn)', async () => {
    const limiter = createLimiter({ concurrency: 1, queue: 10 })
    const order: string[] = []
    const first = held()
    const a1 = limiter.admit(undefined, 'A').run(first.job)
    const jobs = ['A', 'A', 'A', 'B'].map((owner, i) => {
      const ticket = limiter.admit(undefined, owner)
      return ticket.run(async () => { order.push(`${owner}${i + 2}`) }).finally(() => ticket.release())
    })
    assert.equal(limiter.stats.waiting, 4)
    first.finish()
    await a1
    await Promise.all(jobs)
    // B's one request runs as soon as A's first job ends, then A's in their order.
    assert.deepEqual(order, ['B5', 'A2', 'A3', 'A4'])
  })

  it('with two slots, the key holding both gets the next one only when no one else waits', async () => {
    const limiter = createLimiter({ concurrency: 2, queue: 10 })
    const order: string[] = []
    const a = [held(), held()]
    const running = a.map((h) => limiter.admit(undefined, 'A').run(h.job))
    const waiting = [['A', 'a3'], ['C', 'c1'], ['A', 'a4'], ['B', 'b1']].map(([owner, name]) =>
      limiter.admit(undefined, owner).run(async () => { order.push(name!) }))
    a[0]!.finish()
    await running[0]
    await new Promise((resolve) => setImmediate(resolve))
    // C waited longer than B: both have nothing running, and neither has started a job.
    assert.deepEqual(order, ['c1', 'b1', 'a3', 'a4'])
    a[1]!.finish()
    await Promise.all([...running, ...waiting])
  })

  it('requests without a key are served in arrival order, as before', async () => {
    const limiter = createLimiter({ concurrency: 1, queue: 10 })
    const order: number[] = []
    const first = held()
    const head = limiter.run(first.job)
    const rest = [1, 2, 3].map((n) => limiter.run(async () => { order.push(n) }))
    first.finish()
    await Promise.all([head, ...rest])
    assert.deepEqual(order, [1, 2, 3])
  })
})
