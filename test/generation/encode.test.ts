// The PNG answers are written by the png crate (src/generation/draw.ts, encodeSync)
// rather than by the canvas's own encoder: a faster encoder must not change a single
// pixel, the partly transparent ones (stored premultiplied by the canvas) included.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { type Canvas, createCanvas } from '@napi-rs/canvas'
import sharp from 'sharp'
import { encode, encodeSync } from '../../src/generation/draw.js'

/** Overlapping circles of every opacity from 0 to 1, and a half-transparent text. */
function translucentPicture (): Canvas {
  const canvas = createCanvas(300, 200)
  const ctx = canvas.getContext('2d')
  for (let i = 0; i < 50; i++) {
    ctx.fillStyle = `rgba(${i * 5},${255 - i * 3},${(i * 7) % 256},${(i % 17) / 16})`
    ctx.beginPath()
    ctx.arc(i * 6, (i * 37) % 200, 30, 0, 2 * Math.PI)
    ctx.fill()
  }
  ctx.font = '30px sans-serif'
  ctx.fillStyle = 'rgba(10,200,30,0.37)'
  ctx.fillText('Hello transparency', 10, 100)
  return canvas
}

async function pixels (png: Buffer): Promise<{ data: Buffer, width: number, height: number, channels: number }> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

describe('PNG encoding', () => {
  it('writes exactly the pixels the canvas\'s own PNG encoder writes, partly transparent ones included', async () => {
    const canvas = translucentPicture()
    const expected = await pixels(canvas.encodeSync('png'))
    const { data } = await pixels(encodeSync(canvas, 'png'))
    let partly = 0
    for (let i = 3; i < expected.data.length; i += 4) if (expected.data[i]! > 0 && expected.data[i]! < 255) partly++
    assert.ok(partly > 10_000, `the picture has only ${partly} partly transparent pixels`)
    assert.equal(expected.channels, 4)
    assert.ok(data.equals(expected.data), 'the pixels differ from the canvas\'s encoder')
  })

  it('answers an RGBA PNG of the canvas\'s size, from the event loop\'s encode() too', async () => {
    const canvas = translucentPicture()
    for (const png of [encodeSync(canvas, 'png'), await encode(canvas, 'png')]) {
      const meta = await sharp(png).metadata()
      assert.deepEqual([meta.format, meta.width, meta.height, meta.channels], ['png', 300, 200, 4])
    }
    assert.ok((await encode(canvas, 'png')).equals(encodeSync(canvas, 'png')))
  })
})
