// The colour emoji font as a TrueType file the canvas maps from disk instead of holding
// in memory. @fontsource ships Noto Color Emoji as WOFF and WOFF2 only. Registered from
// the WOFF2, Skia unpacks all of it into each drawing thread's memory as soon as any
// text is drawn with the fallback chain; registered from a TrueType file it maps the file
// and reads only the glyphs it draws (docs/memory.md, "Fonts").
//
// So the WOFF (whose tables are zlib streams, which Node reads without a dependency) is
// unpacked once into DATA_DIR/cache/, leaving out the SVG table, most of the font: Skia
// draws the COLR table, never SVG. The other tables are copied byte for byte, with
// their checksums, but cmap, which gains the code points that stand for the ZWJ
// sequences the canvas splits (joined-emoji.ts). The font is OFL-1.1
// (assets/fonts/LICENSES.md), which allows this.
//
// The @fontsource package also ships eleven unicode-range subsets for browsers; Skia
// draws none of their glyphs in colour, so only the whole font is used.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { threadId } from 'node:worker_threads'
import zlib from 'node:zlib'
import { cmapWithJoinedSequences } from './joined-emoji.js'

const WOFF_SIGNATURE = 0x774f4646 // 'wOFF'
const WOFF_HEADER_BYTES = 44
const WOFF_ENTRY_BYTES = 20
const SFNT_ENTRY_BYTES = 16
/** Tables Skia never reads for drawing. */
const DROPPED_TABLES = new Set(['SVG '])

/** Reads `length` bytes at `offset` of the WOFF: a slice of a buffer, or a read of the file. */
type ReadAt = (offset: number, length: number) => Buffer

/** A table rewritten as it is unpacked, given the font's other tables by tag. */
type TableEdit = (table: Buffer, tableOf: (tag: string) => Buffer) => Buffer
const EDITS: Readonly<Record<string, TableEdit>> = {
  cmap: (cmap, tableOf) => cmapWithJoinedSequences(cmap, tableOf('GSUB'))
}

interface TablePlan { tag: string, checksum: number, length: number, unpack: () => Buffer }

/**
 * The sfnt header (table directory) for a WOFF 1.0 of `size` bytes, and each kept
 * table's unpacking, run only when asked: a writer holds one table at a time.
 */
function planSfnt (size: number, readAt: ReadAt, drop: ReadonlySet<string>, edits: Readonly<Record<string, TableEdit>>): { header: Buffer, tables: TablePlan[] } {
  const head = size >= WOFF_HEADER_BYTES ? readAt(0, WOFF_HEADER_BYTES) : Buffer.alloc(0)
  if (head.length < WOFF_HEADER_BYTES || head.readUInt32BE(0) !== WOFF_SIGNATURE) throw new Error('not a WOFF 1.0 file')
  const flavor = head.readUInt32BE(4)
  const count = head.readUInt16BE(12)
  if (WOFF_HEADER_BYTES + count * WOFF_ENTRY_BYTES > size) throw new Error('WOFF table directory runs past the end of the file')
  const directory = readAt(WOFF_HEADER_BYTES, count * WOFF_ENTRY_BYTES)
  const tables: TablePlan[] = []
  for (let i = 0; i < count; i++) {
    const entry = i * WOFF_ENTRY_BYTES
    const tag = directory.toString('latin1', entry, entry + 4)
    const offset = directory.readUInt32BE(entry + 4)
    const compressed = directory.readUInt32BE(entry + 8)
    const length = directory.readUInt32BE(entry + 12)
    const checksum = directory.readUInt32BE(entry + 16)
    if (drop.has(tag)) continue
    if (offset + compressed > size) throw new Error(`WOFF table ${tag} runs past the end of the file`)
    tables.push({
      tag,
      checksum,
      length,
      unpack () {
        const stored = readAt(offset, compressed)
        const data = compressed < length ? zlib.inflateSync(stored, { maxOutputLength: length }) : stored
        if (data.length !== length) throw new Error(`WOFF table ${tag} unpacks to ${data.length} bytes, not ${length}`)
        return data
      }
    })
  }
  // An edited table (small: cmap) is made now, for its length, and held until written.
  const tableOf = (tag: string): Buffer => {
    const table = tables.find((t) => t.tag === tag)
    if (table === undefined) throw new Error(`the font has no ${tag} table`)
    return table.unpack()
  }
  tables.forEach((table, i) => {
    const edit = edits[table.tag]
    if (edit === undefined) return
    const data = edit(table.unpack(), tableOf)
    tables[i] = { tag: table.tag, checksum: tableChecksum(data), length: data.length, unpack: () => data }
  })
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
  let offset = header.length
  tables.forEach((table, i) => {
    const entry = 12 + i * SFNT_ENTRY_BYTES
    header.write(table.tag, entry, 'latin1')
    header.writeUInt32BE(table.checksum, entry + 4)
    header.writeUInt32BE(offset, entry + 8)
    header.writeUInt32BE(table.length, entry + 12)
    offset += table.length + padding(table.length)
  })
  return { header, tables }
}

