// Every accepted input format to each of the three outputs, checked by decoding the
// answer: format, dimensions, and pixels close to the source.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { createTestApp, type TestApp } from '../../../support/helpers.js'
import { HEIGHT, WIDTH, animation, decode, inputs, meanAbsDiff, multipart, source, sourcePixels } from '../../../fixtures/images.js'

let t: TestApp
before(async () => { t = await createTestApp() })
after(() => t.close())

const OUTPUTS = [
  { url: '/convert/image-png', format: 'png', mime: 'image/png', lossless: true },
  { url: '/convert/image-jpg', format: 'jpeg', mime: 'image/jpeg', lossless: false },
  { url: '/convert/image-webp', format: 'webp', mime: 'image/webp', lossless: false }
] as const

/** How far (mean absolute difference per channel, 0..255) an answer may stray from the source. */
function tolerance (inputLossless: boolean, inputName: string, outputLossless: boolean): number {
  if (inputLossless && outputLossless) return 0
  // GIF keeps 256 colours of a picture that has more (dithered): the largest loss.
  return inputName === 'GIF' ? 12 : 6
}

describe('image conversion: every input format to every output', async () => {
  const cases = await inputs()
  for (const input of cases) {
    for (const output of OUTPUTS) {
      it(`converts ${input.name} to ${output.format}`, async () => {
        const res = await t.app.inject({ method: 'POST', url: output.url, headers: { ...t.auth, 'content-type': 'application/octet-stream' }, payload: input.bytes })
        assert.equal(res.statusCode, 200, res.body.slice(0, 300))
        assert.equal(res.headers['content-type'], output.mime)
        assert.equal(Number(res.headers['content-length']), res.rawPayload.length)
        assert.equal(res.headers['x-image-width'], String(WIDTH))
        assert.equal(res.headers['x-image-height'], String(HEIGHT))
        assert.equal(res.headers['x-image-frames'], '1')
        const { meta, rgb } = await decode(res.rawPayload)
        assert.equal(meta.format, output.format)
        assert.equal(meta.width, WIDTH)
        assert.equal(meta.height, HEIGHT)
        const diff = meanAbsDiff(rgb, sourcePixels())
        assert.ok(diff <= tolerance(input.lossless, input.name, output.lossless), `${input.name} → ${output.format}: mean difference ${diff.toFixed(2)}`)
      })
    }
  }
})

