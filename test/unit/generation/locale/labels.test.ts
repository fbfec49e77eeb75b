// Every locale's file of labels (src/generation/locale/labels/) has exactly the keys of
// English, with the same placeholders, and every label draws without a missing glyph:
// each of its characters is in the cmap of a family of the font list the registry gives
// for it (read with fontkit, as test/unit/generation/text/script-coverage.test.ts does).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import * as fontkit from 'fontkit'
import { labels as english } from '../../../../src/generation/locale/labels/en-US.js'
import { labelsOf, LOCALES } from '../../../../src/generation/locale/locale.js'
import { emojiFontFile } from '../../../../src/generation/text/emoji-font.js'
import { createFontRegistry } from '../../../../src/generation/text/fonts.js'

const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-labels-'))
after(() => fs.rmSync(temp, { recursive: true, force: true }))

const placeholders = (text: string): string[] => [...text.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!).sort()

describe('the locales\' labels', () => {
  it('has one file per locale, each with exactly the keys of English', () => {
    const files = fs.readdirSync(new URL('../../../../src/generation/locale/labels/', import.meta.url)).map((f) => f.replace(/\.ts$/, '')).sort()
    assert.deepEqual(files, [...LOCALES].sort())
    assert.equal(LOCALES.length, 33)
    for (const locale of LOCALES) assert.deepEqual(Object.keys(labelsOf(locale)).sort(), Object.keys(english).sort(), locale)
  })

  it('gives every label the placeholders of its English, and no empty label', () => {
    for (const locale of LOCALES) {
      for (const [key, text] of Object.entries(labelsOf(locale))) {
        assert.ok(text.trim() !== '', `${locale} ${key} is empty`)
        assert.deepEqual(placeholders(text), placeholders(english[key as keyof typeof english]), `${locale} ${key}: "${text}"`)
      }
    }
  })

  it('translates the words: a locale other than English repeats at most the labels its language writes as English does', () => {
    // "XP", "Level" and the quote's marks are how several languages write them too.
    const same = (locale: string): string[] => Object.entries(labelsOf(locale as never)).filter(([key, text]) => text === english[key as keyof typeof english]).map(([key]) => key)
    for (const locale of LOCALES.filter((l) => !l.startsWith('en-'))) {
      const repeated = same(locale).filter((key) => !/\.xp$|\.level$|^rank\.xp$|^quote\.|^leaderboard\.title$/.test(key))
      assert.deepEqual(repeated, [], locale)
    }
  })

  it('draws every label of every locale with a font that has each of its characters', () => {
    const registry = createFontRegistry({ emojiFile: emojiFontFile(path.join(temp, 'cache')) })
    const opened = new Map<string, fontkit.Font>()
    const fontOf = (family: string): fontkit.Font => {
      let font = opened.get(family)
      if (font === undefined) {
        const file = registry.info().find((f) => f.name === family)?.files[0]
        assert.ok(file, family)
        opened.set(family, font = fontkit.openSync(file) as fontkit.Font)
      }
      return font
    }
    const missing: string[] = []
    for (const locale of LOCALES) {
      for (const [key, text] of Object.entries(labelsOf(locale))) {
        const families = registry.family('Sans Serif', 'font', text).split(', ').map((f) => fontOf(f.replace(/^"|"$/g, '')))
        for (const ch of text.replace(/\{[^}]*\}/g, '')) {
          if (/\p{Default_Ignorable_Code_Point}/u.test(ch)) continue
          if (!families.some((font) => font.hasGlyphForCodePoint(ch.codePointAt(0)!))) missing.push(`${locale} ${key} U+${ch.codePointAt(0)!.toString(16)} ${ch}`)
        }
      }
    }
    assert.deepEqual(missing, [])
  })
})
