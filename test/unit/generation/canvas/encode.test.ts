// The PNG answers are written by the png crate (src/generation/canvas/draw.ts, encodeSync)
// rather than by the canvas's own encoder: a faster encoder must not change a single
// pixel, the partly transparent ones (stored premultiplied by the canvas) included.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { type Canvas, createCanvas } from '@napi-rs/canvas'
import sharp from 'sharp'
import { encode, encodeSync, isFlat } from '../../../../src/generation/canvas/draw.js'

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

  /** A card as the templates draw them: colour fills, a panel, text. */
  function flatCard (): Canvas {
    const canvas = createCanvas(934, 282)
    const ctx = canvas.getContext('2d')
    ctx.fillStyle = '#23272a'
    ctx.fillRect(0, 0, 934, 282)
    ctx.fillStyle = 'rgba(0,0,0,0.4)'
    ctx.fillRect(20, 20, 894, 242)
    ctx.fillStyle = '#5865f2'
    ctx.beginPath()
    ctx.arc(140, 141, 90, 0, 2 * Math.PI)
    ctx.fill()
    ctx.font = '40px sans-serif'
    ctx.fillStyle = 'white'
    ctx.fillText('Benchmark User', 260, 120)
    ctx.fillRect(260, 180, 500, 30)
    return canvas
  }

  /** A photograph's worth of detail: a gradient under grain. */
  function photoLike (): Canvas {
    const canvas = createCanvas(934, 282)
    const ctx = canvas.getContext('2d')
    const image = ctx.createImageData(934, 282)
    let seed = 7
    for (let i = 0; i < image.data.length; i += 4) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      const x = (i / 4) % 934
      image.data[i] = (x / 934) * 200 + (seed % 40)
      image.data[i + 1] = 90 + ((seed >> 8) % 40)
      image.data[i + 2] = 255 - (x / 934) * 200
      image.data[i + 3] = 255
    }
    ctx.putImageData(image, 0, 0)
    return canvas
  }

  it('tells a flat card from a picture with a photograph\'s detail, and a half-flat one from both', () => {
    const flat = flatCard().getContext('2d').getImageData(0, 0, 934, 282)
    assert.equal(isFlat(flat.data, 934, 282), true)
    const photo = photoLike().getContext('2d').getImageData(0, 0, 934, 282)
    assert.equal(isFlat(photo.data, 934, 282), false)
    // Half photograph, half fill: below the share, so the default deflate.
    const half = photoLike()
    half.getContext('2d').fillStyle = '#23272a'
    half.getContext('2d').fillRect(0, 0, 467, 282)
    assert.equal(isFlat(half.getContext('2d').getImageData(0, 0, 934, 282).data, 934, 282), false)
    // Pixels handed in at an odd offset of a larger buffer are read the same.
    const shifted = Buffer.alloc(flat.data.length + 1)
    shifted.set(flat.data, 1)
    assert.equal(isFlat(shifted.subarray(1), 934, 282), true)
  })

  it('writes a flat card (the fast deflate) and a photo-like picture (the default) with exactly the canvas\'s pixels, the flat one within 1.6 times the default\'s bytes', async () => {
    for (const canvas of [flatCard(), photoLike()]) {
      const expected = await pixels(canvas.encodeSync('png'))
      for (const png of [encodeSync(canvas, 'png'), await encode(canvas, 'png')]) {
        assert.ok((await pixels(png)).data.equals(expected.data))
      }
    }
    const card = flatCard()
    const { data } = card.getContext('2d').getImageData(0, 0, 934, 282)
    const byDefault = await sharp(Buffer.from(data.buffer), { raw: { width: 934, height: 282, channels: 4 } }).png({ compressionLevel: 6, adaptiveFiltering: true }).toBuffer()
    assert.ok(encodeSync(card, 'png').length <= byDefault.length * 1.6, `${encodeSync(card, 'png').length} bytes against ${byDefault.length}`)
  })
})
