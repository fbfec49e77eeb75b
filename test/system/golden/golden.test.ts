// Golden images: each template and a set of /gen/custom descriptions, drawn through the
// HTTP endpoint, must match the references in test/system/golden/reference/ within TOLERANCE, so that a
// layout regression (a moved text, a lost avatar mask, boxes instead of glyphs) fails.
// On a failure the actual picture and a diff are written to a temp dir named in the
// message. Regenerate the references on purpose with scripts/update-golden.ts.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { compareImages, GOLDEN_CASES, GOLDEN_DIR, type GoldenFixture, startGoldenFixture, writeFailure } from './golden-cases.js'

let fixture: GoldenFixture

before(async () => { fixture = await startGoldenFixture() })
after(async () => { await fixture.close() })

describe('golden images', () => {
  for (const c of GOLDEN_CASES) {
    it(`${c.name} matches test/system/golden/reference/${c.name}.png`, async () => {
      const file = path.join(GOLDEN_DIR, `${c.name}.png`)
      assert.ok(fs.existsSync(file), `no reference ${file}: run node --import tsx scripts/update-golden.ts`)
      const actual = await fixture.render(c)
      const comparison = await compareImages(actual, fs.readFileSync(file))
      if (!comparison.ok) {
        const dir = await writeFailure(c.name, actual, comparison)
        process.stderr.write(`golden ${c.name}: actual and diff written to ${dir}\n`)
        assert.fail(`${c.name}: ${comparison.reason}; actual and diff in ${dir}`)
      }
    })
  }

  it('every reference belongs to a case (no stale files)', () => {
    const names = new Set(GOLDEN_CASES.map((c) => `${c.name}.png`))
    assert.deepEqual(fs.readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.png') && !names.has(f)), [])
  })
})

describe('golden comparison', () => {
  it('fails on a small change of layout (one word of a text) and passes the identical picture', async () => {
    const welcome = GOLDEN_CASES.find((c) => c.name === 'welcome-basic')!
    const expected = await fixture.render(welcome)
    assert.equal((await compareImages(expected, expected)).ok, true)
    const changed = await fixture.render({ ...welcome, body: { ...(welcome.body as object), members: 'Member #43' } })
    const comparison = await compareImages(changed, expected)
    assert.equal(comparison.ok, false, `a changed digit went unnoticed: ${comparison.meanAbsDiff}, ${comparison.badFraction}`)
  })

  it('draws the same picture on a reused canvas as on a fresh one (no state left by the last picture)', async () => {
    // Pictures of one size share canvases (src/generation/canvas/canvas-pool.ts): a welcome
    // card, then custom pictures of the same size that leave every kind of state behind
    // (rotations, opacity, clips, shadows, outlines, fonts, alignment), then the card again.
    const welcome = GOLDEN_CASES.find((c) => c.name === 'welcome-banner-icon')!
    const first = await fixture.render(welcome)
    for (const name of ['custom-shapes', 'custom-url-images', 'custom-texts', 'custom-dates-global']) {
      const c = GOLDEN_CASES.find((g) => g.name === name)!
      const body = c.body as { base: object }
      const png = await fixture.render({ ...c, body: { ...body, base: { ...body.base, width: 1024, height: 450 } } })
      assert.deepEqual((await sharp(png).metadata()).width, 1024)
    }
    const again = await fixture.render(welcome)
    assert.ok(first.equals(again), 'the welcome card drawn after the custom pictures differs from the first one')
    // A transparent base drawn on the card's canvas: nothing of the card may show through.
    const clear = await fixture.render({ name: 'clear', url: '/gen/custom', body: { output: 'png', base: { width: 1024, height: 450, color: '0,0,0,0' }, images: [{ type: 'circle', x: 500, y: 200, radius: 10, color: 'red' }] } })
    const { data, info } = await sharp(clear).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    let shown = 0
    for (let i = 3; i < data.length; i += info.channels) if (data[i] !== 0 && (i / info.channels) % info.width < 400) shown++
    assert.equal(shown, 0, `${shown} pixels of an earlier picture show through a transparent base`)
  })

  it('fails on a different size, and writes the actual picture and a diff on failure', async () => {
    const small = await sharp({ create: { width: 10, height: 10, channels: 3, background: 'red' } }).png().toBuffer()
    const other = await sharp({ create: { width: 10, height: 10, channels: 3, background: 'blue' } }).png().toBuffer()
    assert.match((await compareImages(small, await sharp(small).resize(12, 10).png().toBuffer())).reason!, /size 10×10, expected 12×10/)
    const comparison = await compareImages(small, other)
    assert.equal(comparison.ok, false)
    const dir = await writeFailure('probe', small, comparison)
    try {
      const diff = await sharp(path.join(dir, 'probe.diff.png')).raw().toBuffer()
      assert.deepEqual([...diff.subarray(0, 3)], [255, 0, 0])
      assert.ok(fs.existsSync(path.join(dir, 'probe.actual.png')))
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
