// Which font files a drawing thread loads (src/generation/text/fonts.ts): a bundled family on
// the first picture that asks for it, with its fallback chain; operators' fonts at once.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { fontCodePoints } from '../../../../src/generation/text/cmap.js'
import { BUNDLED_FAMILIES, createFontRegistry, EMOJI_FAMILY } from '../../../../src/generation/text/fonts.js'
import { fallbackChain, type FamilyCoverage } from '../../../../src/generation/text/scripts.js'

const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-fonts-'))
after(() => fs.rmSync(temp, { recursive: true, force: true }))

function recording (): { loaded: Array<[string, string]>, load: (file: string, family: string) => boolean } {
  const loaded: Array<[string, string]> = []
  return { loaded, load: (file, family) => { loaded.push([family, file]); return true } }
}

describe('font loading in the threads that draw', () => {
  it('loads no bundled family until a picture asks for one', () => {
    const { loaded, load } = recording()
    const registry = createFontRegistry({ load })
    assert.deepEqual(loaded, [])
    assert.ok(registry.names().includes('Lobster'), 'every family is listed all the same')
  })

  it('loads the family asked for and its fallback chain, each file once', () => {
    const { loaded, load } = recording()
    const registry = createFontRegistry({ load })
    assert.equal(registry.family('lobster'), '"Lobster", "Noto Sans", "Noto Sans JP", "Noto Color Emoji"')
    const families = [...new Set(loaded.map(([family]) => family))]
    assert.deepEqual(families, ['Lobster', 'Noto Sans', 'Noto Sans JP', EMOJI_FAMILY])
    const files = loaded.map(([, file]) => file)
    assert.equal(new Set(files).size, files.length, 'a file was loaded twice')
    assert.ok(files.every((file) => fs.existsSync(file)))

    registry.family('Lobster')
    registry.family('Sans Serif')
    assert.equal(loaded.length, files.length, 'asking again, or for a family of the chain, loaded more files')
    registry.family('Pacifico')
    assert.deepEqual([...new Set(loaded.slice(files.length).map(([family]) => family))], ['Pacifico'])
  })

  it('adds and loads a script\'s family only for a text that holds the script (issue 27)', () => {
    const { loaded, load } = recording()
    const registry = createFontRegistry({ load })
    const familiesLoaded = (): string[] => [...new Set(loaded.map(([family]) => family))]
    assert.equal(registry.family('Lobster', 'font', 'Ada Lovelace, Μαρία, Ёжик, Nguyễn'), '"Lobster", "Noto Sans", "Noto Sans JP", "Noto Color Emoji"')
    assert.deepEqual(familiesLoaded(), ['Lobster', 'Noto Sans', 'Noto Sans JP', EMOJI_FAMILY])
    // Hangul before Noto Sans JP, which has a few Hangul letters of its own.
    assert.equal(registry.family('Lobster', 'font', '김민준 สวัสดี'), '"Lobster", "Noto Sans", "Noto Sans KR", "Noto Sans Thai", "Noto Sans JP", "Noto Color Emoji"')
    assert.deepEqual(familiesLoaded().slice(4), ['Noto Sans KR', 'Noto Sans Thai'])
    // A Han character Noto Sans JP lacks (简; 体, 中 and 文 it has) comes from SC.
    assert.equal(registry.family(undefined, 'font', '简体中文'), '"Noto Sans", "Noto Sans JP", "Noto Sans SC", "Noto Color Emoji"')
    assert.equal(registry.family(undefined, 'font', 'محمد שלום नमस्ते'), '"Noto Sans", "Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans Devanagari", "Noto Sans JP", "Noto Color Emoji"')
    // Squared letters that the CJK fonts have as text glyphs: the emoji font goes first.
    assert.equal(registry.family(undefined, 'font', 'Team 🆎'), '"Noto Sans", "Noto Color Emoji", "Noto Sans JP"')
    const files = loaded.map(([, file]) => file)
    assert.equal(new Set(files).size, files.length, 'a file was loaded twice')
  })

  describe('Noto Sans SC and TC join only for a Han character the cuts before them lack (issue 24)', () => {
    const chainOf = (text: string): string => createFontRegistry().family(undefined, 'font', text)

    it('gives a text whose Han characters Noto Sans JP all has no SC or TC, and loads neither', () => {
      const { loaded, load } = recording()
      const registry = createFontRegistry({ load })
      assert.equal(registry.family('Lobster', 'font', 'Hello 世界 🎉'), '"Lobster", "Noto Sans", "Noto Sans JP", "Noto Color Emoji"')
      assert.equal(registry.family(undefined, 'font', '中文 日本語 體'), '"Noto Sans", "Noto Sans JP", "Noto Color Emoji"')
      assert.deepEqual([...new Set(loaded.map(([family]) => family))], ['Lobster', 'Noto Sans', 'Noto Sans JP', EMOJI_FAMILY])
    })

    it('adds SC, not TC, for simplified characters Noto Sans JP lacks', () => {
      assert.equal(chainOf('我们说汉语'), '"Noto Sans", "Noto Sans JP", "Noto Sans SC", "Noto Color Emoji"')
      // Cantonese 咗 and 啲: SC has them too, and comes first.
      assert.equal(chainOf('食咗飯啲'), '"Noto Sans", "Noto Sans JP", "Noto Sans SC", "Noto Color Emoji"')
    })

    it('adds TC, not SC, for a character only TC has (Hong Kong characters of CJK Extension B)', () => {
      assert.equal(chainOf('𨋢 世界'), '"Noto Sans", "Noto Sans JP", "Noto Sans TC", "Noto Color Emoji"')
      assert.equal(chainOf('简 𨋢'), '"Noto Sans", "Noto Sans JP", "Noto Sans SC", "Noto Sans TC", "Noto Color Emoji"')
    })

    it('draws Bopomofo with Noto Sans JP, which has all of it', () => {
      assert.equal(chainOf('ㄅㄆㄇㄈ ㄓㄨˋㄧㄣ'), '"Noto Sans", "Noto Sans JP", "Noto Color Emoji"')
    })

    it('keeps Korean before Noto Sans JP, and the enclosed emoji before the CJK fonts', () => {
      assert.equal(chainOf('김민준 们'), '"Noto Sans", "Noto Sans KR", "Noto Sans JP", "Noto Sans SC", "Noto Color Emoji"')
      assert.equal(chainOf('🈁 们'), '"Noto Sans", "Noto Color Emoji", "Noto Sans JP", "Noto Sans SC"')
    })

    it('adds both, as before, when a font\'s code points cannot be read: a font loaded for nothing, never a box', () => {
      const unreadable: FamilyCoverage = () => undefined
      assert.deepEqual(fallbackChain('世界', unreadable), ['Noto Sans', 'Noto Sans JP', 'Noto Sans SC', 'Noto Sans TC', EMOJI_FAMILY])
      assert.deepEqual(fallbackChain('世界'), ['Noto Sans', 'Noto Sans JP', 'Noto Sans SC', 'Noto Sans TC', EMOJI_FAMILY])
      // JP readable, SC not: a character JP lacks brings both.
      const jpOnly: FamilyCoverage = (family) => family === 'Noto Sans JP' ? { has: (cp) => cp === 0x4e16 } : undefined
      assert.deepEqual(fallbackChain('世', jpOnly), ['Noto Sans', 'Noto Sans JP', EMOJI_FAMILY])
      assert.deepEqual(fallbackChain('们', jpOnly), ['Noto Sans', 'Noto Sans JP', 'Noto Sans SC', 'Noto Sans TC', EMOJI_FAMILY])
      const file = path.join(temp, 'not-a-font.ttf')
      fs.writeFileSync(file, 'no font')
      assert.equal(fontCodePoints(file), undefined)
      assert.equal(fontCodePoints(path.join(temp, 'missing.ttf')), undefined)
    })

    it('reads no cmap for a text without Han or Bopomofo', () => {
      const asked: string[] = []
      const coverage: FamilyCoverage = (family) => { asked.push(family); return undefined }
      assert.deepEqual(fallbackChain('Ada Lovelace, カタカナ, 김민준', coverage), ['Noto Sans', 'Noto Sans KR', 'Noto Sans JP', EMOJI_FAMILY])
      assert.deepEqual(asked, [])
    })
  })

  it('refuses an unknown name without loading anything', () => {
    const { loaded, load } = recording()
    const registry = createFontRegistry({ load })
    assert.throws(() => registry.family('Comic Sans MS'), /Unknown font "Comic Sans MS"/)
    assert.deepEqual(loaded, [])
  })

  it('loads an operator\'s fonts at once, and lists only those that load', () => {
    const dir = path.join(temp, 'fonts')
    fs.mkdirSync(dir)
    fs.writeFileSync(path.join(dir, 'House-Bold.ttf'), 'a font')
    fs.writeFileSync(path.join(dir, 'Broken.ttf'), 'no font')
    const loaded: string[] = []
    const registry = createFontRegistry({ operatorDir: dir, load: (file) => { loaded.push(path.basename(file)); return !file.endsWith('Broken.ttf') } })
    assert.deepEqual(loaded.sort(), ['Broken.ttf', 'House-Bold.ttf'])
    assert.ok(registry.names().includes('House'))
    assert.ok(!registry.names().includes('Broken'))
    assert.equal(BUNDLED_FAMILIES.some((f) => f.name === 'House'), false)
  })
})
