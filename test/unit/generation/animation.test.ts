// Animated pictures (docs/generation.md, "Animated pictures" and "Size budget"): an
// animated avatar, banner or layer makes an animated GIF or WebP when the output can move,
// with the image's frames and delays; frames are planned within budgets before the work;
// the answer stays within max_bytes, saying in X-Image-Reduced what was reduced.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { DEFAULT_MAX_BYTES, encodeAnimation, stillWithin } from '../../../src/generation/pipeline/output-budget.js'
import { frameAt, MAX_ANIMATION_FRAMES, MAX_ANIMATION_PIXELS, planTimeline, playedDelays } from '../../../src/generation/pipeline/timeline.js'
import { json } from '../../support/helpers.js'
import { ANIMATED_GOLDEN_CASES, ANIMATED_GOLDEN_DIR, compareImages, frameOf, type GoldenFixture, SPINNER_DELAYS, startGoldenFixture, writeFailure } from '../../system/golden/golden-cases.js'

let fixture: GoldenFixture

before(async () => { fixture = await startGoldenFixture() })
after(async () => { await fixture.close() })

async function raw (url: string, body: object): Promise<{ statusCode: number, headers: Record<string, unknown>, rawPayload: Buffer, body: string }> {
  const origin = fixture.origin
  const payload = JSON.parse(JSON.stringify(body).replaceAll('{img}', origin)) as object
  return await fixture.app.app.inject({ method: 'POST', url, headers: fixture.app.auth, payload })
}

describe('the frames of an animation', () => {
  it('plays a delay under 20 ms at 100 ms, as browsers do', () => {
    assert.deepEqual(playedDelays([0, 10, 20, 70], 5), [100, 100, 20, 70, 100])
  })

  it('follows the longest animation, and merges frames beyond the budgets', () => {
    assert.deepEqual(planTimeline([[100, 100], [50, 50, 50, 50, 50]], 100).delays, [50, 50, 50, 50, 50])
    const long = Array.from({ length: 150 }, () => 40)
    const plan = planTimeline([long], 1024 * 450)
    const most = Math.min(MAX_ANIMATION_FRAMES, Math.floor(MAX_ANIMATION_PIXELS / (1024 * 450)))
    assert.ok(plan.merged && plan.delays.length <= most, `${plan.delays.length} frames`)
    assert.equal(plan.delays.reduce((a, b) => a + b, 0), 150 * 40, 'the animation lasts as long')
    assert.deepEqual(plan.starts.slice(0, 3), [0, plan.delays[0], plan.delays[0]! + plan.delays[1]!])
  })

  it('shows each image\'s own frame at a time, looping', () => {
    assert.deepEqual([0, 39, 40, 119, 120, 239, 240].map((ms) => frameAt([40, 80, 120], ms)), [0, 0, 1, 1, 2, 2, 0])
  })
})

