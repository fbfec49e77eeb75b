// The project's own art, checked by pixels: the hosted service's icon and banner names
// all draw (docs/generation.md, "Icon and banner names"), and the defects users saw in
// the banners stay fixed.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { describe, it } from 'node:test'
import { createCanvas } from '@napi-rs/canvas'
import { BANNER_HEIGHT as H, BANNER_WIDTH as W, BANNERS, ICON_SIZE, ICONS } from '../../../../src/generation/assets/art.js'
import { xpProgress } from '../../../../src/generation/template-registry.js'

const HOSTED_ICONS = ['dragon', 'dog', 'pikachu', 'cat', 'senko', 'neko', 'pepe', 'shrek', 'nyancat', 'chika']
const HOSTED_BANNERS = ['space', 'love', 'purplewave', 'mountain', 'wave', 'sunset', 'rainbow', 'swamp']

function banner (name: string): (x: number, y: number) => [number, number, number] {
  const canvas = createCanvas(W, H)
  BANNERS[name]!(canvas.getContext('2d'), W, H)
  const data = canvas.getContext('2d').getImageData(0, 0, W, H).data
  return (x, y) => { const i = (y * W + x) * 4; return [data[i]!, data[i + 1]!, data[i + 2]!] }
}

const luma = ([r, g, b]: [number, number, number]) => 0.2126 * r + 0.7152 * g + 0.0722 * b

describe('hosted icon and banner names', () => {
  it('draws a distinct, non-empty picture of our own for every hosted icon name', () => {
    const hashes = new Set<string>()
    for (const name of HOSTED_ICONS) {
      assert.ok(Object.hasOwn(ICONS, name), `no icon "${name}"`)
      const canvas = createCanvas(ICON_SIZE, ICON_SIZE)
      ICONS[name]!(canvas.getContext('2d'), ICON_SIZE, ICON_SIZE)
      const data = canvas.getContext('2d').getImageData(0, 0, ICON_SIZE, ICON_SIZE).data
      const colours = new Set<number>()
      for (let i = 0; i < data.length; i += 4 * 97) colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!)
      assert.ok(colours.size > 8, `icon "${name}" is nearly blank (${colours.size} colours)`)
      hashes.add(createHash('sha256').update(data).digest('hex'))
    }
    assert.equal(hashes.size, HOSTED_ICONS.length, 'two hosted names draw the same picture')
  })

  it('has a banner for every hosted banner name', () => {
    for (const name of HOSTED_BANNERS) assert.ok(Object.hasOwn(BANNERS, name), `no banner "${name}"`)
  })
})

describe('banner defects stay fixed', () => {
  it('mountain: the front ridge reaches the right edge (no sliver of sky in the last columns)', () => {
    const px = banner('mountain')
    for (let y = Math.round(H * 0.75); y < H; y++) {
      const edge = px(W - 1, y)
      const inside = px(W - 30, y)
      assert.ok(edge.every((c, i) => Math.abs(c - inside[i]!) <= 8), `row ${y}: the right edge shows ${edge}, the ridge ${inside}`)
    }
  })

  it('aurora: no hard horizontal seam below the curtains (y≈315 was a step)', () => {
    const px = banner('aurora')
    for (const x of [0, 100, 333, 512, 800, W - 1]) {
      for (let y = 266; y < H; y++) {
        const [a, b] = [px(x, y - 1), px(x, y)]
        const step = Math.max(...a.map((c, i) => Math.abs(c - b[i]!)))
        assert.ok(step <= 12, `column ${x}: a step of ${step} between rows ${y - 1} and ${y}`)
      }
    }
  })

  it('sunset: nothing pale behind the cards\' text, and the dark sea starts below the avatar and the last line', () => {
    const px = banner('sunset')
    // The welcome/goodbye card writes from x = 420, lines down to y ≈ 345; the avatar ends at y = 373.
    let palest = 0
    for (let y = 90; y <= 345; y += 3) for (let x = 420; x <= 780; x += 6) palest = Math.max(palest, luma(px(x, y)))
    assert.ok(palest < 150, `behind the text the banner reaches luma ${palest.toFixed(0)}: white text would not read`)
    const firstDark = [...Array(H).keys()].find((y) => y > 200 && luma(px(40, y)) < 30)
    assert.ok(firstDark !== undefined && firstDark > 373, `the sea starts at y = ${firstDark}, behind the avatar or the text`)
  })

  it('sunset: the sun and its whole reflection lie behind the card (its reflection poked out below the card\'s lower edge, y 426)', () => {
    const px = banner('sunset')
    let below = 0
    for (let y = 424; y < H; y++) for (let x = 780; x <= 980; x++) below = Math.max(below, luma(px(x, y)))
    assert.ok(below < 60, `below the card's edge the sea reaches luma ${below.toFixed(0)}: the reflection shows there`)
    let reflection = 0
    for (let y = 385; y < 420; y++) reflection = Math.max(reflection, luma(px(Math.round(W * 0.86), y)))
    assert.ok(reflection > 120, 'the reflection is drawn on the sea, inside the card')
  })
})

describe('rank card numbers', () => {
  it('writes xp and max xp in one unit (8420 of 12000 read "8420 / 12K")', () => {
    assert.equal(xpProgress(8420, 12000), '8.4K / 12K XP')
    assert.equal(xpProgress(450, 1000), '450 / 1000 XP')
    assert.equal(xpProgress(12500, 20000), '12.5K / 20K XP')
    assert.equal(xpProgress(940_000, 1_200_000), '0.9M / 1.2M XP')
    // Rounded as Intl rounds the decimal (half away from zero), where toFixed's binary 0.95 gave 0.9.
    assert.equal(xpProgress(950_000, 1_200_000), '1M / 1.2M XP')
    assert.equal(xpProgress(0, 100), '0 / 100 XP')
    assert.equal(xpProgress(8420, 12000, 'fr'), '8,4\u00a0k / 12\u00a0k XP')
  })
})
