// No tofu, proven from the fonts themselves (issue 27): for every name of the corpus
// (name-corpus.ts, each language of Discord's client plus Arabic and Hebrew), every
// character is in the cmap table of a family of the font list the name is drawn with
// (fonts.ts and scripts.ts), read with fontkit; and every fully-qualified RGI emoji
// sequence of the emoji font's Emoji version (emoji-test.txt, as listed by
// emoji-test-regex-pattern) is one glyph of the emoji font, and draws as one, the four
// the canvas alone would split included (src/generation/joined-emoji.ts).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas'
import * as fontkit from 'fontkit'
import { emojiFontFile } from '../../src/generation/emoji-font.js'
import { createDrawingFonts } from '../../src/generation/font-loading.js'
import { createFontRegistry, EMOJI_FAMILY } from '../../src/generation/fonts.js'
import { measureLine } from '../../src/generation/inline-text.js'
import { SPLIT_SEQUENCES } from '../../src/generation/joined-emoji.js'
import { NAME_CORPUS } from './name-corpus.js'

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
