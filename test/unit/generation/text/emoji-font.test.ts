// The colour emoji font unpacked to a mapped TrueType file (src/generation/text/emoji-font.ts).
// That it still draws in colour is guarded by the golden images, whose long-name case
// holds emoji; here: the unpacking itself, the code points added for the sequences the
// canvas splits (joined-emoji.ts), and the cache file's life.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { createCanvas, GlobalFonts } from '@napi-rs/canvas'
import * as fontkit from 'fontkit'
import { bundledEmojiFont, emojiFontFile, isJoinedEmojiFont, woffToSfnt } from '../../../../src/generation/text/emoji-font.js'
import { createDrawingFonts } from '../../../../src/generation/text/font-loading.js'
import { JOINED_CODE_POINTS, joinSplitEmoji } from '../../../../src/generation/text/joined-emoji.js'

const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-emoji-font-'))
after(() => fs.rmSync(temp, { recursive: true, force: true }))

/** OpenType's table checksum: the sum of the big-endian 32-bit words, zero-padded. */
function tableChecksum (data: Buffer): number {
  const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)])
  let sum = 0
  for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0
  return sum
}

function sfntTables (sfnt: Buffer): Map<string, { checksum: number, data: Buffer }> {
  const tables = new Map<string, { checksum: number, data: Buffer }>()
  for (let i = 0; i < sfnt.readUInt16BE(4); i++) {
    const entry = 12 + i * 16
    const offset = sfnt.readUInt32BE(entry + 8)
    tables.set(sfnt.toString('latin1', entry, entry + 4), { checksum: sfnt.readUInt32BE(entry + 4), data: sfnt.subarray(offset, offset + sfnt.readUInt32BE(entry + 12)) })
  }
  return tables
}

