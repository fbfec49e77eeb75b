// The colours of a picture (src/colors/picture-colors.ts, picture-pixels.ts) on synthetic
// pictures made with sharp: shares against known areas, the dominant and average colours,
// `int` as Discord takes it, the text colour's contrast, the ThumbHash, and the gate
// refusing what is not a picture or declares too many pixels before decoding.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import sharp from 'sharp'
import { thumbHashToAverageRGBA } from 'thumbhash'
import { createColorCatalog } from '../../../src/colors/catalog.js'
import { pictureColors, type Pixels } from '../../../src/colors/picture-colors.js'
import { checkPicture, decodedSize, decodePicture } from '../../../src/colors/picture-pixels.js'
import { isAppError } from '../../../src/errors.js'
import { bombPng } from '../../fixtures/images.js'

const catalog = createColorCatalog()
const nameOf = (c: { r: number, g: number, b: number }): string => catalog.nearest(c).color.name

/** A PNG of `width`×`height`, its left `leftShare` one colour and the rest another. */
async function twoColours (width: number, height: number, left: { r: number, g: number, b: number }, right: { r: number, g: number, b: number }, leftShare: number): Promise<Buffer> {
  const leftWidth = Math.round(width * leftShare)
  const base = sharp({ create: { width, height, channels: 3, background: right } })
  const block = await sharp({ create: { width: leftWidth, height, channels: 3, background: left } }).png().toBuffer()
  return await base.composite([{ input: block, left: 0, top: 0 }]).png().toBuffer()
}

async function coloursOf (png: Buffer): Promise<ReturnType<typeof pictureColors>> {
  const header = await checkPicture(png)
  return pictureColors(await decodePicture(png, header), nameOf)
}

async function refusal (promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (err) {
    assert.ok(isAppError(err), String(err))
    return err.code
  }
  assert.fail('expected a refusal')
}

