// The budgets of /gen/custom (docs/generation.md, "Budgets"), decided before a picture is
// drawn, the 500s bad numbers used to cause (issue 14, item 9), wrapping linear in the
// text, and remote images decoded at the size they are drawn.
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { createCanvas } from '@napi-rs/canvas'
import sharp from 'sharp'
import { MAX_BLUR_PX, MAX_DRAWN_CHARACTERS, MAX_DRAWN_LINES } from '../../../../src/generation/custom/custom-limits.js'
import { wrapText } from '../../../../src/generation/canvas/draw.js'
import { graphemes, wordPieces } from '../../../../src/generation/text/graphemes.js'
import { MAX_SOURCE_PIXELS } from '../../../../src/generation/pipeline/render-job.js'
import { parseAllowList } from '../../../../src/remote-fetch/address.js'
import { createTestApp, type TestApp } from '../../../support/helpers.js'
import { assertErrorEnvelope } from '../../../support/envelope.js'

let t: TestApp
let server: http.Server
let base: string
let huge: Buffer
let pattern: Buffer

before(async () => {
  huge = await sharp({ create: { width: 5000, height: 5000, channels: 3, background: '#3366cc' } }).png().toBuffer()
  // Left half red, right half blue: shrinking must keep what is where.
  const half = await sharp({ create: { width: 2000, height: 4000, channels: 3, background: '#ff0000' } }).png().toBuffer()
  pattern = await sharp({ create: { width: 4000, height: 4000, channels: 3, background: '#0000ff' } }).composite([{ input: half, left: 0, top: 0 }]).png().toBuffer()
  server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' })
    res.end(req.url?.startsWith('/pattern') ? pattern : huge)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  t = await createTestApp({ config: { remoteFetchAllow: parseAllowList(['127.0.0.1']) } })
})
after(async () => { await t.close(); server.closeAllConnections(); server.close() })

const post = async (payload: unknown) => await t.app.inject({ method: 'POST', url: '/gen/custom', headers: t.auth, payload: payload as object })

