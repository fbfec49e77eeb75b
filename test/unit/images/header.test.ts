// What a source declares (src/images/header.ts): sharp's header read, one frame's size and
// the frames of an animation, a bomb's declared size read without decoding it, a truncated
// header refused, and a GIF's logical screen read from its bytes.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import sharp, { type CreateRaw } from 'sharp'
import { readGifScreen, readHeader } from '../../../src/images/header.js'
import { bombPng } from '../../fixtures/images.js'

/** An animated GIF of `frames` frames of width×height, each a different grey (equal frames would be merged). */
async function animatedGif (frames: number, width: number, height: number): Promise<Buffer> {
  const px = Buffer.alloc(width * height * frames * 3)
  for (let f = 0; f < frames; f++) px.fill(f * 60, f * width * height * 3, (f + 1) * width * height * 3)
  return await sharp(px, { raw: { width, height: height * frames, channels: 3, pageHeight: height } as CreateRaw })
    .gif({ delay: Array.from({ length: frames }, (_, f) => (f + 1) * 100), loop: 0 }).toBuffer()
}

describe('readHeader', () => {
  it('reads a still picture: its format and size, one frame, no delays', async () => {
    const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#123456' } }).png().toBuffer()
    assert.deepEqual(await readHeader(png), { format: 'png', width: 30, height: 20, frames: 1 })
  })

  it('reads an animation: the size of one frame, the frames and their delays', async () => {
    const gif = await animatedGif(3, 10, 7)
    for (const animated of [undefined, true]) {
      assert.deepEqual(await readHeader(gif, animated === undefined ? {} : { animated }), { format: 'gif', width: 10, height: 7, frames: 3, delays: [100, 200, 300] })
    }
  })

  it('tells AVIF by its compression', async () => {
    const avif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).avif().toBuffer()
    const header = await readHeader(avif)
    assert.deepEqual([header.format, header.compression, header.width, header.height], ['heif', 'av1', 4, 4])
  })

  it('reads what a bomb declares without decoding it (libvips\' own limit off)', async () => {
    const started = performance.now()
    assert.deepEqual(await readHeader(bombPng(30_000, 30_000), { failOn: 'error' }), { format: 'png', width: 30_000, height: 30_000, frames: 1 })
    // Decoding 900 MP would take seconds and 900 MB; the header is a few hundred bytes.
    assert.ok(performance.now() - started < 5000)
  })

  it('throws sharp\'s error for a truncated header or bytes that are no image', async () => {
    const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#123456' } }).png().toBuffer()
    await assert.rejects(readHeader(png.subarray(0, 20), { failOn: 'error' }), /corrupt header|end of stream/)
    await assert.rejects(readHeader(Buffer.from('just some text, not an image')), /unsupported image format/)
  })

  it('reads through the loader it is given, with libvips\' pixel limit off', async () => {
    const calls: unknown[] = []
    const spy = ((...args: Parameters<typeof sharp>) => { calls.push(args[1]); return sharp(...args) }) as typeof sharp
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#000' } }).png().toBuffer()
    await readHeader(png, { failOn: 'error', load: spy })
    await readHeader(png, { animated: true, load: spy })
    assert.deepEqual(calls, [{ limitInputPixels: false, failOn: 'error' }, { limitInputPixels: false, animated: true }])
  })
})

describe('readGifScreen', () => {
  it('reads the logical screen, little-endian, from bytes 6 to 9', () => {
    const head = Buffer.alloc(13)
    head.write('GIF89a', 'latin1')
    head.writeUInt16LE(4097, 6)
    head.writeUInt16LE(65535, 8)
    assert.deepEqual(readGifScreen(head), { width: 4097, height: 65535 })
  })

  it('is undefined when the file ends inside its header (13 bytes)', () => {
    const head = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00', 'latin1')
    assert.equal(head.length, 12)
    assert.equal(readGifScreen(head), undefined)
    assert.deepEqual(readGifScreen(Buffer.concat([head, Buffer.from([0])])), { width: 1, height: 1 })
  })

  it('agrees with what a GIF sharp writes declares', async () => {
    const gif = await animatedGif(2, 9, 5)
    assert.deepEqual(readGifScreen(gif), { width: 9, height: 5 })
  })
})
