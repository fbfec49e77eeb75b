// The worker pool drawing and text conversion run in (src/work/): a job stopped by its
// signal or its time limit holds its lane until its thread has exited (the scheduler's own
// tests are test/unit/work/scheduler.test.ts). The pool runs the features' own thread code
// (src/generation/pipeline/thread.ts, src/conversion/text/thread.ts) by file and export name.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { TEXT_PRIORS } from '../../../src/conversion/text/routes.js'
import type * as textThread from '../../../src/conversion/text/thread.js'
import { AppError } from '../../../src/errors.js'
import type { DrawJob } from '../../../src/generation/pipeline/render-job.js'
import { GENERATION_PRIORS } from '../../../src/generation/service.js'
import type * as drawingThread from '../../../src/generation/pipeline/thread.js'
import { emojiFontInDataDir } from '../../../src/generation/text/emoji-font.js'
import type * as heldThread from '../../fixtures/held-thread.js'
import { createWorkPool } from '../../../src/work/pool.js'
import { createWork, threadCode, type Work } from '../../../src/work/work.js'
import { tempDir } from '../../support/helpers.js'
import { until } from '../../support/processes.js'

/**
 * About a second of drawing within every budget (1.1–1.4 s on the 2-core machine): 20
 * lines of large outlined and blurred text over 50 rotated full-size triangles, as a
 * 3000×3000 PNG. The triangles alone came to 76–160 ms once flat pictures were deflated
 * in the fast mode (src/generation/canvas/draw.ts), under the 300 ms limit the timeout test sets,
 * and a blurred layer added only about 100 ms.
 */
const slowDrawing: DrawJob = {
  format: 'png',
  images: {},
  custom: {
    output: 'png',
    base: { width: 3000, height: 3000, color: 'navy' },
    texts: Array.from({ length: 20 }, (_, i) => ({ text: 'Slow glyphs drawn large ' + 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.repeat(8), size: 400, x: 0, y: i * 150, width: 3000, outlinewidth: 20, outlineblur: 100, color: `${i * 10},200,100` })),
    images: Array.from({ length: 50 }, (_, i) => ({ type: 'triangle', width: 3000, height: 3000, color: `${i * 5},100,200`, rotate: i * 7 }))
  }
}

const DRAW = threadCode<typeof drawingThread.draw>(new URL('../../../src/generation/pipeline/thread.js', import.meta.url), 'draw')
const HTML_TO_MARKDOWN = threadCode<typeof textThread.htmlToMarkdown>(new URL('../../../src/conversion/text/thread.js', import.meta.url), 'htmlToMarkdown')
const HELD = threadCode<typeof heldThread.held>(new URL('../../fixtures/held-thread.js', import.meta.url), 'held')
const DRAWING = { kind: 'draw', units: 0 }
const options = (busy: 'RENDER_BUSY' | 'WORK_BUSY' = 'RENDER_BUSY', signal = new AbortController().signal) => ({ signal, busy })
/**
 * A data folder as the server leaves it at start (src/server.ts): the emoji font already
 * unpacked, on this thread. Otherwise each drawing thread unpacks it with zlib.inflateSync
 * as it loads, and a thread terminated then (the WORK_TIMEOUT_MS test stops one 300 ms in,
 * its modules maybe still loading) can abort the whole process: Node asserts
 * `init_done_ && "close before init"` (node_zlib.cc) when a worker is torn down between a
 * zlib handle's construction and its init (Nodes 20, 24 and 26; seen once in CI on 26).
 */
function dataDir (): string {
  const dir = tempDir('uma-pool-')
  emojiFontInDataDir(dir)
  return dir
}
const createTestWork = (timeoutMs: number): Work => createWork({
  threads: 1,
  timeoutMs,
  dataDir: dataDir(),
  libvips: { lanes: 1, memoryBytes: 64 * 1024 * 1024 },
  priors: { threads: { ...GENERATION_PRIORS.threads, ...TEXT_PRIORS }, libvips: {} }
})
const welcome = (username: string): DrawJob => ({ format: 'png', images: {}, template: 'welcome', fields: { username } })

let work: Work
before(() => { work = createTestWork(0) })
after(async () => { await work.close() })

