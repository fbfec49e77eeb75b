// Every bad or hostile input answers a clear JSON envelope with the right status:
// never a 500, never a hang.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { testConfig } from '../../../support/config.js'
import { createImageConverter } from '../../../../src/conversion/image/convert.js'
import { AppError } from '../../../../src/errors.js'
import { createTestApp, type TestApp } from '../../../support/helpers.js'
import { animation, bombPng, manyFrameGif, multipart, source } from '../../../fixtures/images.js'
import { assertErrorEnvelope } from '../../../support/envelope.js'

let t: TestApp
before(async () => { t = await createTestApp() })
after(() => t.close())

const ACCEPTED = ['JPEG', 'PNG', 'WebP', 'GIF', 'AVIF', 'TIFF']

/** A 2×2 24-bit Windows bitmap, written by hand. */
function bmp (): Buffer {
  const rowBytes = 8 // 2 pixels × 3 bytes, padded to 4
  const b = Buffer.alloc(54 + rowBytes * 2)
  b.write('BM', 0, 'latin1')
  b.writeUInt32LE(b.length, 2)
  b.writeUInt32LE(54, 10)
  b.writeUInt32LE(40, 14)
  b.writeInt32LE(2, 18)
  b.writeInt32LE(2, 22)
  b.writeUInt16LE(1, 26)
  b.writeUInt16LE(24, 28)
  b.writeUInt32LE(rowBytes * 2, 34)
  b.fill(0x80, 54)
  return b
}

const post = (url: string, payload: Buffer | string | undefined, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { ...t.auth, ...headers }, ...(payload === undefined ? {} : { payload }) })

describe('image conversion: unreadable requests', () => {
  it('refuses an empty body with 400 EMPTY_BODY', async () => {
    for (const url of ['/convert/image-png', '/convert/image-jpg', '/convert/image-webp']) {
      assertErrorEnvelope(await post(url, undefined), 400, 'EMPTY_BODY', { message: /empty/ })
      assertErrorEnvelope(await post(url, Buffer.alloc(0), { 'content-type': 'image/png' }), 400, 'EMPTY_BODY', { message: /empty/ })
    }
  })

  it('refuses a multipart form without a file part', async () => {
    const form = multipart([{ name: 'quality', data: '80' }])
    assertErrorEnvelope(await post('/convert/image-png', form.body, { 'content-type': form.contentType }), 400, 'EMPTY_BODY', { message: /"file"/ })
  })

  it('refuses a malformed multipart form with 400', async () => {
    assertErrorEnvelope(await post('/convert/image-png', 'whatever', { 'content-type': 'multipart/form-data; charset=utf-8' }), 400, 'BAD_REQUEST', { message: /multipart/i })
  })

  it('refuses a truncated PNG, JPEG and GIF with 400 IMAGE_INVALID', async () => {
    const png = await source().png().toBuffer()
    const jpeg = await source().jpeg().toBuffer()
    const gif = await source().gif().toBuffer()
    for (const [name, bytes] of [['PNG', png], ['JPEG', jpeg], ['GIF', gif]] as const) {
      for (const url of ['/convert/image-png', '/convert/image-jpg', '/convert/image-webp']) {
        const res = await post(url, bytes.subarray(0, Math.floor(bytes.length / 2)))
        assertErrorEnvelope(res, 400, 'IMAGE_INVALID', { message: /truncated or corrupt/ })
      }
      assert.ok(name)
    }
  })

  it('refuses bytes that are no image with 415 listing the accepted formats', async () => {
    for (const bytes of ['just some text, not an image', Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])]) {
      const body = assertErrorEnvelope(await post('/convert/image-png', bytes, { 'content-type': 'image/png' }), 415, 'IMAGE_UNSUPPORTED_FORMAT', { message: /JPEG, PNG, WebP, GIF, AVIF, TIFF/ })
      assert.deepEqual(body.acceptedFormats, ACCEPTED)
    }
  })

  it('recognises the image by its bytes: a lying content type or file name changes nothing', async () => {
    // Text labelled as a PNG file.
    const liar = multipart([{ name: 'file', filename: 'photo.png', type: 'image/png', data: '<html>not a picture</html>' }])
    assertErrorEnvelope(await post('/convert/image-jpg', liar.body, { 'content-type': liar.contentType }), 415, 'IMAGE_UNSUPPORTED_FORMAT')
    // A real PNG labelled as a JPEG: converted correctly.
    const png = await source().png().toBuffer()
    const honest = multipart([{ name: 'file', filename: 'photo.jpg', type: 'image/jpeg', data: png }])
    const res = await post('/convert/image-webp', honest.body, { 'content-type': honest.contentType })
    assert.equal(res.statusCode, 200)
    assert.equal((await sharp(res.rawPayload).metadata()).format, 'webp')
  })

  it('refuses BMP (which the engine cannot read) with 415 naming it', async () => {
    await assert.rejects(sharp(bmp()).metadata(), /unsupported image format/)
    assertErrorEnvelope(await post('/convert/image-png', bmp(), { 'content-type': 'image/bmp' }), 415, 'IMAGE_UNSUPPORTED_FORMAT', { message: /BMP.*send JPEG, PNG, WebP, GIF, AVIF, TIFF/ })
  })

  it('refuses SVG with 415, before rasterising anything', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><image xlink:href="http://127.0.0.1:9/x.png" width="10" height="10"/></svg>'
    for (const bytes of [svg, `<?xml version="1.0"?>\n${svg}`]) {
      assertErrorEnvelope(await post('/convert/image-png', bytes, { 'content-type': 'image/svg+xml' }), 415, 'IMAGE_UNSUPPORTED_FORMAT', { message: /SVG/ })
    }
  })
})

