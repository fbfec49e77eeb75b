// The table of colour spellings in docs/colors.md, every row sent through every place that
// reads a colour: a /gen/custom colour, a template colour and a conversion's background.
// Once three parsers disagreed: rgb(0, 128, 255) drew as a background but was refused in
// /gen/custom, 0,0,0,0.5 the other way round.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { parseColorSpelling } from '../../../src/colors/spelling.js'
import { createTestApp, json, type TestApp } from '../../support/helpers.js'

function table (marker: string): string[][] {
  const doc = fs.readFileSync('docs/colors.md', 'utf8')
  const start = doc.indexOf(`<!-- colour-spellings: ${marker} -->`)
  assert.ok(start >= 0, `docs/colors.md has the ${marker} table`)
  const body = doc.slice(start, doc.indexOf('<!-- end -->', start))
  return body.split('\n').filter((l) => l.startsWith('| `'))
    .map((l) => l.slice(1, -1).split(' | ').map((cell) => cell.trim()))
}

const ACCEPTED = table('accepted').map(([spelling, value]) => {
  const [r, g, b, alpha] = value!.split(',').map(Number) as [number, number, number, number]
  return { spelling: spelling!.replace(/^`|`$/g, ''), r, g, b, alpha }
})
const REFUSED = table('refused').map(([spelling]) => spelling!.replace(/^`|`$/g, ''))

let t: TestApp
let transparentPng: Buffer
before(async () => {
  t = await createTestApp()
  transparentPng = await sharp({ create: { width: 8, height: 8, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0 } } }).png().toBuffer()
})
after(async () => { await t.close() })

async function pixel (image: Buffer, x = 2, y = 2): Promise<number[]> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  const i = (y * info.width + x) * 4
  return [...data.subarray(i, i + 4)]
}

function assertDrawn (px: number[], row: typeof ACCEPTED[number], where: string): void {
  const alpha = Math.round(row.alpha * 255)
  assert.ok(Math.abs(px[3]! - alpha) <= 1, `${where}: ${row.spelling} drew alpha ${px[3]}, expected ${alpha}`)
  if (row.alpha < 0.3) return // premultiplied rounding makes faint channels imprecise
  for (const [c, expected] of [row.r, row.g, row.b].entries()) {
    assert.ok(Math.abs(px[c]! - expected) <= 3, `${where}: ${row.spelling} drew ${px}, expected ${row.r},${row.g},${row.b}`)
  }
}

const custom = (color: string) => t.app.inject({ method: 'POST', url: '/gen/custom', headers: t.auth, payload: { output: 'png', base: { type: 'bitmap', width: 8, height: 8, color } } })
const template = (color: string) => t.app.inject({ method: 'GET', url: `/gen/quote?output=png&text=hi&background=${encodeURIComponent(color)}`, headers: t.auth })
const conversion = (color: string) => t.app.inject({ method: 'POST', url: `/convert/image-jpg?background=${encodeURIComponent(color)}`, headers: { ...t.auth, 'content-type': 'image/png' }, payload: transparentPng })

describe('every accepted colour spelling of docs/colors.md', () => {
  it('the table has its rows', () => {
    assert.ok(ACCEPTED.length >= 20 && REFUSED.length >= 8)
  })

  for (const row of ACCEPTED) {
    it(`${JSON.stringify(row.spelling)} → ${row.r}, ${row.g}, ${row.b}, ${row.alpha} in the parser, /gen/custom, a template and a conversion background`, async () => {
      const parsed = parseColorSpelling(row.spelling)
      assert.ok(parsed, `parsed ${row.spelling}`)
      assert.deepEqual([parsed.r, parsed.g, parsed.b], [row.r, row.g, row.b])
      assert.ok(Math.abs(parsed.alpha - row.alpha) < 0.001, `alpha ${parsed.alpha}`)

      const c = await custom(row.spelling)
      assert.equal(c.statusCode, 200, c.body.slice(0, 300))
      assertDrawn(await pixel(c.rawPayload), row, '/gen/custom base.color')

      const q = await template(row.spelling)
      assert.equal(q.statusCode, 200, q.body.slice(0, 300))
      assertDrawn(await pixel(q.rawPayload), row, '/gen/quote background')

      const j = await conversion(row.spelling)
      assert.equal(j.statusCode, 200, j.body.slice(0, 300))
      if (row.alpha === 1) {
        const px = await pixel(j.rawPayload)
        for (const [i, expected] of [row.r, row.g, row.b].entries()) assert.ok(Math.abs(px[i]! - expected) <= 3, `background ${row.spelling}: ${px}`)
      }
    })
  }
})

describe('every refused colour spelling of docs/colors.md', () => {
  for (const spelling of REFUSED) {
    it(`${JSON.stringify(spelling)} is refused everywhere, naming the field`, async () => {
      assert.equal(parseColorSpelling(spelling), undefined)
      const c = await custom(spelling)
      assert.equal(c.statusCode, 400, c.body)
      assert.equal(json(c).error, 'INVALID_COLOR')
      assert.match(json(c).message, /base\.color/)
      const q = await template(spelling)
      assert.equal(q.statusCode, 400, q.body)
      assert.equal(json(q).error, 'INVALID_COLOR')
      assert.match(json(q).message, /"background"/)
      const j = await conversion(spelling)
      assert.equal(j.statusCode, 400, j.body)
      assert.equal(json(j).error, 'VALIDATION')
      assert.match(json(j).message, /"background"/)
    })
  }
})

describe('names of Object.prototype are no filter either', () => {
  for (const filter of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    it(`/gen/custom refuses filter ${JSON.stringify(filter)} (it was looked up on a plain object)`, async () => {
      const res = await t.app.inject({ method: 'POST', url: '/gen/custom', headers: t.auth, payload: { output: 'png', base: { type: 'bitmap', width: 8, height: 8, color: 'red' }, images: [{ type: 'bitmap', width: 4, height: 4, color: 'blue', filter }] } })
      assert.equal(res.statusCode, 400, res.body)
      assert.equal(json(res).error, 'VALIDATION')
      assert.match(json(res).message, /images\[0\]\.filter/)
    })
  }
})
