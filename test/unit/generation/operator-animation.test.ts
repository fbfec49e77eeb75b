// Operators' animated banners and icons (docs/generation.md, "Animated pictures"): an
// animated GIF in DATA_DIR/banners or DATA_DIR/icons moves as a fetched animated image
// does (its frames and delays, the same timeline and budgets), and stays a still, its
// first frame, when the output cannot move.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { MAX_ANIMATION_FRAMES, MAX_ANIMATION_PIXELS } from '../../../src/generation/pipeline/timeline.js'
import { createTestApp, json, tempDir, type TestApp } from '../../support/helpers.js'

/** Each frame one solid colour: frame i's pixels say which frame is shown. */
const COLOURS: Array<[number, number, number]> = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0]]
const DELAYS = [100, 50, 150, 100]

async function animatedGif (width: number, height: number, colours: Array<[number, number, number]>, delays: number[]): Promise<Buffer> {
  const frame = width * height * 4
  const data = Buffer.alloc(frame * colours.length)
  colours.forEach(([r, g, b], f) => {
    for (let p = 0; p < width * height; p++) data.set([r, g, b, 255], f * frame + p * 4)
  })
  return await sharp(data, { raw: { width, height: height * colours.length, channels: 4, pageHeight: height } }).gif({ delay: delays, loop: 0 }).toBuffer()
}

/** The RGB of frame `i` of an animated answer at (x, y). */
async function pixelOf (image: Buffer, i: number, x: number, y: number): Promise<number[]> {
  const { data } = await sharp(image, { page: i }).extract({ left: x, top: y, width: 1, height: 1 }).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return [...data]
}

describe('an operator\'s animated banner and icon', () => {
  let t: TestApp
  let dataDir: string
  const LONG_FRAMES = 120

  before(async () => {
    dataDir = tempDir('uma-operator-animation-')
    fs.mkdirSync(path.join(dataDir, 'banners'))
    fs.mkdirSync(path.join(dataDir, 'icons'))
    // Smaller than the card: drawn stretched over it, as any banner.
    fs.writeFileSync(path.join(dataDir, 'banners', 'Party.gif'), await animatedGif(64, 28, COLOURS, DELAYS))
    fs.writeFileSync(path.join(dataDir, 'icons', 'spin.gif'), await animatedGif(32, 32, COLOURS, DELAYS))
    // Colours far apart: the GIF writer merges frames that look alike.
    const long = Array.from({ length: LONG_FRAMES }, (_, i): [number, number, number] => [(i * 37) & 255, (i * 91) & 255, (i * 53) & 255])
    fs.writeFileSync(path.join(dataDir, 'banners', 'long.gif'), await animatedGif(16, 8, long, long.map(() => 40)))
    t = await createTestApp({ config: { dataDir } })
  })
  after(async () => {
    await t.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  async function gen (url: string, payload: object): Promise<Awaited<ReturnType<TestApp['app']['inject']>>> {
    return await t.app.inject({ method: 'POST', url, headers: t.auth, payload })
  }

  it('output=gif: the welcome card has the banner\'s frames and delays, each frame showing the banner\'s frame', async () => {
    const res = await gen('/gen/welcome', { username: 'Op', banner: 'party', output: 'gif' })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['content-type'], 'image/gif')
    assert.equal(res.headers['x-image-reduced'], undefined)
    const meta = await sharp(res.rawPayload, { animated: true }).metadata()
    assert.deepEqual([meta.width, meta.pageHeight, meta.pages], [1024, 450, COLOURS.length])
    assert.deepEqual(meta.delay, DELAYS)
    for (let i = 0; i < COLOURS.length; i++) assert.deepEqual(await pixelOf(res.rawPayload, i, 3, 3), COLOURS[i], `frame ${i}`)
  })

  it('output=png, and gif with animated=false, stay stills drawn with the first frame', async () => {
    for (const extra of [{ output: 'png' }, {}, { output: 'gif', animated: 'false' }]) {
      const res = await gen('/gen/welcome', { username: 'Op', banner: 'party', ...extra })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal((await sharp(res.rawPayload, { animated: true }).metadata()).pages ?? 1, 1, JSON.stringify(extra))
      assert.deepEqual(await pixelOf(res.rawPayload, 0, 3, 3), COLOURS[0], JSON.stringify(extra))
    }
    const png = await gen('/gen/welcome', { username: 'Op', banner: 'party', output: 'png', animated: 'true' })
    assert.equal(png.statusCode, 400)
    assert.deepEqual([json(png).error, json(png).field], ['VALIDATION', 'animated'])
  })

  it('the template\'s icon and a /gen/custom layer by name move too', async () => {
    const card = await gen('/gen/welcome', { username: 'Op', icon: 'SPIN', output: 'webp' })
    assert.equal(card.statusCode, 200, card.body)
    assert.equal(card.headers['content-type'], 'image/webp')
    assert.deepEqual((await sharp(card.rawPayload, { animated: true }).metadata()).delay, DELAYS)

    const custom = await gen('/gen/custom', { output: 'gif', base: { width: 100, height: 60, color: 'white' }, images: [{ url: 'icon:spin', x: 0, y: 0, size: 40 }] })
    assert.equal(custom.statusCode, 200, custom.body)
    const meta = await sharp(custom.rawPayload, { animated: true }).metadata()
    assert.deepEqual([meta.width, meta.pageHeight, meta.pages], [100, 60, COLOURS.length])
    for (let i = 0; i < COLOURS.length; i++) assert.deepEqual(await pixelOf(custom.rawPayload, i, 20, 20), COLOURS[i], `frame ${i}`)
    assert.deepEqual(await pixelOf(custom.rawPayload, 2, 80, 50), [255, 255, 255], 'the base around it')

    // A base named so is the canvas at the file's size, and moves.
    const base = await gen('/gen/custom', { output: 'gif', base: { url: 'banner:party' } })
    assert.equal(base.statusCode, 200, base.body)
    const baseMeta = await sharp(base.rawPayload, { animated: true }).metadata()
    assert.deepEqual([baseMeta.width, baseMeta.pageHeight, baseMeta.pages], [64, 28, COLOURS.length])
  })

  it('counts in the animation budgets before the work: a banner of 120 frames is merged to the card\'s budget, lasting as long', async () => {
    const res = await gen('/gen/welcome', { username: 'Op', banner: 'long', output: 'gif' })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['x-image-reduced'], 'frames')
    const meta = await sharp(res.rawPayload, { animated: true }).metadata()
    const most = Math.min(MAX_ANIMATION_FRAMES, Math.floor(MAX_ANIMATION_PIXELS / (1024 * 450)))
    assert.ok(meta.pages! > 1 && meta.pages! <= most, `${meta.pages} frames`)
    assert.equal(meta.delay!.reduce((a, b) => a + b, 0), LONG_FRAMES * 40)
  })
})