describe('image conversion: requests as clients send them', () => {
  it('accepts the raw body with an image/* type, with none, and with GET', async () => {
    const png = await source().png().toBuffer()
    for (const [method, headers] of [['POST', { 'content-type': 'image/png' }], ['POST', {}], ['GET', { 'content-type': 'application/octet-stream' }]] as const) {
      const res = await t.app.inject({ method, url: '/convert/image-jpg', headers: { ...t.auth, ...headers }, payload: png })
      assert.equal(res.statusCode, 200, `${method} ${JSON.stringify(headers)}: ${res.body.slice(0, 200)}`)
      assert.equal(res.headers['content-type'], 'image/jpeg')
      assert.equal((await sharp(res.rawPayload).metadata()).format, 'jpeg')
    }
  })

  it('accepts multipart/form-data with the image in "file", beside other parts', async () => {
    const png = await source().png().toBuffer()
    const other = await sharp({ create: { width: 5, height: 5, channels: 3, background: 'red' } }).png().toBuffer()
    const form = multipart([
      { name: 'note', data: 'hello' },
      { name: 'thumbnail', filename: 'small.png', type: 'image/png', data: other },
      { name: 'file', filename: 'photo.png', type: 'image/png', data: png },
      { name: 'quality', data: '50' }
    ])
    const res = await t.app.inject({ method: 'POST', url: '/convert/image-webp', headers: { ...t.auth, 'content-type': form.contentType }, payload: form.body })
    assert.equal(res.statusCode, 200, res.body.slice(0, 300))
    assert.equal(res.headers['content-type'], 'image/webp')
    assert.equal(res.headers['x-image-quality'], '50')
    const { meta } = await decode(res.rawPayload)
    assert.deepEqual([meta.format, meta.width, meta.height], ['webp', WIDTH, HEIGHT])
  })

  it('accepts multipart/form-data whose only file part has another name', async () => {
    const jpeg = await source().jpeg().toBuffer()
    const form = multipart([{ name: 'image', filename: 'x.jpg', type: 'image/jpeg', data: jpeg }])
    const res = await t.app.inject({ method: 'POST', url: '/convert/image-png?quality=100', headers: { ...t.auth, 'content-type': form.contentType }, payload: form.body })
    assert.equal(res.statusCode, 200, res.body.slice(0, 300))
    const { meta } = await decode(res.rawPayload)
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', WIDTH, HEIGHT])
  })

  it('uses the quality asked for: lower quality, smaller file; the default is 80', async () => {
    const png = await source().png().toBuffer()
    const sizes: number[] = []
    for (const q of [10, 95]) {
      const res = await t.app.inject({ method: 'POST', url: `/convert/image-jpg?quality=${q}`, headers: t.auth, payload: png })
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['x-image-quality'], String(q))
      sizes.push(res.rawPayload.length)
    }
    assert.ok(sizes[0]! < sizes[1]!, `quality 10 gave ${sizes[0]} bytes, 95 gave ${sizes[1]}`)
    const res = await t.app.inject({ method: 'POST', url: '/convert/image-jpg', headers: t.auth, payload: png })
    assert.equal(res.headers['x-image-quality'], '80')
    assert.equal(res.rawPayload.length, (await source().jpeg({ quality: 80 }).toBuffer()).length)
  })

  it('PNG below quality 100 is quantised to a palette; at 100 or by default it is lossless', async () => {
    const png = await source().png().toBuffer()
    const lossless = await t.app.inject({ method: 'POST', url: '/convert/image-png', headers: t.auth, payload: png })
    assert.equal(meanAbsDiff((await decode(lossless.rawPayload)).rgb, sourcePixels()), 0)
    const quantised = await t.app.inject({ method: 'POST', url: '/convert/image-png?quality=40', headers: t.auth, payload: png })
    assert.equal(quantised.statusCode, 200)
    const meta = await sharp(quantised.rawPayload).metadata()
    assert.equal(meta.isPalette, true)
  })

  it('writes the lossless PNG of a photo (a JPEG) with row filtering: far smaller, the same pixels', async () => {
    // A noisy photo-like picture: a gradient with grain.
    const width = 400
    const height = 300
    const px = Buffer.alloc(width * height * 3)
    let seed = 7
    for (let i = 0; i < px.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      px[i] = Math.min(255, Math.max(0, ((i / 3) % width) * 0.5 + (seed % 41) - 20 + 40))
    }
    const jpeg = await sharp(px, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer()
    const res = await t.app.inject({ method: 'POST', url: '/convert/image-png', headers: t.auth, payload: jpeg })
    assert.equal(res.statusCode, 200)
    const unfiltered = await sharp(jpeg).png().toBuffer()
    assert.ok(res.rawPayload.length < unfiltered.length * 0.85, `${res.rawPayload.length} bytes, unfiltered ${unfiltered.length}`)
    assert.equal(meanAbsDiff((await decode(res.rawPayload)).rgb, (await decode(unfiltered)).rgb), 0)
  })
})