// Regression: SVG was refused only after sharp's header read, which had librsvg parse
// the document (its entities, its viewBox) first. The first bytes decide now.
describe('image conversion: what never reaches libvips', () => {
  const svgs = [
    '<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&x;</text></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100000000 100000000" width="100000000" height="100000000"><rect width="100%" height="100%"/></svg>',
    '\ufeff  \n<svg xmlns="http://www.w3.org/2000/svg"/>',
    '<!-- a comment first --><svg xmlns="http://www.w3.org/2000/svg"/>'
  ]
  it('refuses SVG with an external entity or a huge viewBox with 415 without calling sharp', async () => {
    const calls: unknown[] = []
    const spy = ((...args: Parameters<typeof sharp>) => { calls.push(args[0]); return sharp(...args) }) as typeof sharp
    const converter = createImageConverter(testConfig('/tmp').image, spy)
    for (const svg of [...svgs, Buffer.from(svgs[1]!).toString('latin1')]) {
      await assert.rejects(converter.convert(Buffer.from(svg), { format: 'png', background: { r: 0, g: 0, b: 0, alpha: 1 } }),
        (err: unknown) => err instanceof AppError && err.code === 'IMAGE_UNSUPPORTED_FORMAT' && err.status === 415)
    }
    // Other formats libvips could read (PDF, gzip-compressed SVG, raw text) are refused the same way.
    for (const bytes of [Buffer.from('%PDF-1.4\n%%EOF\n'), Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 0, 0]), Buffer.from('just some text, long enough')]) {
      await assert.rejects(converter.convert(bytes, { format: 'png', background: { r: 0, g: 0, b: 0, alpha: 1 } }), /IMAGE_UNSUPPORTED_FORMAT|not an image|PDF/)
    }
    assert.deepEqual(calls, [], 'sharp was never called')
    // And an accepted format does reach it.
    await converter.convert(await source().png().toBuffer(), { format: 'png', background: { r: 0, g: 0, b: 0, alpha: 1 } })
    assert.equal(calls.length, 2, 'header read and conversion')
  })

  it('answers those over HTTP with the 415 envelope naming SVG', async () => {
    for (const svg of svgs) {
      assertErrorEnvelope(await post('/convert/image-png', svg, { 'content-type': 'image/svg+xml' }), 415, 'IMAGE_UNSUPPORTED_FORMAT', { message: /SVG/ })
    }
  })
})

describe('image conversion: parameters', () => {
  it('refuses a quality outside 1..100 or not an integer, naming "quality"', async () => {
    const png = await source().png().toBuffer()
    for (const q of ['0', '101', '-5', '1.5', 'abc', '']) {
      assertErrorEnvelope(await post(`/convert/image-jpg?quality=${q}`, png), 400, 'VALIDATION', { message: /quality/ })
    }
    for (const q of ['0', '101', 'high']) {
      const form = multipart([{ name: 'file', filename: 'a.png', data: png }, { name: 'quality', data: q }])
      assertErrorEnvelope(await post('/convert/image-webp', form.body, { 'content-type': form.contentType }), 400, 'VALIDATION', { message: /quality/ })
    }
  })

  it('accepts quality 1 and 100', async () => {
    const png = await source().png().toBuffer()
    for (const q of [1, 100]) assert.equal((await post(`/convert/image-jpg?quality=${q}`, png)).statusCode, 200)
  })

  it('refuses a background that is no colour, naming "background"', async () => {
    const png = await source().png().toBuffer()
    for (const bg of ['notacolour', '300,0,0', '12345']) {
      assertErrorEnvelope(await post(`/convert/image-jpg?background=${bg}`, png), 400, 'VALIDATION', { message: /background/ })
    }
  })
})

describe('image conversion: decompression bombs', () => {
  it('refuses a 30000×30000 PNG of a few hundred bytes before decoding it', async () => {
    const bomb = bombPng(30000, 30000)
    assert.ok(bomb.length < 2000)
    const meta = await sharp(bomb, { limitInputPixels: false }).metadata()
    assert.deepEqual([meta.width, meta.height], [30000, 30000])
    for (const url of ['/convert/image-png', '/convert/image-jpg', '/convert/image-webp']) {
      const body = assertErrorEnvelope(await post(url, bomb), 400, 'IMAGE_TOO_MANY_PIXELS', { message: /30000×30000.*900000000 pixels.*at most 50000000/ })
      assert.equal(body.maxPixels, 50_000_000)
    }
  })

  it('refuses an animation of more frames than the limit', async () => {
    const many = await manyFrameGif(1001)
    assert.equal((await sharp(many).metadata()).pages, 1001)
    for (const url of ['/convert/image-png', '/convert/image-webp']) {
      assertErrorEnvelope(await post(url, many), 400, 'IMAGE_TOO_MANY_FRAMES', { message: /1001 frames.*at most 1000/ })
    }
  })

  it('counts the pixel limit over all frames', async () => {
    const small = await createTestApp({ config: { image: { ...testConfig('/tmp').image, maxPixels: 500_000 } } })
    try {
      const anim = await animation('gif', 100, 100, 100)
      const res = await small.app.inject({ method: 'POST', url: '/convert/image-webp', headers: small.auth, payload: anim })
      assertErrorEnvelope(res, 400, 'IMAGE_TOO_MANY_PIXELS', { message: /100×100 pixels × 100 frames = 1000000 pixels/ })
      // One frame of the same size is fine.
      const still = await sharp({ create: { width: 100, height: 100, channels: 3, background: 'red' } }).gif().toBuffer()
      assert.equal((await small.app.inject({ method: 'POST', url: '/convert/image-webp', headers: small.auth, payload: still })).statusCode, 200)
    } finally {
      await small.close()
    }
  })
})
