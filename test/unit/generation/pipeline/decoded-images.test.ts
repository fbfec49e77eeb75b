// The drawing thread's decoded pictures (src/generation/pipeline/decoded-images.ts): the
// same bytes decode once, other bytes are another picture, the bound holds, and bytes
// that do not decode are refused and never kept.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import sharp from 'sharp'
import { createDecodedImages } from '../../../../src/generation/pipeline/decoded-images.js'

async function png (color: string, side = 64): Promise<Buffer> {
  return await sharp({ create: { width: side, height: side, channels: 4, background: color } }).png().toBuffer()
}

describe('decoded images', () => {
  it('decodes the same bytes once, from any buffer holding them, and other bytes as another picture', async () => {
    const images = createDecodedImages()
    const red = await png('#ff0000')
    const first = await images.decode(red)
    const again = await images.decode(new Uint8Array(Buffer.from(red)))
    assert.equal(again, first)
    assert.equal(first.width, 64)
    const blue = await images.decode(await png('#0000ff'))
    assert.notEqual(blue, first)
  })

  it('keeps no more decoded bytes than its bound, letting the least recently used go first', async () => {
    // 64×64×4 = 16 KB a picture: room for two.
    const images = createDecodedImages(2 * 64 * 64 * 4)
    const [a, b, c] = await Promise.all(['#ff0000', '#00ff00', '#0000ff'].map(async (color) => await png(color)))
    const decodedA = await images.decode(a!)
    const decodedB = await images.decode(b!)
    assert.equal(await images.decode(a!), decodedA, 'a used again: b is now the oldest')
    await images.decode(c!)
    assert.equal(await images.decode(a!), decodedA, 'a kept')
    assert.notEqual(await images.decode(b!), decodedB, 'b let go, decoded anew')
  })

  it('decodes a picture larger than the bound without keeping it', async () => {
    const images = createDecodedImages(16 * 16 * 4)
    const big = await png('#123456', 64)
    assert.notEqual(await images.decode(big), await images.decode(big))
  })

  it('refuses bytes that are not a picture, and keeps nothing of them', async () => {
    const images = createDecodedImages()
    const junk = Buffer.from('not a picture at all')
    await assert.rejects(images.decode(junk))
    await assert.rejects(images.decode(junk))
  })

  it('lets go of every picture when cleared', async () => {
    const images = createDecodedImages()
    const red = await png('#ff0000')
    const first = await images.decode(red)
    images.clear()
    assert.notEqual(await images.decode(red), first)
  })
})