describe('image conversion: what the answer keeps and drops', () => {
  it('flattens transparency onto white for JPEG, or onto the background asked for', async () => {
    const half = await sharp({ create: { width: 8, height: 8, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0 } } }).png().toBuffer()
    const cases: Array<[string, [number, number, number]]> = [
      ['', [255, 255, 255]],
      ['?background=black', [0, 0, 0]],
      ['?background=00ff00', [0, 255, 0]],
      ['?background=%230000ff', [0, 0, 255]],
      ['?background=10,%2020,%2030', [10, 20, 30]]
    ]
    for (const [query, expected] of cases) {
      const res = await t.app.inject({ method: 'POST', url: `/convert/image-jpg${query}`, headers: t.auth, payload: half })
      assert.equal(res.statusCode, 200, `${query}: ${res.body.slice(0, 200)}`)
      const px = [...(await sharp(res.rawPayload).raw().toBuffer()).subarray(0, 3)]
      for (let c = 0; c < 3; c++) assert.ok(Math.abs(px[c]! - expected[c]!) <= 3, `${query}: got ${px}, expected ${expected}`)
    }
  })

  it('keeps transparency in PNG and WebP', async () => {
    const clear = await sharp({ create: { width: 8, height: 8, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0 } } }).png().toBuffer()
    for (const url of ['/convert/image-png', '/convert/image-webp']) {
      const res = await t.app.inject({ method: 'POST', url, headers: t.auth, payload: clear })
      const meta = await sharp(res.rawPayload).metadata()
      assert.equal(meta.hasAlpha, true, url)
      assert.equal((await sharp(res.rawPayload).ensureAlpha().raw().toBuffer())[3], 0, url)
    }
  })

  it('applies the EXIF orientation and strips EXIF (GPS included), XMP and the ICC profile', async () => {
    // 64×48 stored, orientation 6 (rotate 90° clockwise to display): shown 48×64.
    const jpeg = await source().jpeg({ quality: 95 })
      .withExif({ IFD0: { Artist: 'Someone Identifiable' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1' } })
      .withMetadata({ orientation: 6 })
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>Someone</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>')
      .toBuffer()
    const inMeta = await sharp(jpeg).metadata()
    assert.equal(inMeta.orientation, 6)
    assert.ok(inMeta.exif && inMeta.xmp, 'the fixture carries EXIF and XMP')
    for (const output of OUTPUTS) {
      const res = await t.app.inject({ method: 'POST', url: output.url, headers: t.auth, payload: jpeg })
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['x-image-width'], String(HEIGHT))
      assert.equal(res.headers['x-image-height'], String(WIDTH))
      const meta = await sharp(res.rawPayload).metadata()
      assert.deepEqual([meta.width, meta.height], [HEIGHT, WIDTH], output.format)
      assert.equal(meta.exif, undefined, `${output.format} keeps EXIF`)
      assert.equal(meta.xmp, undefined, `${output.format} keeps XMP`)
      assert.equal(meta.icc, undefined, `${output.format} keeps an ICC profile`)
      assert.equal(meta.orientation, undefined)
      assert.ok(!res.rawPayload.includes('Someone'), `${output.format} still names the person`)
      // The dark square (x 8..23, y 8..23 stored) lands at the top right once rotated clockwise.
      const rgb = await sharp(res.rawPayload).removeAlpha().raw().toBuffer()
      const at = (x: number, y: number) => [...rgb.subarray((y * HEIGHT + x) * 3, (y * HEIGHT + x) * 3 + 3)]
      assert.ok(at(HEIGHT - 16, 16)[2]! > 150 && at(HEIGHT - 16, 16)[0]! < 60, `${output.format}: square not where rotation puts it: ${at(HEIGHT - 16, 16)}`)
    }
  })

  it('converts colours from an embedded Display P3 profile to sRGB', async () => {
    // sharp converts sRGB (200, 100, 50) to P3 while tagging; the stored P3 values, read
    // without the profile, converted with the published P3→sRGB matrix (both use the sRGB curve).
    const tagged = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 100, b: 50 } } })
      .withIccProfile('p3').png().toBuffer()
    assert.ok((await sharp(tagged).metadata()).icc, 'the fixture carries a P3 profile')
    const p3 = [...(await sharp(tagged, { ignoreIcc: true }).raw().toBuffer()).subarray(0, 3)]
    const lin = p3.map((v) => { const c = v / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4 })
    const m = [[1.2249, -0.2247, 0], [-0.0420, 1.0419, 0], [-0.0197, -0.0786, 1.0979]]
    const expected = m.map((row) => {
      const v = Math.min(1, Math.max(0, row[0]! * lin[0]! + row[1]! * lin[1]! + row[2]! * lin[2]!))
      return Math.round(255 * (v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055))
    })
    const res = await t.app.inject({ method: 'POST', url: '/convert/image-png', headers: t.auth, payload: tagged })
    const px = [...(await sharp(res.rawPayload).raw().toBuffer()).subarray(0, 3)]
    for (let c = 0; c < 3; c++) assert.ok(Math.abs(px[c]! - expected[c]!) <= 3, `got ${px}, expected sRGB ${expected} (P3 ${p3})`)
    assert.notDeepEqual(px, p3)
  })

  it('keeps an animation in WebP; JPEG and PNG take the first frame', async () => {
    for (const format of ['gif', 'webp'] as const) {
      const anim = await animation(format, 3, 20, 10)
      const webp = await t.app.inject({ method: 'POST', url: '/convert/image-webp', headers: t.auth, payload: anim })
      assert.equal(webp.statusCode, 200)
      assert.deepEqual([webp.headers['x-image-width'], webp.headers['x-image-height'], webp.headers['x-image-frames']], ['20', '10', '3'])
      const meta = await sharp(webp.rawPayload, { animated: true }).metadata()
      assert.equal(meta.pages, 3, `${format} → webp frames`)
      assert.equal(meta.pageHeight, 10)
      const frames = await sharp(webp.rawPayload, { animated: true }).removeAlpha().raw().toBuffer()
      for (let f = 0; f < 3; f++) assert.ok(Math.abs(frames[f * 20 * 10 * 3]! - f * 60) <= 4, `${format} frame ${f}: ${frames[f * 20 * 10 * 3]}`)
      for (const url of ['/convert/image-png', '/convert/image-jpg']) {
        const res = await t.app.inject({ method: 'POST', url, headers: t.auth, payload: anim })
        assert.equal(res.statusCode, 200)
        assert.equal(res.headers['x-image-frames'], '1')
        const m = await sharp(res.rawPayload).metadata()
        assert.deepEqual([m.width, m.height], [20, 10], `${format} → ${url}: not stacked`)
        // The first frame is black (grey level 0).
        assert.ok((await sharp(res.rawPayload).raw().toBuffer())[0]! <= 4)
      }
    }
  })
})
