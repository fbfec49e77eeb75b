// Collection once the worker pool goes quiet (src/system/garbage.ts), on a mocked clock.
import assert from 'node:assert/strict'
import { describe, it, mock } from 'node:test'
import { afterQuiet, collectGarbage, collectYoung } from '../../src/system/garbage.js'

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