describe('work pool', () => {
  it('draws in a worker thread and answers the picture', async () => {
    const png = await work.thread(DRAW, welcome('pool'), DRAWING, options()) as Uint8Array
    assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')])
  })

  it('runs a collection in a thread that drew (what the pool sends each thread once it has been quiet)', async () => {
    const pool = createWorkPool({ threads: 1, timeoutMs: 0, dataDir: tempDir('uma-pool-') })
    try {
      await pool.run(DRAW, welcome('pool'))
      assert.equal(await pool.collect(), undefined)
      const png = await pool.run(DRAW, welcome('again')) as Uint8Array
      assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')], 'the thread draws again after dropping its idle canvases')
    } finally {
      await pool.close()
    }
  })

  it('answers a worker\'s AppError as the same AppError', async () => {
    await assert.rejects(work.thread(DRAW, { format: 'png', images: {}, custom: { texts: [{ text: 'a', font: 'No Such Font' }] } }, DRAWING, options()),
      (err: unknown) => err instanceof AppError && err.code === 'UNKNOWN_FONT' && /No Such Font/.test(err.message))
  })

  it('stops an aborted job and gives its slot back only once its thread has exited', async () => {
    const controller = new AbortController()
    const running = work.thread(DRAW, slowDrawing, DRAWING, options('RENDER_BUSY', controller.signal))
    // Until a thread has started the job.
    while (work.stats.startedThreadJobs === 0) await new Promise((resolve) => setImmediate(resolve))
    assert.equal(work.stats.liveThreads, 1)
    controller.abort(new AppError('TIMEOUT', 'stopped by the test'))
    await assert.rejects(running, (err: unknown) => err instanceof AppError && err.message === 'stopped by the test')
    assert.equal(work.stats.liveThreads, 0, 'the rejection came before the thread had exited')
    assert.equal(work.stats.threads.running, 0)
    // The pool serves again.
    const md = await work.thread(HTML_TO_MARKDOWN, '<b>x</b>', { kind: 'html-markdown', units: 8 }, options('WORK_BUSY'))
    assert.equal(JSON.parse(Buffer.from(md).toString()).markdown, '**x**\n')
  })

  // A load's connections closing with short jobs running stopped both threads, and the
  // next requests waited for new ones that compiled their code again (docs/performance.md).
  it('lets a started job that ends within ABORT_GRACE_MS end on its thread, and still rejects with the reason', async () => {
    // A job known to be running on its thread when the signal fires, which ends (let go by
    // the test) well within the grace.
    const gate = new Int32Array(new SharedArrayBuffer(4))
    const controller = new AbortController()
    const running = work.thread(HELD, { gate }, { kind: 'markdown-html', units: 0 }, options('WORK_BUSY', controller.signal))
    await until(() => work.stats.startedThreadJobs === 1, 10_000, 'the job started on its thread')
    controller.abort(new AppError('TIMEOUT', 'the client left'))
    Atomics.store(gate, 0, 1)
    Atomics.notify(gate, 0)
    await assert.rejects(running, (err: unknown) => err instanceof AppError && err.message === 'the client left')
    assert.equal(work.stats.liveThreads, 1, 'the thread was stopped although its job ended within the grace')
    assert.equal(work.stats.threads.running, 0)
  })

  it('stops a job at WORK_TIMEOUT_MS with 503 TIMEOUT naming the limit', async () => {
    const limited = createTestWork(300)
    try {
      await assert.rejects(limited.thread(DRAW, slowDrawing, DRAWING, options()),
        (err: unknown) => err instanceof AppError && err.code === 'TIMEOUT' && err.status === 503 && /300 ms/.test(err.message))
      assert.equal(limited.stats.liveThreads, 0)
    } finally {
      await limited.close()
    }
  })
})

describe('work pool threads after a burst', () => {
  it('ends the threads a burst started beside the first after retireMs, and the first once idleTimeoutMs has passed', async () => {
    // piscina's idle timers cannot be given a clock: small real times, and conditions
    // awaited with a deadline rather than timed.
    const retireMs = 1000
    const pool = createWorkPool({ threads: 2, timeoutMs: 0, dataDir: dataDir(), retireMs, idleTimeoutMs: 8000 })
    try {
      const draw = async (username: string): Promise<unknown> => await pool.run(DRAW, welcome(username))
      await Promise.all([draw('one'), draw('two')])
      assert.equal(pool.liveThreads, 2, 'two pictures at once started two threads')
      await until(() => pool.liveThreads === 1, 10_000)
      // Three times retireMs: without the pool's 'stay' tasks the last thread would have ended too.
      await new Promise((resolve) => setTimeout(resolve, 3 * retireMs))
      assert.equal(pool.liveThreads, 1, 'the first thread stays until the pool has been idle for idleTimeoutMs')
      await until(() => pool.liveThreads === 0, 20_000)
    } finally {
      await pool.close()
    }
  })
})
