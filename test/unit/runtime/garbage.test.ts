// Collection once the worker pool, or the event loop's requests, go quiet
// (src/runtime/garbage.ts), on a mocked clock.
import assert from 'node:assert/strict'
import { describe, it, mock } from 'node:test'
import { spawnSync } from 'node:child_process'
import { afterQuiet, collectGarbage, collectYoung, createQuietCollector } from '../../../src/runtime/garbage.js'

describe('collection after a quiet spell', () => {
  it('acts once no job has run for the quiet time, and not before', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] })
    const letGo = mock.fn()
    const quiet = afterQuiet(letGo, 1000)
    quiet.busy()
    quiet.idle()
    t.mock.timers.tick(999)
    assert.equal(letGo.mock.callCount(), 0)
    quiet.busy() // a job started: the quiet spell starts again after it
    t.mock.timers.tick(5000)
    assert.equal(letGo.mock.callCount(), 0)
    quiet.idle()
    t.mock.timers.tick(1000)
    assert.equal(letGo.mock.callCount(), 1)
    t.mock.timers.tick(10_000)
    assert.equal(letGo.mock.callCount(), 1, 'one quiet spell, one collection')
  })

  it('collects only where the collector is exposed (the start command exposes it)', () => {
    const exposed = typeof (globalThis as { gc?: unknown }).gc === 'function'
    assert.equal(collectGarbage(), exposed)
  })

  it('asks for a scavenge of the young generation only, where the collector is exposed', () => {
    const global = globalThis as { gc?: unknown }
    const exposed = global.gc
    const gc = mock.fn()
    try {
      global.gc = gc
      assert.equal(collectYoung(), true)
      assert.deepEqual(gc.mock.calls.map((c) => c.arguments), [[{ type: 'minor' }]])
      global.gc = undefined
      assert.equal(collectYoung(), false)
    } finally {
      // Run with --expose-gc, the property cannot be deleted.
      global.gc = exposed
    }
  })
})

describe('the event loop\'s collection after requests', () => {
  const MB = 1024 * 1024
  /** A collector on a mocked clock: `heap` is what V8 reports, `collect` records and shrinks it. */
  function setup (t: { mock: { timers: { enable: (o: { apis: Array<'setTimeout'> }) => void } } }) {
    t.mock.timers.enable({ apis: ['setTimeout'] })
    const state = { now: 0, heap: 30 * MB, collections: 0 }
    const collector = createQuietCollector({
      quietMs: 500,
      growthBytes: 4 * MB,
      now: () => state.now,
      heapSize: () => state.heap,
      collect: () => { state.collections++; state.heap = 31 * MB; return true }
    })
    return { state, collector }
  }
  const advance = (t: { mock: { timers: { tick: (ms: number) => void } } }, state: { now: number }, ms: number): void => {
    state.now += ms
    t.mock.timers.tick(ms)
  }
  /** A request that leaves V8's heap at `heapMb`, then a second of quiet. */
  const requestThenQuiet = (t: Parameters<typeof advance>[0], state: { now: number, heap: number }, collector: { mark: () => void }, heapMb: number): void => {
    collector.mark()
    state.heap = heapMb * MB
    advance(t, state, 1000)
  }

  it('collects once no request has started or ended for the quiet time after the heap grew, and not before', (t) => {
    const { state, collector } = setup(t)
    collector.mark()
    state.heap = 40 * MB
    advance(t, state, 300)
    collector.mark() // the request ends: the quiet spell starts again
    advance(t, state, 499)
    assert.equal(state.collections, 0)
    advance(t, state, 1)
    assert.equal(state.collections, 1)
    advance(t, state, 10_000)
    assert.equal(state.collections, 1, 'one quiet spell, one collection')
    collector.stop()
  })

  it('leaves a heap that grew less than the threshold alone, and counts growth from the last collection', (t) => {
    const { state, collector } = setup(t)
    requestThenQuiet(t, state, collector, 33)
    assert.equal(state.collections, 0, '3 MB of growth: no collection')
    requestThenQuiet(t, state, collector, 34)
    assert.equal(state.collections, 1, '4 MB since the start: collected')
    requestThenQuiet(t, state, collector, 34)
    assert.equal(state.collections, 1, '3 MB since the collection left it at 31 MB')
    collector.stop()
  })

  it('counts growth from where V8 shrank the heap by itself', (t) => {
    const { state, collector } = setup(t)
    requestThenQuiet(t, state, collector, 20) // V8's memory reducer ran meanwhile
    assert.equal(state.collections, 0)
    requestThenQuiet(t, state, collector, 24)
    assert.equal(state.collections, 1, '4 MB above the 20 MB V8 left')
    collector.stop()
  })

  it('does nothing once stopped, and arms no timer without requests', (t) => {
    const { state, collector } = setup(t)
    state.heap = 60 * MB
    advance(t, state, 10_000)
    assert.equal(state.collections, 0, 'no request, no collection')
    collector.mark()
    collector.stop()
    advance(t, state, 10_000)
    assert.equal(state.collections, 0)
  })

  it('a compacting collection gives back the pages a plain one keeps (V8 in a process with the start command\'s flags)', () => {
    // Half of every page's objects survive: V8's own heuristics leave such pages as they
    // are (two plain collections in a row keep the heap's size), compaction moves the
    // survivors together and releases the rest, as on the event loop after requests.
    const script = `
      import v8 from 'node:v8'
      import { collectGarbage } from ${JSON.stringify(new URL('../../../src/runtime/garbage.ts', import.meta.url).href)}
      const grow = () => { const all = []; for (let i = 0; i < 200000; i++) all.push({ i, s: 'x' + i }); return all.filter((_, i) => i % 2 === 0) }
      const held = [grow(), grow(), grow()]
      const size = () => v8.getHeapStatistics().total_heap_size
      collectGarbage(); collectGarbage(); const plain = size()
      collectGarbage({ compact: true }); const compacted = size()
      process.stdout.write(JSON.stringify({ plain, compacted, held: held.length }))
    `
    const run = spawnSync(process.execPath, ['--expose-gc', '--max-semi-space-size=1', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' })
    assert.equal(run.status, 0, run.stderr)
    const { plain, compacted } = JSON.parse(run.stdout) as { plain: number, compacted: number }
    assert.ok(compacted <= plain - 4 * MB, `compacted, the heap is ${(compacted / MB).toFixed(1)} MB against ${(plain / MB).toFixed(1)} MB after plain collections`)
  })
})
