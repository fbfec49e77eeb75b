// Canvases reused within a burst of pictures, dropped when the thread goes quiet
// (src/generation/canvas/canvas-pool.ts).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createCanvasPool } from '../../../../src/generation/canvas/canvas-pool.js'

describe('the canvas pool', () => {
  it('hands a released canvas out again for the same size, cleared', () => {
    const pool = createCanvasPool()
    const first = pool.acquire(64, 32)
    first.getContext('2d').fillRect(0, 0, 64, 32)
    pool.release(first)
    const again = pool.acquire(64, 32)
    assert.equal(again, first)
    assert.equal(again.getContext('2d').getImageData(0, 0, 1, 1).data[3], 0, 'the reused canvas still holds the last picture')
    assert.notEqual(pool.acquire(64, 32), first, 'one canvas handed out twice')
  })

  it('keeps no more idle canvases than its bound in bytes', () => {
    const pool = createCanvasPool(64 * 32 * 4)
    const a = pool.acquire(64, 32)
    const b = pool.acquire(64, 32)
    pool.release(a)
    pool.release(b)
    assert.equal(pool.acquire(64, 32), a)
    assert.notEqual(pool.acquire(64, 32), b, 'a canvas beyond the bound was kept')
  })

  it('lets go of every idle canvas when cleared', () => {
    const pool = createCanvasPool()
    const canvas = pool.acquire(64, 32)
    pool.release(canvas)
    pool.clear()
    assert.notEqual(pool.acquire(64, 32), canvas)
  })
})
