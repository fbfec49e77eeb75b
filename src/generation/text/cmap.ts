// A font's cmap table (OpenType spec, "cmap" chapter): the subtables joined-emoji.ts
// rewrites, and the code points a TrueType file maps, which scripts.ts asks for to add
// Noto Sans SC and TC to a text's font list only when Noto Sans JP lacks one of its
// characters. Offsets are as the spec gives them: from the start of the cmap table.
import fs from 'node:fs'

export interface CmapRecord { platform: number, encoding: number, offset: number }

export function cmapRecords (cmap: Buffer): CmapRecord[] {
  const records: CmapRecord[] = []
  for (let i = 0; i < cmap.readUInt16BE(2); i++) {
    const at = 4 + i * 8
    records.push({ platform: cmap.readUInt16BE(at), encoding: cmap.readUInt16BE(at + 2), offset: cmap.readUInt32BE(at + 4) })
  }
  return records
}

/** A subtable's length in bytes, from its own header (16-bit for the older formats). */
export function subtableLength (cmap: Buffer, offset: number): number {
  const format = cmap.readUInt16BE(offset)
  if (format === 14) return cmap.readUInt32BE(offset + 2)
  if (format >= 8) return cmap.readUInt32BE(offset + 4)
  return cmap.readUInt16BE(offset + 2)
}

/** [first code point, last code point, glyph of the first] of each group of a format 12 subtable. */
export function format12Groups (cmap: Buffer, offset: number): Array<[number, number, number]> {
  const groups: Array<[number, number, number]> = []
  const count = cmap.readUInt32BE(offset + 12)
  for (let i = 0; i < count; i++) {
    const at = offset + 16 + i * 12
    groups.push([cmap.readUInt32BE(at), cmap.readUInt32BE(at + 4), cmap.readUInt32BE(at + 8)])
  }
  return groups
}

/** The code points a font maps to a glyph (not to .notdef). */
export interface CodePoints {
  has (cp: number): boolean
  readonly size: number
}

/**
 * Adjacent code points make one range whatever their glyphs: Noto Sans JP's 16,732 code
 * points are 4,845 ranges, two Uint32Arrays of 38 KB in all, searched by bisection.
 */
function codePointRanges (): { add (cp: number, last?: number): void, done (): CodePoints } {
  const starts: number[] = []
  const ends: number[] = []
  let size = 0
  return {
    add (cp, last = cp) {
      size += last - cp + 1
      if (ends.length > 0 && ends[ends.length - 1] === cp - 1) ends[ends.length - 1] = last
      else { starts.push(cp); ends.push(last) }
    },
    done () {
      const first = Uint32Array.from(starts)
      const final = Uint32Array.from(ends)
      return {
        size,
        has (cp) {
          // The last range starting at or before cp.
          let low = 0
          let high = first.length - 1
          while (low <= high) {
            const mid = (low + high) >>> 1
            if (first[mid]! <= cp) low = mid + 1
            else high = mid - 1
          }
          return high >= 0 && cp <= final[high]!
        }
      }
    }
  }
}

/** Unicode subtables (platform 0, or Windows with encoding 1 or 10); a symbol font's (3, 0) maps no characters. */
const isUnicode = (r: CmapRecord): boolean => r.platform === 0 || (r.platform === 3 && (r.encoding === 1 || r.encoding === 10))

/**
 * The code points `cmap` maps, from its format 12 subtable (every plane), else its format
 * 4 one (the Basic Multilingual Plane); undefined when it has neither.
 */
export function mappedCodePoints (cmap: Buffer): CodePoints | undefined {
  const unicode = cmapRecords(cmap).filter(isUnicode)
  const full = unicode.find((r) => cmap.readUInt16BE(r.offset) === 12)
  if (full !== undefined) {
    const ranges = codePointRanges()
    // A group's first code point mapped to glyph 0 is .notdef's, which is no glyph.
    for (const [start, end, glyph] of format12Groups(cmap, full.offset).sort((a, b) => a[0] - b[0])) {
      if (glyph !== 0) ranges.add(start, end)
      else if (start < end) ranges.add(start + 1, end)
    }
    return ranges.done()
  }
  const bmp = unicode.find((r) => cmap.readUInt16BE(r.offset) === 4)
  return bmp === undefined ? undefined : format4CodePoints(cmap, bmp.offset)
}

/** Format 4: segments of code points, each glyph an offset (idDelta) or read from glyphIdArray (idRangeOffset). */
function format4CodePoints (cmap: Buffer, offset: number): CodePoints {
  const segments = cmap.readUInt16BE(offset + 6) / 2
  const endCodes = offset + 14
  const startCodes = endCodes + segments * 2 + 2
  const idDeltas = startCodes + segments * 2
  const idRangeOffsets = idDeltas + segments * 2
  const ranges = codePointRanges()
  for (let s = 0; s < segments; s++) {
    const start = cmap.readUInt16BE(startCodes + s * 2)
    const end = cmap.readUInt16BE(endCodes + s * 2)
    const delta = cmap.readUInt16BE(idDeltas + s * 2)
    const rangeOffset = cmap.readUInt16BE(idRangeOffsets + s * 2)
    // 0xFFFF ends the last segment and is no character.
    for (let cp = start; cp <= end && cp !== 0xffff; cp++) {
      let glyph: number
      if (rangeOffset === 0) glyph = (cp + delta) & 0xffff
      else {
        const at = idRangeOffsets + s * 2 + rangeOffset + (cp - start) * 2
        const stored = at + 2 <= cmap.length ? cmap.readUInt16BE(at) : 0
        glyph = stored === 0 ? 0 : (stored + delta) & 0xffff
      }
      if (glyph !== 0) ranges.add(cp)
    }
  }
  return ranges.done()
}

const SFNT_HEADER_BYTES = 12
const SFNT_ENTRY_BYTES = 16

/**
 * The table `tag` of the TrueType or OpenType file `file`, reading only the table
 * directory and that table (a CJK font is 5–10 MB, its cmap 0.1 MB); undefined when the
 * font has no such table. Throws when the file cannot be read or is no font.
 */
export function readSfntTable (file: string, tag: string): Buffer | undefined {
  const fd = fs.openSync(file, 'r')
  try {
    const readAt = (offset: number, length: number): Buffer => {
      const bytes = Buffer.alloc(length)
      if (fs.readSync(fd, bytes, 0, length, offset) !== length) throw new Error(`${file} ends before byte ${offset + length}`)
      return bytes
    }
    const header = readAt(0, SFNT_HEADER_BYTES)
    const version = header.readUInt32BE(0)
    // TrueType outlines, CFF ('OTTO'), or Apple's 'true'.
    if (version !== 0x00010000 && version !== 0x4f54544f && version !== 0x74727565) throw new Error(`${file} is not a TrueType or OpenType font`)
    const count = header.readUInt16BE(4)
    const directory = readAt(SFNT_HEADER_BYTES, count * SFNT_ENTRY_BYTES)
    for (let i = 0; i < count; i++) {
      const entry = i * SFNT_ENTRY_BYTES
      if (directory.toString('latin1', entry, entry + 4) !== tag) continue
      return readAt(directory.readUInt32BE(entry + 8), directory.readUInt32BE(entry + 12))
    }
    return undefined
  } finally {
    fs.closeSync(fd)
  }
}

/** The code points the font file `file` maps; undefined when its cmap cannot be read. */
export function fontCodePoints (file: string): CodePoints | undefined {
  try {
    const cmap = readSfntTable(file, 'cmap')
    return cmap === undefined ? undefined : mappedCodePoints(cmap)
  } catch {
    return undefined
  }
}