describe('/gen/custom budgets', () => {
  it('refuses a blur radius above MAX_BLUR_PX, in a filter and in a text outline', async () => {
    assertErrorEnvelope(await post({ images: [{ color: 'red', filter: 'blur(5000px)' }] }), 400, 'GEN_LIMIT_EXCEEDED', { message: new RegExp(`at most ${MAX_BLUR_PX}px`), field: 'images[0].filter' })
    assertErrorEnvelope(await post({ images: [{ color: 'red', filter: 'grayscale(1) blur(101px)' }] }), 400, 'GEN_LIMIT_EXCEEDED', { message: /blurs by 101px/, field: 'images[0].filter' })
    assertErrorEnvelope(await post({ texts: [{ text: 'a', outlinewidth: 2, outlineblur: 5000 }] }), 400, 'GEN_LIMIT_EXCEEDED', { message: /between 0 and 100/, field: 'texts[0].outlineblur' })
    assertErrorEnvelope(await post({ global: { textOutlineBlur: 1e9 }, texts: [{ text: 'a' }] }), 400, 'GEN_LIMIT_EXCEEDED', { message: /between 0 and 100/, field: 'global.textOutlineBlur' })
    const ok = await post({ images: [{ color: 'red', width: 50, height: 50, filter: `blur(${MAX_BLUR_PX}px)` }] })
    assert.equal(ok.statusCode, 200, ok.body)
  })

  it('refuses more blurred pixels than one full canvas (50 blurred 3000×3000 layers took 45 s)', async () => {
    const layers = Array.from({ length: 50 }, (_, i) => ({ color: 'red', width: 3000, height: 3000, rotate: i, filter: 'blur(10px)' }))
    assertErrorEnvelope(await post({ base: { width: 3000, height: 3000 }, images: layers }), 400, 'GEN_LIMIT_EXCEEDED', { message: /blur 450000000 pixels together, at most 9000000/, field: 'images' })
  })

  it('refuses more characters and lines than a picture draws', async () => {
    const long = 'a'.repeat(MAX_DRAWN_CHARACTERS / 4)
    assertErrorEnvelope(await post({ texts: Array.from({ length: 5 }, () => ({ text: long })) }), 400, 'GEN_LIMIT_EXCEEDED', { message: new RegExp(`${MAX_DRAWN_CHARACTERS + MAX_DRAWN_CHARACTERS / 4} characters together, at most ${MAX_DRAWN_CHARACTERS}`), field: 'texts' })
    assertErrorEnvelope(await post({ texts: [{ texts: Array.from({ length: 2 }, () => '\n'.repeat(MAX_DRAWN_LINES)) }] }), 400, 'GEN_LIMIT_EXCEEDED', { message: new RegExp(`at most ${MAX_DRAWN_LINES} per picture`), field: 'texts' })
  })

  it('gives global.textSize the range of texts[].size', async () => {
    for (const size of [1e9, -50, 0]) {
      assertErrorEnvelope(await post({ global: { textSize: size }, texts: [{ text: 'a' }] }), 400, 'GEN_LIMIT_EXCEEDED', { message: /between 1 and 1000/, field: 'global.textSize' })
    }
    assert.equal((await post({ global: { textSize: 40 }, texts: [{ text: 'a' }] })).statusCode, 200)
  })

  it('refuses images whose pixels as sent exceed MAX_SOURCE_PIXELS before decoding any (ten 5000×5000 PNGs)', async () => {
    const images = Array.from({ length: 10 }, (_, i) => ({ url: `${base}/huge-${i}.png`, width: 100, height: 100, x: i * 100 }))
    assertErrorEnvelope(await post({ images }), 413, 'GEN_BUDGET_EXCEEDED', { message: new RegExp(`250000000 pixels as sent, above the budget of ${MAX_SOURCE_PIXELS}`) })
  })

  it('draws a 4000×4000 image at 100×100 from a shrunk decode, the same picture as drawing it whole', async () => {
    const res = await post({ output: 'png', base: { width: 200, height: 100, color: 'white' }, images: [{ url: `${base}/pattern.png`, width: 100, height: 100 }, { url: `${base}/pattern.png`, type: 'circle', x: 100, radius: 50 }] })
    assert.equal(res.statusCode, 200, res.body)
    const { data, info } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true })
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)]
    assert.deepEqual(at(10, 50), [255, 0, 0])
    assert.deepEqual(at(90, 50), [0, 0, 255])
    assert.deepEqual(at(110, 50), [255, 0, 0])
    assert.deepEqual(at(190, 50), [0, 0, 255])
    assert.deepEqual(at(102, 2), [255, 255, 255], 'outside the circle')
  })
})

describe('bad numbers answer 400, not 500 (issue 14, item 9)', () => {
  it('a negative circle radius is a 400 naming the field (the canvas threw on a negative arc)', async () => {
    assertErrorEnvelope(await post({ images: [{ type: 'circle', radius: -100 }] }), 400, 'GEN_LIMIT_EXCEEDED', { message: /must not be negative/, field: 'images[0].radius' })
  })

  it('a negative size or width of an image or a text is a 400 naming the field', async () => {
    assertErrorEnvelope(await post({ images: [{ color: 'red', size: -5 }] }), 400, 'GEN_LIMIT_EXCEEDED', { message: /must not be negative/, field: 'images[0].size' })
    assertErrorEnvelope(await post({ images: [{ color: 'red', width: -5 }] }), 400, 'GEN_LIMIT_EXCEEDED', { message: /must not be negative/, field: 'images[0].width' })
    assertErrorEnvelope(await post({ texts: [{ text: 'a', width: -5 }] }), 400, 'GEN_LIMIT_EXCEEDED', { message: /must not be negative/, field: 'texts[0].width' })
  })

  it('40 lines of 4999 newlines is a 400 (Math.max(...lines) overflowed the stack: 500)', async () => {
    assertErrorEnvelope(await post({ texts: [{ texts: Array.from({ length: 40 }, () => '\n'.repeat(4999)) }] }), 400, 'GEN_LIMIT_EXCEEDED', { message: /together, at most/, field: 'texts' })
  })

  it('a text as wide as the budget allows draws, widest-line box included (no spread of the lines)', async () => {
    const res = await post({ texts: [{ texts: Array.from({ length: 10 }, () => 'x\n'.repeat(99)), back: 'black' }] })
    assert.equal(res.statusCode, 200, res.body)
  })
})

