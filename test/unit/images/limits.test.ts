// The decompression-bomb policy (src/images/limits.ts): each limit exactly at its value
// and one over, animated frames counted against the pixels, and the order in which the
// limits are checked (the first passed is the outcome each caller answers).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { checkSource, GIF_IMPORT_LIMITS, OPERATOR_ASSET_LIMITS, REMOTE_IMAGE_LIMITS } from '../../../src/images/limits.js'

describe('checkSource', () => {
  it('passes a source within every limit, with its pixels over all frames', () => {
    assert.deepEqual(checkSource({ width: 10, height: 20, frames: 3 }, { maxFramePixels: 200, maxFrames: 3, maxPixels: 600 }), { ok: true, pixels: 600 })
    assert.deepEqual(checkSource({ width: 1, height: 1, frames: 1 }, {}), { ok: true, pixels: 1 })
  })

  it('refuses a source that declares no width or height, before any limit', () => {
    for (const [width, height] of [[0, 10], [10, 0], [0, 0], [-1, 10], [Number.NaN, 10]]) {
      assert.deepEqual(checkSource({ width: width!, height: height!, frames: 1 }, { maxFramePixels: 1 }), { ok: false, limit: 'size' }, `${width}×${height}`)
    }
  })

  it('pixels of one frame: exactly at the limit passes, one over is refused', () => {
    assert.equal(checkSource({ width: 100, height: 100, frames: 1 }, { maxFramePixels: 10_000 }).ok, true)
    assert.deepEqual(checkSource({ width: 10_001, height: 1, frames: 1 }, { maxFramePixels: 10_000 }), { ok: false, limit: 'frame-pixels', value: 10_001, max: 10_000 })
    // Counted per frame: many small frames pass.
    assert.equal(checkSource({ width: 100, height: 100, frames: 1000 }, { maxFramePixels: 10_000 }).ok, true)
  })

  it('frames: exactly at the limit passes, one over is refused', () => {
    assert.equal(checkSource({ width: 1, height: 1, frames: 1000 }, { maxFrames: 1000 }).ok, true)
    assert.deepEqual(checkSource({ width: 1, height: 1, frames: 1001 }, { maxFrames: 1000 }), { ok: false, limit: 'frames', value: 1001, max: 1000 })
  })

  it('pixels over all frames: an animation counts every frame', () => {
    // 100×100 × 100 frames = 1,000,000: at the limit, and over a limit one less.
    assert.deepEqual(checkSource({ width: 100, height: 100, frames: 100 }, { maxPixels: 1_000_000 }), { ok: true, pixels: 1_000_000 })
    assert.deepEqual(checkSource({ width: 100, height: 100, frames: 100 }, { maxPixels: 999_999 }), { ok: false, limit: 'pixels', value: 1_000_000, max: 999_999 })
    // One frame of the same size is far within it.
    assert.equal(checkSource({ width: 100, height: 100, frames: 1 }, { maxPixels: 999_999 }).ok, true)
  })

  it('a header declaring the largest sizes is refused, not overflowed', () => {
    // 2^31 - 1 per side (what a PNG may declare) and 100,000 frames: 4.6e23 pixels.
    const side = 2 ** 31 - 1
    const check = checkSource({ width: side, height: side, frames: 100_000 }, { maxPixels: 50_000_000 })
    assert.equal(check.ok, false)
    assert.equal(!check.ok && check.limit, 'pixels')
  })

  it('checks in one order: size, pixels of a frame, frames, pixels over all frames', () => {
    const all = { maxFramePixels: 100, maxFrames: 2, maxPixels: 150 }
    assert.equal(limitOf(checkSource({ width: 0, height: 50, frames: 9 }, all)), 'size')
    assert.equal(limitOf(checkSource({ width: 20, height: 20, frames: 9 }, all)), 'frame-pixels')
    assert.equal(limitOf(checkSource({ width: 10, height: 10, frames: 9 }, all)), 'frames')
    assert.equal(limitOf(checkSource({ width: 10, height: 10, frames: 2 }, all)), 'pixels')
  })
})

describe('each caller\'s limits', () => {
  it('remote images: 25 MP a frame, whatever the frames', () => {
    assert.equal(checkSource({ width: 5000, height: 5000, frames: 1 }, REMOTE_IMAGE_LIMITS).ok, true)
    assert.equal(limitOf(checkSource({ width: 5001, height: 5000, frames: 1 }, REMOTE_IMAGE_LIMITS)), 'frame-pixels')
    assert.equal(checkSource({ width: 500, height: 500, frames: 10_000 }, REMOTE_IMAGE_LIMITS).ok, true)
  })

  it('gif import: 4096×4096 a frame and 5000 frames', () => {
    assert.equal(checkSource({ width: 4096, height: 4096, frames: 5000 }, GIF_IMPORT_LIMITS).ok, true)
    assert.equal(limitOf(checkSource({ width: 4097, height: 4096, frames: 1 }, GIF_IMPORT_LIMITS)), 'frame-pixels')
    assert.equal(limitOf(checkSource({ width: 1, height: 1, frames: 5001 }, GIF_IMPORT_LIMITS)), 'frames')
  })

  it('operator assets: only a declared size', () => {
    assert.equal(checkSource({ width: 30_000, height: 30_000, frames: 1 }, OPERATOR_ASSET_LIMITS).ok, true)
    assert.equal(limitOf(checkSource({ width: 0, height: 0, frames: 1 }, OPERATOR_ASSET_LIMITS)), 'size')
  })
})

function limitOf (check: ReturnType<typeof checkSource>): string | undefined {
  return check.ok ? undefined : check.limit
}
