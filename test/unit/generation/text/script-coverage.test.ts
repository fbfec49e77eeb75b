// No tofu, proven from the fonts themselves (issue 27): for every name of the corpus
// (name-corpus.ts, each language of Discord's client plus Arabic and Hebrew), every
// character is in the cmap table of a family of the font list the name is drawn with
// (fonts.ts and scripts.ts), read with fontkit; and every fully-qualified RGI emoji
// sequence of the emoji font's Emoji version (emoji-test.txt, as listed by
// emoji-test-regex-pattern) is one glyph of the emoji font, and draws as one, the four
// the canvas alone would split included (src/generation/text/joined-emoji.ts). Noto Sans SC
// and TC join a list only for a Han or Bopomofo character the CJK cuts before them lack,
// as the server reads their cmaps (src/generation/text/cmap.ts): every code point of the three
// is checked against fontkit's reading (issue 24).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas'
import * as fontkit from 'fontkit'
import { cmapRecords, fontCodePoints, mappedCodePoints, readSfntTable, subtableLength } from '../../../../src/generation/text/cmap.js'
import { emojiFontFile } from '../../../../src/generation/text/emoji-font.js'
import { createDrawingFonts } from '../../../../src/generation/text/font-loading.js'
import { createFontRegistry, EMOJI_FAMILY } from '../../../../src/generation/text/fonts.js'
import { measureLine } from '../../../../src/generation/text/inline-text.js'
import { SPLIT_SEQUENCES } from '../../../../src/generation/text/joined-emoji.js'
import { NAME_CORPUS } from '../../../fixtures/name-corpus.js'

const require = createRequire(import.meta.url)
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-coverage-'))
after(() => fs.rmSync(temp, { recursive: true, force: true }))

/** Emoji 17.0: the version Noto Color Emoji 2.057 (@fontsource/noto-color-emoji 5.3) draws all of. */
const EMOJI_VERSION = '17.0'

const emojiTtf = emojiFontFile(path.join(temp, 'cache'))
const registry = createFontRegistry({ emojiFile: emojiTtf })
const opened = new Map<string, fontkit.Font>()
/** The regular (first) file of a family, opened once. */
function fontOf (family: string): fontkit.Font {
  let font = opened.get(family)
  if (font === undefined) {
    const file = registry.info().find((f) => f.name === family)?.files[0]
    assert.ok(file, `no file for the family ${family}`)
    font = fontkit.openSync(file) as fontkit.Font
    opened.set(family, font)
  }
  return font
}
const familiesOf = (list: string): string[] => list.split(', ').map((f) => f.replace(/^"|"$/g, ''))
// Format characters a shaper consumes (ZWJ, ZWNJ, variation selectors, tags, bidi marks): no glyph of their own is drawn.
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/u

/** The characters of `text` none of the families of its font list has, when drawn with the requested font. */
function uncovered (text: string, requested?: string): string[] {
  const families = familiesOf(registry.family(requested, 'font', text)).map(fontOf)
  const missing: string[] = []
  for (const ch of text) {
    if (IGNORABLE.test(ch)) continue
    const cp = ch.codePointAt(0)!
    if (!families.some((font) => font.hasGlyphForCodePoint(cp))) missing.push(`U+${cp.toString(16).toUpperCase().padStart(4, '0')} ${ch}`)
  }
  return missing
}

describe('every character of the names of every language is in a loaded font\'s cmap', () => {
  for (const [language, names] of Object.entries(NAME_CORPUS)) {
    it(language, () => {
      for (const name of names) {
        for (const requested of [undefined, 'Lobster', 'Noto Serif', 'Bebas Neue']) {
          assert.deepEqual(uncovered(name, requested), [], `"${name}" drawn with ${requested ?? 'the default font'}`)
        }
      }
    })
  }

  it('fails on a character no font has (the check checks)', () => {
    assert.deepEqual(uncovered('Ada \u{13000}'), ['U+13000 \u{13000}'])
  })
})