describe('the colours of a picture', () => {
  it('gives a two-colour picture a palette of its two colours, shares as their areas', async () => {
    const red = { r: 255, g: 0, b: 0 }
    const blue = { r: 0, g: 0, b: 255 }
    const answer = await coloursOf(await twoColours(400, 200, red, blue, 0.75))
    assert.equal(answer.palette.length, 2)
    assert.equal(answer.dominant.hex, '#ff0000')
    assert.equal(answer.dominant.name, 'Red')
    assert.equal(answer.palette[1]!.hex, '#0000ff')
    // Shrunk to 100×50, the boundary stays on a pixel edge: the shares are the areas.
    assert.ok(Math.abs(answer.palette[0]!.share - 0.75) < 0.02, String(answer.palette[0]!.share))
    assert.ok(Math.abs(answer.palette[1]!.share - 0.25) < 0.02, String(answer.palette[1]!.share))
    const sum = answer.palette.reduce((s, p) => s + p.share, 0)
    assert.ok(Math.abs(sum - 1) < 0.001, String(sum))
    // The average of 3/4 red and 1/4 blue.
    assert.ok(Math.abs(answer.average.r - 191) <= 2 && answer.average.g === 0 && Math.abs(answer.average.b - 64) <= 2, answer.average.hex)
  })

  it('gives int = parseInt(hex, 16) for every colour', async () => {
    const answer = await coloursOf(await twoColours(64, 64, { r: 0x58, g: 0x65, b: 0xf2 }, { r: 0x12, g: 0x34, b: 0x56 }, 0.5))
    for (const c of [answer.dominant, answer.average, ...answer.palette]) assert.equal(c.int, parseInt(c.hex.slice(1), 16), c.hex)
    assert.ok(answer.palette.some((c) => c.int === 0x5865f2))
  })

  it('reads white text on a black picture, black text on a white one, with the WCAG ratio', async () => {
    const black = await coloursOf(await sharp({ create: { width: 30, height: 20, channels: 3, background: '#000000' } }).png().toBuffer())
    assert.equal(black.dominant.hex, '#000000')
    assert.deepEqual(black.textColor, { color: 'white', hex: '#ffffff', contrast: 21 })
    assert.equal(black.palette.length, 1)
    assert.equal(black.palette[0]!.share, 1)
    const white = await coloursOf(await sharp({ create: { width: 30, height: 20, channels: 3, background: '#ffffff' } }).jpeg().toBuffer())
    assert.equal(white.textColor.hex, '#000000')
    assert.ok(white.textColor.contrast > 20)
  })

  it('counts only pixels at least half opaque', async () => {
    // A transparent picture with a green square on a quarter of it.
    const square = await sharp({ create: { width: 50, height: 50, channels: 4, background: { r: 0, g: 128, b: 0, alpha: 1 } } }).png().toBuffer()
    const png = await sharp({ create: { width: 100, height: 100, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 0 } } })
      .composite([{ input: square, left: 0, top: 0 }]).png().toBuffer()
    const answer = await coloursOf(png)
    assert.equal(answer.pixels, 2500)
    assert.deepEqual(answer.palette.map((c) => [c.hex, c.share]), [['#008000', 1]])
    assert.equal(answer.average.hex, '#008000')
  })

  it('gives a ThumbHash whose average colour is the picture\'s', async () => {
    const answer = await coloursOf(await sharp({ create: { width: 200, height: 100, channels: 3, background: '#3366cc' } }).png().toBuffer())
    const hash = Buffer.from(answer.placeholder.thumbhash, 'base64')
    assert.ok(hash.length > 5 && hash.length < 40, String(hash.length))
    const avg = thumbHashToAverageRGBA(hash)
    assert.ok(Math.abs(avg.r * 255 - 0x33) < 6 && Math.abs(avg.g * 255 - 0x66) < 6 && Math.abs(avg.b * 255 - 0xcc) < 6, JSON.stringify(avg))
  })

  it('keeps at most 8 colours, largest share first', async () => {
    // Noise: every colour at once.
    const noise = Buffer.alloc(120 * 80 * 3)
    let x = 12345
    for (let i = 0; i < noise.length; i++) { x = (x * 1103515245 + 12345) >>> 0; noise[i] = x >>> 24 }
    const answer = await coloursOf(await sharp(noise, { raw: { width: 120, height: 80, channels: 3 } }).png().toBuffer())
    assert.ok(answer.palette.length >= 2 && answer.palette.length <= 8, String(answer.palette.length))
    for (let i = 1; i < answer.palette.length; i++) assert.ok(answer.palette[i - 1]!.share >= answer.palette[i]!.share)
    assert.equal(answer.dominant, answer.palette[0])
  })

  it('decodes into at most 100×100, keeping the aspect', () => {
    assert.deepEqual(decodedSize({ width: 4000, height: 1000 }), { width: 100, height: 25 })
    assert.deepEqual(decodedSize({ width: 30, height: 20 }), { width: 30, height: 20 })
  })

  it('refuses what is not a picture, and a bomb by its header without decoding', async () => {
    assert.equal(await refusal(checkPicture(Buffer.from('just some text, not a picture at all'))), 'IMAGE_UNSUPPORTED_FORMAT')
    assert.equal(await refusal(checkPicture(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'))), 'IMAGE_UNSUPPORTED_FORMAT')
    // A PNG declaring 30000×30000 (900 MP): its IHDR alone, no pixel data.
    assert.equal(await refusal(checkPicture(bombPng(30000, 30000))), 'IMAGE_TOO_MANY_PIXELS')
    // A truncated PNG: the header read fails.
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).png().toBuffer()
    assert.equal(await refusal(checkPicture(png.subarray(0, 20))), 'IMAGE_INVALID')
  })

  it('throws on pixels that do not match their size', () => {
    const pixels: Pixels = { width: 2, height: 2, rgba: new Uint8Array(12) }
    assert.throws(() => pictureColors(pixels, nameOf), /needs 16 bytes/)
  })
})
