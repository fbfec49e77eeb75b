// The perceptual hash flags the same gif resized or re-encoded, and not different art
// (NEAR_DUPLICATE_MAX_DISTANCE, documented in docs/gifs.md, "Near-duplicates").
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import sharp from 'sharp'
import { renderStarterGif } from '../../../src/gifs/starter-art.js'
import { hammingDistance, isNearDuplicate, NEAR_DUPLICATE_MAX_DISTANCE, perceptualHash, PHASH_PATTERN } from '../../../src/gifs/perceptual-hash.js'

const FRAMES = 10

describe('perceptual hash', () => {
  it('is 48 hex digits, the same for the same bytes', async () => {
    const gif = renderStarterGif('hug', 0, 96, 64)
    const a = await perceptualHash(gif, FRAMES)
    assert.match(a, PHASH_PATTERN)
    assert.equal(await perceptualHash(gif, FRAMES), a)
    assert.equal(hammingDistance(a, a), 0)
  })

  it('finds the same gif resized and re-encoded near, different art far', async () => {
    const gif = renderStarterGif('hug', 0, 96, 64)
    const resized = await sharp(gif, { animated: true }).resize(77, 51, { fit: 'fill' }).gif({ colours: 64, effort: 1 }).toBuffer()
    const enlarged = await sharp(gif, { animated: true }).resize(192, 128).gif({ dither: 1 }).toBuffer()
    assert.notEqual(resized.toString('hex'), gif.toString('hex'))
    const original = await perceptualHash(gif, FRAMES)
    const near = [await perceptualHash(resized, FRAMES), await perceptualHash(enlarged, FRAMES)]
    for (const h of near) {
      const d = hammingDistance(original, h)
      assert.ok(d <= NEAR_DUPLICATE_MAX_DISTANCE, `a resized copy is ${d} bits away`)
      assert.ok(isNearDuplicate(original, h))
    }
    for (const [category, style] of [['pat', 1], ['kiss', 2], ['slap', 0], ['wave', 0]] as const) {
      const other = await perceptualHash(renderStarterGif(category, style, 96, 64), FRAMES)
      const d = hammingDistance(original, other)
      assert.ok(d > NEAR_DUPLICATE_MAX_DISTANCE, `${category} ${style} is only ${d} bits away`)
    }
  })

  it('hashes a still gif (one frame) and answers Infinity for a hash of another kind', async () => {
    const still = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 200, g: 30, b: 30 } } }).gif().toBuffer()
    assert.match(await perceptualHash(still, 1), PHASH_PATTERN)
    assert.equal(hammingDistance('abc', 'abc'), Number.POSITIVE_INFINITY)
  })
})