describe('the CJK cuts join a text\'s font list by their cmaps (issue 24)', () => {
  const CUTS = ['Noto Sans JP', 'Noto Sans SC', 'Noto Sans TC']
  const HAN_OR_BOPOMOFO = /[\p{Script=Han}\p{Script=Bopomofo}]/u
  const filesOf = (family: string): string[] => registry.info().find((f) => f.name === family)!.files
  const [jp, sc, tc] = CUTS.map((family) => new Set(fontOf(family).characterSet))

  it('reads the code points fontkit reads, from the regular file the registry looks up (src/generation/text/cmap.ts)', () => {
    for (const family of [...CUTS, 'Noto Sans', 'Noto Sans KR']) {
      const ours = fontCodePoints(filesOf(family)[0]!)
      assert.ok(ours, `no code points read for ${family}`)
      const theirs = fontOf(family).characterSet
      assert.equal(ours.size, theirs.length, family)
      assert.deepEqual(theirs.filter((cp) => !ours.has(cp)), [], family)
    }
  })

  it('reads a format 4 subtable alone (the Basic Multilingual Plane) as fontkit does', () => {
    const cmap = readSfntTable(filesOf('Noto Sans JP')[0]!, 'cmap')!
    const windowsBmp = cmapRecords(cmap).find((r) => r.platform === 3 && r.encoding === 1)!
    assert.equal(cmap.readUInt16BE(windowsBmp.offset), 4)
    const subtable = cmap.subarray(windowsBmp.offset, windowsBmp.offset + subtableLength(cmap, windowsBmp.offset))
    const only = Buffer.concat([Buffer.from([0, 0, 0, 1, 0, 3, 0, 1, 0, 0, 0, 12]), subtable])
    const ours = mappedCodePoints(only)!
    const bmp = [...jp!].filter((cp) => cp <= 0xffff)
    assert.equal(ours.size, bmp.length)
    assert.deepEqual(bmp.filter((cp) => !ours.has(cp)), [])
  })

  it('maps the same code points in every weight, so the regular file speaks for the bold', () => {
    for (const family of CUTS) {
      const [regular, ...others] = filesOf(family).map((file) => (fontkit.openSync(file) as fontkit.Font).characterSet.join())
      for (const other of others) assert.ok(other === regular, `${family}'s weights map different code points`)
    }
  })

  it('gives every code point of Noto Sans JP, SC and TC a font list with a family that has it, and SC or TC only for a Han or Bopomofo character JP (and SC) lack', () => {
    const all = [...new Set([...jp!, ...sc!, ...tc!])].filter((cp) => !IGNORABLE.test(String.fromCodePoint(cp))).sort((a, b) => a - b)
    assert.ok(all.length > 33_000)
    const missing: string[] = []
    const wrong: string[] = []
    let withSc = 0
    let withTc = 0
    for (const cp of all) {
      const text = `Ada ${String.fromCodePoint(cp)}`
      missing.push(...uncovered(text))
      if (!HAN_OR_BOPOMOFO.test(text)) continue
      const families = familiesOf(registry.family(undefined, 'font', text))
      const wantSc = !jp!.has(cp) && sc!.has(cp)
      const wantTc = !jp!.has(cp) && !sc!.has(cp) && tc!.has(cp)
      if (families.includes('Noto Sans SC') !== wantSc || families.includes('Noto Sans TC') !== wantTc) wrong.push(`U+${cp.toString(16).toUpperCase()}: ${families.join(', ')}`)
      if (wantSc) withSc++
      if (wantTc) withTc++
    }
    assert.deepEqual(missing.slice(0, 20), [], `${missing.length} code points drawn by no family of their list`)
    assert.deepEqual(wrong.slice(0, 20), [], `${wrong.length} code points with SC or TC wrongly in or out`)
    // Today's fonts: 14,811 Han characters only SC adds to JP, 1,674 only TC.
    assert.ok(withSc > 10_000 && withTc > 1_000, `${withSc} for SC, ${withTc} for TC`)
  })
})

/** The fully-qualified sequences of emoji-test.txt: of the spellings with and without VS16, the one with the most. */
function fullyQualified (): string[] {
  const listFile = require.resolve(`emoji-test-regex-pattern/dist/emoji-${EMOJI_VERSION}/index-strings.txt`)
  const best = new Map<string, string>()
  for (const s of fs.readFileSync(listFile, 'utf8').split('\n')) {
    if (s === '') continue
    const key = s.replace(/\uFE0F/g, '')
    const current = best.get(key)
    if (current === undefined || s.split('\uFE0F').length > current.split('\uFE0F').length) best.set(key, s)
  }
  return [...best.values()]
}

describe('every fully-qualified RGI emoji sequence draws as one glyph', () => {
  const sequences = fullyQualified()

  it(`lists the ${sequences.length} sequences of Emoji ${EMOJI_VERSION}, flags, keycaps, skin tones and ZWJ sequences among them`, () => {
    assert.ok(sequences.length > 3900)
    for (const s of ['🇯🇵', '#️⃣', '👍🏽', '👨‍👩‍👧‍👦', '❤️‍🔥', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '🧑🏻‍🤝‍🧑🏿']) assert.ok(sequences.includes(s), `${s} is not listed`)
  })

  it('is one glyph of the emoji font (its cmap and ligatures, by fontkit)', () => {
    const font = fontOf(EMOJI_FAMILY)
    const notOne = sequences.filter((s) => {
      const { glyphs } = font.layout(s)
      return glyphs.length !== 1 || glyphs[0]!.id === 0
    })
    assert.deepEqual(notOne, [])
  })

  const fonts = createDrawingFonts({ dataDir: temp })
  /** The sequences wider than one emoji with the font list of a text holding them, measured by `width`. */
  function split (requested: string | undefined, width: (ctx: SKRSContext2D, s: string) => number): string[] {
    const ctx = createCanvas(10, 10).getContext('2d')
    const out: string[] = []
    for (const s of sequences) {
      ctx.font = `40px ${fonts.family(requested, 'font', `Ada ${s}`)}`
      if (Math.abs(width(ctx, s) - width(ctx, '😀')) > 0.5) out.push(s)
    }
    return out.sort()
  }

  it('draws one emoji wide with the font list of every text (as pictures measure and draw text)', () => {
    for (const requested of [undefined, 'Lobster', 'Noto Serif']) {
      assert.deepEqual(split(requested, (ctx, s) => measureLine(ctx, s)), [], `with ${requested ?? 'the default font'}`)
    }
  })

  // The canvas (Skia's paragraph layout in @napi-rs/canvas 1.1.1) cuts a run between a
  // character presented as text by default and one presented as emoji, before shaping.
  // When an upgrade stops splitting one, its code point in joined-emoji.ts can go.
  it('joins exactly the sequences the canvas alone splits', () => {
    assert.deepEqual(split(undefined, (ctx, s) => ctx.measureText(s).width), [...SPLIT_SEQUENCES].sort())
  })
})