describe('animated pictures', () => {
  for (const c of ANIMATED_GOLDEN_CASES) {
    it(`${c.name}: ${c.frames} frames with the avatar's delays, frame ${c.frame} matches test/system/golden/reference/animated/`, async () => {
      const gif = await fixture.render(c)
      const meta = await sharp(gif, { animated: true }).metadata()
      assert.equal(meta.format, 'gif')
      assert.equal(meta.pages, c.frames)
      assert.deepEqual(meta.delay, c.delays)
      assert.equal(meta.loop, 0, 'loops for ever')
      const file = path.join(ANIMATED_GOLDEN_DIR, `${c.name}.frame${c.frame}.png`)
      assert.ok(fs.existsSync(file), `no reference ${file}: run node --import tsx scripts/update-golden.ts ${c.name}`)
      const actual = await frameOf(gif, c.frame)
      const comparison = await compareImages(actual, fs.readFileSync(file))
      if (!comparison.ok) assert.fail(`${c.name}: ${comparison.reason}; actual and diff in ${await writeFailure(c.name, actual, comparison)}`)
      // The frames differ: the avatar turns.
      assert.equal((await compareImages(await frameOf(gif, 0), actual)).ok, false, 'frame 0 and frame 6 are the same picture')
    })
  }

  const welcome = { username: 'Alice', avatar: '{img}/spinner.gif', members: 'Member #42', banner: 'space' }

  it('an animated WebP for output webp; png and jpg stay stills, as does animated=false', async () => {
    const webp = await raw('/gen/welcome', { ...welcome, output: 'webp' })
    assert.equal(webp.statusCode, 200, webp.body)
    assert.equal(webp.headers['content-type'], 'image/webp')
    const meta = await sharp(webp.rawPayload, { animated: true }).metadata()
    assert.deepEqual([meta.pages, meta.delay], [SPINNER_DELAYS.length, SPINNER_DELAYS])
    for (const body of [{ ...welcome, output: 'png' }, { ...welcome }, { ...welcome, output: 'gif', animated: 'false' }]) {
      const res = await raw('/gen/welcome', body)
      assert.equal(res.statusCode, 200, res.body)
      assert.equal((await sharp(res.rawPayload, { animated: true }).metadata()).pages ?? 1, 1, JSON.stringify(body))
    }
  })

  it('a still GIF when nothing moves', async () => {
    const res = await raw('/gen/welcome', { username: 'Alice', avatar: '{img}/avatar.png', output: 'gif' })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['content-type'], 'image/gif')
    assert.equal((await sharp(res.rawPayload, { animated: true }).metadata()).pages, 1)
  })

  it('animated=true asks for a format that moves', async () => {
    const res = await raw('/gen/welcome', { ...welcome, output: 'png', animated: 'true' })
    assert.equal(res.statusCode, 400)
    assert.deepEqual([json(res).error, json(res).field], ['VALIDATION', 'animated'])
  })

  it('animates a /gen/custom layer and base, and draws the rest over every frame', async () => {
    const res = await raw('/gen/custom', { output: 'gif', animated: true, base: { url: '{img}/spinner.gif', width: 200, height: 120 }, images: [{ url: '{img}/spinner.gif', type: 'circle', x: 120, y: 20, radius: 30 }], texts: [{ text: 'hi', x: 10, y: 10, size: 30 }] })
    assert.equal(res.statusCode, 200, res.body)
    const meta = await sharp(res.rawPayload, { animated: true }).metadata()
    assert.deepEqual([meta.width, meta.pageHeight, meta.pages], [200, 120, SPINNER_DELAYS.length])
  })

  it('an animated custom emoji moves too (Discord markup, docs/generation.md)', async () => {
    const res = await raw('/gen/custom', { output: 'gif', base: { width: 200, height: 80, color: 'white' }, texts: [{ text: 'hi <a:party:222222222222222222>', x: 10, y: 10, size: 40, color: 'black' }] })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal((await sharp(res.rawPayload, { animated: true }).metadata()).pages, 2)
  })

  it('max_bytes: the default leaves the animation alone; a small budget gives a smaller animation or a still, never larger, and says what it did', async () => {
    const full = await raw('/gen/welcome', { ...welcome, output: 'gif' })
    assert.equal(full.statusCode, 200)
    assert.ok(full.rawPayload.length < DEFAULT_MAX_BYTES)
    assert.equal(full.headers['x-image-reduced'], undefined)
    for (const maxBytes of [Math.floor(full.rawPayload.length / 2), 60_000, 20_000]) {
      const res = await raw('/gen/welcome', { ...welcome, output: 'gif', max_bytes: String(maxBytes) })
      assert.equal(res.statusCode, 200, res.body)
      assert.ok(res.rawPayload.length <= maxBytes, `${res.rawPayload.length} bytes for max_bytes ${maxBytes}`)
      const reduced = String(res.headers['x-image-reduced'])
      assert.match(reduced, /^(colours)(,frames)?(,scale)?(,still)?(,scale)?$/, reduced)
      const pages = (await sharp(res.rawPayload, { animated: true }).metadata()).pages ?? 1
      assert.equal(pages === 1, reduced.includes('still'), `${pages} frames, reduced ${reduced}`)
    }
    const refused = await raw('/gen/welcome', { ...welcome, output: 'gif', max_bytes: '1024' })
    assert.equal(refused.statusCode, 413, refused.body)
    assert.deepEqual([json(refused).error, json(refused).budget, json(refused).limit], ['GEN_BUDGET_EXCEEDED', 'max_bytes', 1024])
    const invalid = await raw('/gen/welcome', { ...welcome, output: 'gif', max_bytes: '12mb' })
    assert.deepEqual([invalid.statusCode, json(invalid).field], [400, 'max_bytes'])
  })

  it('max_bytes on a still: a PNG becomes a palette PNG, then smaller', async () => {
    const res = await raw('/gen/welcome', { username: 'Alice', avatar: '{img}/avatar.png', banner: 'space', max_bytes: '60000' })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['content-type'], 'image/png')
    assert.ok(res.rawPayload.length <= 60_000)
    assert.match(String(res.headers['x-image-reduced']), /^colours(,scale)?$/)
  })

  it('encodes frames within the budget: colours first, then frames, then scale, then a still', async () => {
    const width = 64
    const height = 64
    const frames = 8
    const raw = new Uint8Array(width * height * 4 * frames)
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919 + (i >> 12) * 104729) & 255 // noise: every step is needed
    const drawn = { raw, width, height, delays: Array.from({ length: frames }, () => 50) }
    const unreduced = await encodeAnimation(drawn, 'gif', DEFAULT_MAX_BYTES, Infinity)
    assert.deepEqual([unreduced.reduced, unreduced.frames], [[], frames])
    const small = await encodeAnimation(drawn, 'gif', Math.floor(unreduced.bytes.length / 5), Infinity)
    assert.ok(small.bytes.length <= unreduced.bytes.length / 5)
    assert.deepEqual(small.reduced.slice(0, 2), ['colours', 'frames'])
    // Encoding counts in the job's time (WORK_TIMEOUT_MS from the slot's start): none left is a TIMEOUT.
    await assert.rejects(encodeAnimation(drawn, 'gif', DEFAULT_MAX_BYTES, performance.now() - 1), (err: Error & { code?: string }) => err.code === 'TIMEOUT')
  })

  // sharp 0.35 rounds a colour count of 17–128 up to a 256-entry palette (0.34 rounded it
  // down to 16): "fewer colours" then wrote a picture as large as the full one, twice as
  // slowly, and max_bytes fell through to fewer frames and a smaller scale.
  it('the fewer-colours step writes at most 16 colours, in a GIF and in a palette PNG of 4 bits', async () => {
    const width = 64
    const height = 64
    const raw = new Uint8Array(width * height * 4)
    for (let i = 0; i < raw.length; i++) raw[i] = (i & 3) === 3 ? 255 : (i * 7919 + (i >> 8) * 104729) & 255
    const drawn = { raw, width, height, delays: [100] }
    const full = await encodeAnimation(drawn, 'gif', DEFAULT_MAX_BYTES, Infinity)
    const fewer = await encodeAnimation(drawn, 'gif', full.bytes.length - 1, Infinity)
    assert.deepEqual(fewer.reduced, ['colours'])
    const colours = new Set<number>()
    const pixels = await sharp(fewer.bytes).raw().toBuffer({ resolveWithObject: true })
    for (let i = 0; i < pixels.data.length; i += pixels.info.channels) colours.add((pixels.data[i]! << 16) | (pixels.data[i + 1]! << 8) | pixels.data[i + 2]!)
    assert.ok(colours.size <= 16, `${colours.size} colours`)
    // A PNG that neither it nor its 256-colour palette fits: the second step, 16 colours, 4 bits.
    const png = await sharp(Buffer.from(raw), { raw: { width, height, channels: 4 } }).png().toBuffer()
    const fullPalette = await sharp(png).png({ palette: true, colours: 256, effort: 4 }).toBuffer()
    const still = await stillWithin(png, 'png', Math.min(png.length, fullPalette.length) - 1, Infinity)
    assert.deepEqual(still.reduced, ['colours'])
    const meta = await sharp(still.bytes).metadata()
    assert.deepEqual([meta.isPalette, meta.bitsPerSample], [true, 4])
  })
})