describe('the emoji font as TrueType', () => {
  const woff = fs.readFileSync(bundledEmojiFont().woff)

  it('unpacks every table but SVG, each matching the checksum the WOFF records for it (cmap, edited, its own)', () => {
    const tables = sfntTables(woffToSfnt(woff))
    const unedited = sfntTables(woffToSfnt(woff, undefined, {}))
    assert.ok(!tables.has('SVG '))
    for (const tag of ['COLR', 'CPAL', 'cmap', 'glyf', 'head', 'loca']) assert.ok(tables.has(tag), `no ${tag} table`)
    for (const [tag, table] of tables) {
      if (tag === 'head') continue // its checksum is taken with checkSumAdjustment as zero
      assert.equal(tableChecksum(table.data), table.checksum, `table ${tag}`)
      if (tag !== 'cmap') assert.ok(table.data.equals(unedited.get(tag)!.data), `table ${tag} was changed`)
    }
    assert.equal(woffToSfnt(woff, new Set()).length > woffToSfnt(woff).length, true)
  })

  it('maps a private code point to the glyph a shaper makes of each sequence the canvas splits, and every other one as before', () => {
    const edited = fontkit.create(woffToSfnt(woff)) as fontkit.Font
    const original = fontkit.create(woffToSfnt(woff, undefined, {})) as fontkit.Font
    for (const [sequence, cp] of JOINED_CODE_POINTS) {
      const { glyphs } = original.layout(sequence)
      assert.equal(glyphs.length, 1, `${sequence} is not one glyph of the font`)
      assert.equal(edited.glyphForCodePoint(cp).id, glyphs[0]!.id, sequence)
      assert.equal(original.glyphForCodePoint(cp).id, 0)
    }
    assert.deepEqual(edited.characterSet.filter((cp) => original.glyphForCodePoint(cp).id === 0).sort(), [...JOINED_CODE_POINTS.values()])
    for (const cp of original.characterSet) assert.equal(edited.glyphForCodePoint(cp).id, original.glyphForCodePoint(cp).id)
  })

  it('refuses a font without the ligatures', () => {
    // Without GSUB there is no ligature to map to: the cache is not written (the WOFF2 is drawn instead).
    assert.throws(() => woffToSfnt(woff, new Set(['SVG ', 'GSUB'])), /no GSUB table/)
  })

  it('refuses what is not a WOFF file, and a table directory past the end', () => {
    assert.throws(() => woffToSfnt(Buffer.from('not a font at all, but long enough to hold a header')), /not a WOFF/)
    assert.throws(() => woffToSfnt(woff.subarray(0, 60)), /past the end/)
  })

  it('is written to the cache once, and then reused', () => {
    const cache = path.join(temp, 'cache')
    const file = emojiFontFile(cache)
    assert.equal(path.dirname(file), cache)
    assert.ok(file.endsWith('.ttf') && isJoinedEmojiFont(file))
    const written = fs.statSync(file).mtimeMs
    fs.utimesSync(file, new Date(0), new Date(0))
    assert.ok(fs.readFileSync(file).equals(woffToSfnt(woff)), 'the file written table by table differs from the unpacking in memory')
    assert.equal(emojiFontFile(cache), file)
    assert.equal(fs.statSync(file).mtimeMs, 0, 'the cached file was written again')
    assert.ok(written > 0)
    assert.deepEqual(fs.readdirSync(cache), [path.basename(file)], 'a temporary file was left behind')
  })

  it('removes a file unpacked by another version (or before the joined sequences)', () => {
    const cache = path.join(temp, 'stale')
    fs.mkdirSync(cache)
    fs.writeFileSync(path.join(cache, 'noto-color-emoji-5.3.2.ttf'), 'old')
    fs.writeFileSync(path.join(cache, 'other.bin'), 'kept')
    const file = emojiFontFile(cache)
    assert.deepEqual(fs.readdirSync(cache).sort(), ['other.bin', path.basename(file)].sort())
  })

  it('falls back to the WOFF2 when the cache cannot be written', () => {
    const blocked = path.join(temp, 'a-file')
    fs.writeFileSync(blocked, '')
    assert.equal(emojiFontFile(path.join(blocked, 'cache')), bundledEmojiFont().woff2)
  })

  it('draws an emoji in colour from the unpacked file', () => {
    GlobalFonts.registerFromPath(emojiFontFile(path.join(temp, 'draw')), 'Emoji Font Test')
    const canvas = createCanvas(80, 80)
    const ctx = canvas.getContext('2d')
    ctx.font = '48px "Emoji Font Test"'
    ctx.fillStyle = '#000'
    ctx.fillText('🎉', 10, 60)
    const pixels = ctx.getImageData(0, 0, 80, 80).data
    let coloured = 0
    for (let i = 0; i < pixels.length; i += 4) if (pixels[i + 3]! > 0 && !(pixels[i] === pixels[i + 1] && pixels[i + 1] === pixels[i + 2])) coloured++
    assert.ok(coloured > 200, `${coloured} coloured pixels: the emoji was drawn in black, or not at all`)
  })
})

describe('joining the sequences the canvas splits', () => {
  // The font with the code points is registered by the drawing threads' loader (font-loading.ts).
  it('leaves text alone until the font that has the code points is registered, then joins each, with or without VS16', () => {
    const before = joinSplitEmoji('Ada ❤️‍🔥')
    createDrawingFonts({ dataDir: path.join(temp, 'joined') }).family(undefined, 'font', 'Ada')
    const fire = String.fromCodePoint(JOINED_CODE_POINTS.get('❤️‍🔥')!)
    const rainbow = String.fromCodePoint(JOINED_CODE_POINTS.get('🏳️‍🌈')!)
    assert.equal(before, 'Ada ❤️‍🔥')
    assert.equal(joinSplitEmoji('Ada ❤️‍🔥 ❤‍🔥 🏳️‍🌈!'), `Ada ${fire} ${fire} ${rainbow}!`)
    assert.equal(joinSplitEmoji(joinSplitEmoji('❤️‍🔥')), fire)
    for (const untouched of ['❤️ 🔥', '❤️🔥', '🏳️‍⚧️', '❤️‍', 'Ada']) assert.equal(joinSplitEmoji(untouched), untouched)
  })
})