describe('wrapText is linear in the text', () => {
  /** Characters handed to measureText: the work of wrapping, whatever the machine's speed. */
  function measuredCharacters (text: string, width: number): number {
    const ctx = createCanvas(10, 10).getContext('2d')
    ctx.font = '16px sans-serif'
    let measured = 0
    const measure = ctx.measureText.bind(ctx)
    ctx.measureText = (s: string) => { measured += s.length; return measure(s) }
    wrapText(ctx, text, width)
    return measured
  }

  it('measures about twice as much for twice the words (it re-measured the growing line per word)', () => {
    const one = measuredCharacters('a '.repeat(2500), 1e9)
    const two = measuredCharacters('a '.repeat(5000), 1e9)
    assert.ok(two / one < 3, `2× the words measured ${two} characters against ${one}`)
  })

  it('measures about twice as much for a word twice as long broken by characters', () => {
    const one = measuredCharacters('漢'.repeat(2500), 300)
    const two = measuredCharacters('漢'.repeat(5000), 300)
    assert.ok(two / one < 3, `2× the characters measured ${two} against ${one}`)
  })

  it('wraps exactly as measuring the whole line does: words first, a long word at its word pieces, then between graphemes', () => {
    // The same rules, measuring the whole line at each step (quadratic), as the reference.
    function reference (ctx: ReturnType<ReturnType<typeof createCanvas>['getContext']>, text: string, maxWidth: number): string[] {
      const lines: string[] = []
      const fits = (s: string): boolean => ctx.measureText(s).width <= maxWidth
      for (const paragraph of text.split(/\r?\n/)) {
        if (maxWidth <= 0) { lines.push(paragraph); continue }
        let line = ''
        for (const word of paragraph.split(/(\s+)/)) {
          if (word === '') continue
          if (fits(line + word)) { line += word; continue }
          if (line !== '') { lines.push(line.trimEnd()); line = '' }
          const start = word.trimStart()
          if (fits(start)) { line = start; continue }
          // A word broken over lines is measured piece by piece, as the pieces are kept.
          let width = 0
          for (const piece of wordPieces(start)) {
            for (const unit of fits(piece) ? [piece] : graphemes(piece)) {
              const unitWidth = ctx.measureText(unit).width
              if (width + unitWidth > maxWidth && line !== '') { lines.push(line); line = ''; width = 0 }
              line += unit
              width += unitWidth
            }
          }
        }
        lines.push(line.trimEnd())
      }
      return lines
    }
    const ctx = createCanvas(10, 10).getContext('2d')
    const text = '  The quick brown fox jumps over the lazy dog, again and again.  Supercalifragilisticexpialidocious!\nNext  paragraph 漢字かな 😀 ok 👨‍👩‍👧‍👦🇯🇵 สวัสดีชาวโลกสวัสดีชาวโลก\n\nend '
    for (const font of ['16px sans-serif', 'bold 31px serif']) {
      ctx.font = font
      for (const width of [0, 1, 40, 80, 120, 200, 400, 1e9]) assert.deepEqual(wrapText(ctx, text, width), reference(ctx, text, width), `${font} at ${width}`)
    }
  })
})
