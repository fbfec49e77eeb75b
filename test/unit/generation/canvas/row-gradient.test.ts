// rowGradient (src/generation/canvas/draw.ts): a top-to-bottom gradient whose every row is
// one colour, so that a card with one stays flat for the PNG encoder, where Skia's own
// gradient dithers its pixels along each row.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createCanvas } from '@napi-rs/canvas'
import { isFlat, rowGradient } from '../../../../src/generation/canvas/draw.js'

const W = 400
const H = 300

function rowsOfOneColour (data: Uint8ClampedArray, width: number, height: number, fromRow = 0, toRow = height): boolean {
  const pixels = new Uint32Array(data.buffer, data.byteOffset, width * height)
  for (let y = fromRow; y < toRow; y++) {
    for (let x = 1; x < width; x++) if (pixels[y * width + x] !== pixels[y * width]) return false
  }
  return true
}

describe('rowGradient', () => {
  it('paints every row one colour, from the first stop at the top to the last at the bottom, where a canvas gradient dithers', () => {
    const canvas = createCanvas(W, H)
    const ctx = canvas.getContext('2d')
    rowGradient(createCanvas, H, [[0, '#5865f2'], [1, '#1e2050']])(ctx, 0, 0, W, H)
    const { data } = ctx.getImageData(0, 0, W, H)
    assert.equal(rowsOfOneColour(data, W, H), true)
    assert.equal(isFlat(data, W, H), true)
    const top = [...data.subarray(0, 3)]
    const bottom = [...data.subarray((H - 1) * W * 4, (H - 1) * W * 4 + 3)]
    top.forEach((v, i) => assert.ok(Math.abs(v - [0x58, 0x65, 0xf2][i]!) <= 2, `top ${top.join(',')}`))
    bottom.forEach((v, i) => assert.ok(Math.abs(v - [0x1e, 0x20, 0x50][i]!) <= 2, `bottom ${bottom.join(',')}`))

    // The reason it exists: the canvas's own gradient is not flat.
    const plain = createCanvas(W, H)
    const pctx = plain.getContext('2d')
    const gradient = pctx.createLinearGradient(0, 0, 0, H)
    gradient.addColorStop(0, '#5865f2')
    gradient.addColorStop(1, '#1e2050')
    pctx.fillStyle = gradient
    pctx.fillRect(0, 0, W, H)
    assert.equal(isFlat(pctx.getImageData(0, 0, W, H).data, W, H), false)
  })

  it('paints a band of the gradient where asked, under a scale, the rest untouched', () => {
    const canvas = createCanvas(W, H)
    const ctx = canvas.getContext('2d')
    ctx.fillStyle = '#000000'
    ctx.fillRect(0, 0, W, H)
    ctx.scale(0.5, 0.5)
    const fill = rowGradient(createCanvas, 2 * H, [[0, '#ff0000'], [1, '#0000ff']])
    // The top band (rows 0..200 of 600, scaled by half: 0..100) over the left half.
    fill(ctx, 0, 0, W, 200)
    const { data } = ctx.getImageData(0, 0, W, H)
    const at = (x: number, y: number): number[] => [...data.subarray((y * W + x) * 4, (y * W + x) * 4 + 4)]
    assert.ok(at(10, 1)[0]! > 240, `near the top, red: ${at(10, 1).join(',')}`)
    assert.ok(at(10, 98)[2]! > 60 && at(10, 98)[0]! > 150, `a third of the way, red going blue: ${at(10, 98).join(',')}`)
    assert.deepEqual(at(W - 1, 50), [0, 0, 0, 255], 'right of the band')
    assert.deepEqual(at(10, 120), [0, 0, 0, 255], 'below the band')
    assert.equal(rowsOfOneColour(data, W / 2, 1), true)
  })
})