const padding = (length: number): number => (4 - (length % 4)) % 4

/** OpenType's table checksum: the sum of the big-endian 32-bit words, zero-padded. */
function tableChecksum (data: Buffer): number {
  const padded = Buffer.concat([data, Buffer.alloc(padding(data.length))])
  let sum = 0
  for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0
  return sum
}

/** The sfnt (TrueType/OpenType) bytes of a WOFF 1.0 file, without the tables in `drop`, with the edits of `edits`. */
export function woffToSfnt (woff: Buffer, drop: ReadonlySet<string> = DROPPED_TABLES, edits: Readonly<Record<string, TableEdit>> = EDITS): Buffer {
  const { header, tables } = planSfnt(woff.length, (offset, length) => woff.subarray(offset, offset + length), drop, edits)
  return Buffer.concat([header, ...tables.flatMap((table) => [table.unpack(), Buffer.alloc(padding(table.length))])])
}

/**
 * Writes the sfnt of the WOFF file `woffFile` to `target`, reading and unpacking one table
 * at a time: the process never holds the whole file, nor the whole result.
 */
function writeSfnt (woffFile: string, target: string): void {
  const input = fs.openSync(woffFile, 'r')
  let output: number | undefined
  try {
    const readAt: ReadAt = (offset, length) => {
      const bytes = Buffer.allocUnsafe(length)
      const read = fs.readSync(input, bytes, 0, length, offset)
      return bytes.subarray(0, read)
    }
    const { header, tables } = planSfnt(fs.fstatSync(input).size, readAt, DROPPED_TABLES, EDITS)
    const fd = output = fs.openSync(target, 'w')
    const write = (bytes: Buffer): void => {
      for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done)
    }
    write(header)
    for (const table of tables) {
      write(table.unpack())
      write(Buffer.alloc(padding(table.length)))
    }
  } finally {
    fs.closeSync(input)
    if (output !== undefined) fs.closeSync(output)
  }
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
 * The name the unpacked font is cached under ends so: the suffix is new with the joined
 * sequences' code points, so that a file unpacked before them is not taken for it.
 */
const JOINED_SUFFIX = '-joined.ttf'
const CACHED_FONT = /^noto-color-emoji-.*\.ttf$/

/** Whether `file` is the unpacked font, with the code points of the sequences the canvas splits (joined-emoji.ts). */
export function isJoinedEmojiFont (file: string): boolean {
  return file.endsWith(JOINED_SUFFIX)
}

/**
 * The TrueType file of the bundled emoji font in `cacheDir`, written on first call (by
 * whichever thread gets there first: each writes its own temporary file and renames it
 * into place), and the files of other versions removed. The server calls it once at start
 * (src/server.ts), so that no drawing thread carries the unpacking's garbage. Falls back
 * to the WOFF2, which draws the same at a higher memory cost but for the four sequences
 * the canvas splits (joined-emoji.ts), when the cache cannot be written.
 */
export function emojiFontFile (cacheDir: string): string {
  const font = bundledEmojiFont()
  const target = path.join(cacheDir, `noto-color-emoji-${font.version}${JOINED_SUFFIX}`)
  if (fs.existsSync(target)) return target
  const temporary = `${target}.${process.pid}-${threadId}.tmp`
  try {
    fs.mkdirSync(cacheDir, { recursive: true })
    writeSfnt(font.woff, temporary)
    fs.renameSync(temporary, target)
    for (const stale of fs.readdirSync(cacheDir).filter((f) => CACHED_FONT.test(f) && f !== path.basename(target))) {
      fs.rmSync(path.join(cacheDir, stale), { force: true })
    }
    return target
  } catch {
    try { fs.rmSync(temporary, { force: true }) } catch {}
    return font.woff2
  }
}

/** The emoji font's TrueType file in DATA_DIR/cache (see emojiFontFile). */
export function emojiFontInDataDir (dataDir: string): string {
  return emojiFontFile(path.join(dataDir, 'cache'))
}
