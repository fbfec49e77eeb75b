// The dominant colour inspectGif records for every import path (folder, packs, add-url
// with bytes): the colour most of the gif is, over every frame.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import sharp, { type CreateRaw } from 'sharp'
import { dominantColor, inspectGif } from '../../../src/gifs/gif-info.js'

/** A GIF of `frames` frames, each `fill`ed then given a square of `spot` in a corner. */
async function gif (width: number, height: number, frames: Array<{ fill: [number, number, number, number], spot?: [number, number, number, number] }>): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * frames.length * 4)
  frames.forEach((frame, f) => {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const colour = frame.spot && x < width / 3 && y < height / 3 ? frame.spot : frame.fill
        pixels.set(colour, ((f * height + y) * width + x) * 4)
      }
    }
  })
  return sharp(pixels, { raw: { width, height: height * frames.length, channels: 4, pageHeight: height } as CreateRaw })
    .gif({ loop: 0, delay: frames.map(() => 100) })
    .toBuffer()
}

describe('dominant colour', () => {
  it('is the colour most of the frames show, not the mean of every pixel', async () => {
    const red: [number, number, number, number] = [220, 20, 30, 255]
    const blue: [number, number, number, number] = [10, 40, 230, 255]
    const info = await inspectGif(await gif(60, 60, [{ fill: red, spot: blue }, { fill: red }, { fill: blue, spot: red }, { fill: red }]))
    assert.equal(info.frames, 4)
    assert.match(info.dominantColor!, /^#[0-9a-f]{6}$/)
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(info.dominantColor!.slice(i, i + 2), 16))
    assert.ok(Math.abs(r! - 220) <= 8 && Math.abs(g! - 20) <= 8 && Math.abs(b! - 30) <= 8, info.dominantColor!)
  })

  it('leaves out transparent pixels, and is null when nothing is opaque', async () => {
    const clear: [number, number, number, number] = [0, 0, 0, 0]
    const info = await inspectGif(await gif(30, 30, [{ fill: clear, spot: [0, 200, 0, 255] }, { fill: clear }]))
    assert.match(info.dominantColor!, /^#00c[0-9a-f]00$|^#0[0-9a-f]c[0-9a-f]0[0-9a-f]$/)
    assert.equal(dominantColor(new Uint8Array([1, 2, 3, 0, 4, 5, 6, 10]), 4), null)
    assert.equal(dominantColor(new Uint8Array(), 3), null)
  })

  it('reads three-channel samples, ties going to the first colour group', () => {
    assert.equal(dominantColor(new Uint8Array([255, 255, 255, 0, 0, 0, 250, 250, 250]), 3), '#fdfdfd')
    assert.equal(dominantColor(new Uint8Array([0, 0, 0, 255, 255, 255]), 3), '#000000')
  })
})
