// The colour emoji font unpacked to a mapped TrueType file (src/generation/emoji-font.ts).
// That it still draws in colour is guarded by the golden images, whose long-name case
// holds emoji; here: the unpacking itself, and the cache file's life.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { createCanvas, GlobalFonts } from '@napi-rs/canvas'
import { bundledEmojiFont, emojiFontFile, woffToSfnt } from '../../src/generation/emoji-font.js'

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

  it('unpacks every table but SVG, each matching the checksum the WOFF records for it', () => {
    const tables = sfntTables(woffToSfnt(woff))
    assert.ok(!tables.has('SVG '))
    for (const tag of ['COLR', 'CPAL', 'cmap', 'glyf', 'head', 'loca']) assert.ok(tables.has(tag), `no ${tag} table`)
    for (const [tag, table] of tables) {
      if (tag === 'head') continue // its checksum is taken with checkSumAdjustment as zero
      assert.equal(tableChecksum(table.data), table.checksum, `table ${tag}`)
    }
    assert.equal(woffToSfnt(woff, new Set()).length > woffToSfnt(woff).length, true)
  })

  it('refuses what is not a WOFF file, and a table directory past the end', () => {
    assert.throws(() => woffToSfnt(Buffer.from('not a font at all, but long enough to hold a header')), /not a WOFF/)
    assert.throws(() => woffToSfnt(woff.subarray(0, 60)), /past the end/)
  })

  it('is written to the cache once, and then reused', () => {
    const cache = path.join(temp, 'cache')
    const file = emojiFontFile(cache)
    assert.equal(path.dirname(file), cache)
    assert.ok(file.endsWith('.ttf'))
    const written = fs.statSync(file).mtimeMs
    fs.utimesSync(file, new Date(0), new Date(0))
    assert.ok(fs.readFileSync(file).equals(woffToSfnt(woff)), 'the file written table by table differs from the unpacking in memory')
    assert.equal(emojiFontFile(cache), file)
    assert.equal(fs.statSync(file).mtimeMs, 0, 'the cached file was written again')
    assert.ok(written > 0)
    assert.deepEqual(fs.readdirSync(cache), [path.basename(file)], 'a temporary file was left behind')
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
