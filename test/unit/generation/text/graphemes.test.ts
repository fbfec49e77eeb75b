// Text is cut between grapheme clusters (src/generation/text/graphemes.ts): the avatar's
// initial, the "…" of a name too long for its line, and the wrapping of a word wider than
// its box; and each text is laid out in the direction of its first strong letter (issue 27).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { createCanvas } from '@napi-rs/canvas'
import { fitText, wrapText } from '../../../../src/generation/canvas/draw.js'
import { createDrawingFonts } from '../../../../src/generation/text/font-loading.js'
import { graphemes, initialOf } from '../../../../src/generation/text/graphemes.js'
import { textDirection } from '../../../../src/generation/text/scripts.js'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-graphemes-'))
after(() => fs.rmSync(dataDir, { recursive: true, force: true }))

/** Every cut of `whole` into `parts` falls between two of its grapheme clusters. */
function cutsAtGraphemes (whole: string, parts: string[]): void {
  const bounds = new Set<number>([0])
  let at = 0
  for (const g of graphemes(whole)) bounds.add(at += g.length)
  let offset = 0
  for (const part of parts) {
    const start = whole.indexOf(part, offset)
    assert.ok(start >= 0, `"${part}" is not a piece of "${whole}"`)
    assert.ok(bounds.has(start) && bounds.has(start + part.length), `"${part}" cuts a grapheme cluster of "${whole}"`)
    offset = start + part.length
  }
}

describe('the avatar\'s initial', () => {
  const cases: Array<[string, string]> = [
    ['ada', 'A'],
    ['  émile', 'É'],
    ['ßtraße', 'ß'], // ß.toUpperCase() is SS: two letters on the disc
    ['🇯🇵 Taro', '🇯🇵'], // a flag, not the letter J of its first regional indicator
    ['👨‍👩‍👧 family', '👨‍👩‍👧'], // the whole family, not one man
    ['❤️‍🔥 fan', '❤️‍🔥'],
    ['👍🏽 ok', '👍🏽'],
    ['1️⃣st', '1️⃣'],
    ['김민준', '김'],
    ['สวัสดี', 'ส'],
    ['नमस्ते', 'न'],
    ['שלום', 'ש'],
    ['محمد', 'م'],
    ['简体中文', '简'],
    ['', '']
  ]
  for (const [name, initial] of cases) it(`of "${name}" is "${initial}"`, () => assert.equal(initialOf(name), initial))
})

describe('cutting text to fit (fitText, wrapText)', () => {
  const fonts = createDrawingFonts({ dataDir })
  const ctx = createCanvas(10, 10).getContext('2d')

  it('ends a name too long for its line with "…" after a whole grapheme', () => {
    const names = ['👨‍👩‍👧‍👦'.repeat(30), '🇯🇵🇰🇷🇹🇭🇨🇳'.repeat(10), 'สวัสดีชาวโลก'.repeat(10), 'नमस्ते दुनिया '.repeat(10), 'e\u0301'.repeat(80)]
    for (const name of names) {
      const family = fonts.family(undefined, 'font', name)
      const fitted = fitText(ctx, name, family, 'bold', 40, 20, 300)
      assert.ok(fitted.endsWith('…'), `"${name}" was not cut`)
      assert.ok(ctx.measureText(fitted).width <= 300)
      cutsAtGraphemes(name, [fitted.slice(0, -1)])
    }
  })

  it('wraps a word wider than its box between graphemes, never inside one', () => {
    for (const word of ['👨‍👩‍👧‍👦'.repeat(40), '🇯🇵'.repeat(40), 'ส\u0e35'.repeat(60)]) {
      ctx.font = `30px ${fonts.family(undefined, 'font', word)}`
      const lines = wrapText(ctx, word, 200)
      assert.ok(lines.length > 1)
      cutsAtGraphemes(word, lines)
    }
  })

  it('wraps Thai and Chinese, written without spaces, at the words a dictionary finds', () => {
    const thai = 'สวัสดีชาวโลก'.repeat(8)
    ctx.font = `30px ${fonts.family(undefined, 'font', thai)}`
    const lines = wrapText(ctx, thai, 250)
    assert.ok(lines.length > 1)
    // Each line ends where a word ends: สวัสดี, ชาว and โลก are the words.
    for (const line of lines.slice(0, -1)) assert.match(line, /(สวัสดี|ชาว|โลก)$/)
    const chinese = '简体中文名字'.repeat(10)
    ctx.font = `30px ${fonts.family(undefined, 'font', chinese)}`
    cutsAtGraphemes(chinese, wrapText(ctx, chinese, 250))
  })

  it('still breaks a long word that follows a short one', () => {
    ctx.font = `30px ${fonts.family(undefined)}`
    const lines = wrapText(ctx, `Hi ${'x'.repeat(200)}`, 200)
    assert.equal(lines[0], 'Hi')
    for (const line of lines) assert.ok(ctx.measureText(line).width <= 200, `"${line}" is wider than its box`)
  })
})

describe('text direction', () => {
  it('is that of the first strong letter', () => {
    assert.equal(textDirection('שלום 123'), 'rtl')
    assert.equal(textDirection('123 محمد'), 'rtl')
    assert.equal(textDirection('“محمد” Ali'), 'rtl')
    assert.equal(textDirection('Ali محمد'), 'ltr')
    assert.equal(textDirection('김민준'), 'ltr')
    assert.equal(textDirection('🎉 123'), 'ltr')
  })
})
