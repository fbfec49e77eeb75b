// The colour emoji font as a TrueType file the canvas maps from disk instead of holding
// in memory. @fontsource ships Noto Color Emoji as WOFF and WOFF2 only. Registered from
// the WOFF2, Skia unpacks all 25 MB of it into each drawing thread's memory as soon as
// any text is drawn with the fallback chain (about 60 MB of RSS per thread); registered
// from a TrueType file it maps the file and reads only the glyphs it draws (about 6 MB).
//
// So the WOFF (whose tables are zlib streams, which Node reads without a dependency) is
// unpacked once into DATA_DIR/cache/, leaving out the SVG table: 20 of the 25 MB, and
// Skia draws the COLR table, never SVG. The other tables are copied byte for byte, with
// their checksums. The font is OFL-1.1 (assets/fonts/LICENSES.md), which allows this.
//
// The @fontsource package also ships eleven unicode-range subsets for browsers; Skia
// draws none of their glyphs in colour, so only the whole font is used.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { threadId } from 'node:worker_threads'
import zlib from 'node:zlib'

const WOFF_SIGNATURE = 0x774f4646 // 'wOFF'
const WOFF_HEADER_BYTES = 44
const WOFF_ENTRY_BYTES = 20
const SFNT_ENTRY_BYTES = 16
/** Tables Skia never reads for drawing. */
const DROPPED_TABLES = new Set(['SVG '])

interface Table { tag: string, checksum: number, data: Buffer }

/** The sfnt (TrueType/OpenType) bytes of a WOFF 1.0 file, without the tables in `drop`. */
export function woffToSfnt (woff: Buffer, drop: ReadonlySet<string> = DROPPED_TABLES): Buffer {
  if (woff.length < WOFF_HEADER_BYTES || woff.readUInt32BE(0) !== WOFF_SIGNATURE) throw new Error('not a WOFF 1.0 file')
  const flavor = woff.readUInt32BE(4)
  const count = woff.readUInt16BE(12)
  if (WOFF_HEADER_BYTES + count * WOFF_ENTRY_BYTES > woff.length) throw new Error('WOFF table directory runs past the end of the file')
  const tables: Table[] = []
  for (let i = 0; i < count; i++) {
    const entry = WOFF_HEADER_BYTES + i * WOFF_ENTRY_BYTES
    const tag = woff.toString('latin1', entry, entry + 4)
    const offset = woff.readUInt32BE(entry + 4)
    const compressed = woff.readUInt32BE(entry + 8)
    const length = woff.readUInt32BE(entry + 12)
    const checksum = woff.readUInt32BE(entry + 16)
    if (drop.has(tag)) continue
    if (offset + compressed > woff.length) throw new Error(`WOFF table ${tag} runs past the end of the file`)
    const stored = woff.subarray(offset, offset + compressed)
    const data = compressed < length ? zlib.inflateSync(stored, { maxOutputLength: length }) : stored
    if (data.length !== length) throw new Error(`WOFF table ${tag} unpacks to ${data.length} bytes, not ${length}`)
    tables.push({ tag, checksum, data })
  }
  // The sfnt header: the binary-search fields of the OpenType table directory.
  let selector = 0
  while (2 ** (selector + 1) <= tables.length) selector++
  const searchRange = 2 ** selector * SFNT_ENTRY_BYTES
  const header = Buffer.alloc(12 + tables.length * SFNT_ENTRY_BYTES)
  header.writeUInt32BE(flavor, 0)
  header.writeUInt16BE(tables.length, 4)
  header.writeUInt16BE(searchRange, 6)
  header.writeUInt16BE(selector, 8)
  header.writeUInt16BE(tables.length * SFNT_ENTRY_BYTES - searchRange, 10)
  const parts: Buffer[] = [header]
  let offset = header.length
  tables.forEach((table, i) => {
    const entry = 12 + i * SFNT_ENTRY_BYTES
    header.write(table.tag, entry, 'latin1')
    header.writeUInt32BE(table.checksum, entry + 4)
    header.writeUInt32BE(offset, entry + 8)
    header.writeUInt32BE(table.data.length, entry + 12)
    const padding = (4 - (table.data.length % 4)) % 4
    parts.push(table.data, Buffer.alloc(padding))
    offset += table.data.length + padding
  })
  return Buffer.concat(parts)
}

/** The WOFF2 and WOFF files of the whole font (not the browser subsets) in @fontsource/noto-color-emoji. */
export function bundledEmojiFont (): { woff2: string, woff: string, version: string } {
  const require = createRequire(import.meta.url)
  const manifest = require.resolve('@fontsource/noto-color-emoji/package.json')
  const files = path.join(path.dirname(manifest), 'files')
  const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }
  return {
    woff2: path.join(files, 'noto-color-emoji-emoji-400-normal.woff2'),
    woff: path.join(files, 'noto-color-emoji-emoji-400-normal.woff'),
    version
  }
}

/**
 * The TrueType file of the bundled emoji font in `cacheDir`, written on first call (by
 * whichever thread gets there first: each writes its own temporary file and renames it
 * into place). Falls back to the WOFF2, which draws the same at a higher memory cost,
 * when the cache cannot be written.
 */
export function emojiFontFile (cacheDir: string): string {
  const font = bundledEmojiFont()
  const target = path.join(cacheDir, `noto-color-emoji-${font.version}.ttf`)
  if (fs.existsSync(target)) return target
  const temporary = `${target}.${process.pid}-${threadId}.tmp`
  try {
    fs.mkdirSync(cacheDir, { recursive: true })
    fs.writeFileSync(temporary, woffToSfnt(fs.readFileSync(font.woff)))
    fs.renameSync(temporary, target)
    return target
  } catch {
    try { fs.rmSync(temporary, { force: true }) } catch {}
    return font.woff2
  }
}
