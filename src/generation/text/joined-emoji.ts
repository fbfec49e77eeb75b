// The ZWJ sequences the canvas library splits though the emoji font draws each as one
// glyph (docs/generation.md, "Scripts and emoji"). @napi-rs/canvas 1.1.1 (Skia's
// paragraph layout) cuts a run where a character presented as text by default (U+2764 ❤,
// U+26D3 ⛓, U+1F3F3 🏳) meets one presented as emoji (🔥), before shaping: ❤️‍🔥 drew as
// ❤️🔥, whichever font list was given. So the unpacked emoji font (emoji-font.ts) gets
// one more cmap entry per sequence: a code point of Supplementary Private Use Area-B that
// maps to the sequence's ligature glyph, found in the font's own GSUB table. The text is
// rewritten to those code points where it is measured and drawn (inline-text.ts), the
// one place every width, cut, wrap and initial goes through: the canvas then has one
// character, which no layout splits, and draws the font's glyph.
//
// test/unit/generation/text/script-coverage.test.ts draws every RGI sequence and fails on any that
// is split, so a sequence a font update adds to the split ones is found there; it also
// fails when the canvas alone stops splitting one of these, which can then go.
import { cmapRecords, type CmapRecord, format12Groups, subtableLength } from './cmap.js'

/** Fully qualified (with VS16), as emoji-test.txt lists them. */
export const SPLIT_SEQUENCES: readonly string[] = ['⛓️‍💥', '❤️‍🔥', '❤️‍🩹', '🏳️‍🌈']

/**
 * Their code points in the font: Plane 16's private use area, which neither the bundled
 * fonts nor Discord use (custom emoji placeholders take Plane 15, markup.ts).
 */
const FIRST_CODE_POINT = 0x100000
export const JOINED_CODE_POINTS: ReadonlyMap<string, number> = new Map(SPLIT_SEQUENCES.map((s, i) => [s, FIRST_CODE_POINT + i]))

const VS16 = '\uFE0F'
/** Each sequence with or without its VS16: a client may send either. */
const SEQUENCES = new RegExp(SPLIT_SEQUENCES.map((s) => [...s].map((ch) => ch === VS16 ? `${VS16}?` : ch).join('')).join('|'), 'gu')
/** The first character of every sequence: text without any is left as it is. */
const FIRSTS = new RegExp(`[${[...new Set(SPLIT_SEQUENCES.map((s) => [...s][0]!))].join('')}]`, 'u')
const BY_UNQUALIFIED = new Map(SPLIT_SEQUENCES.map((s, i) => [s.replaceAll(VS16, ''), String.fromCodePoint(FIRST_CODE_POINT + i)]))

// Set when the edited font is registered with the canvas (font-loading.ts), which is
// process-wide in @napi-rs/canvas. Without it (the cache could not be written and the
// WOFF2 is drawn) the code points would draw as boxes, so the text is left split.
let joinedFontRegistered = false

export function registerJoinedEmojiFont (): void {
  joinedFontRegistered = true
}

/**
 * `text` as the canvas must be given it: each split sequence as its one code point, when
 * the font that has them is registered. Joining joined text changes nothing. One of our
 * code points sent in a text draws as its emoji, as the sequence itself would.
 */
export function joinSplitEmoji (text: string): string {
  if (!joinedFontRegistered || !FIRSTS.test(text)) return text
  return text.replace(SEQUENCES, (m) => BY_UNQUALIFIED.get(m.replaceAll(VS16, ''))!)
}

// ---------------------------------------------------------------------------------------
// The font's tables (OpenType spec: "cmap", "GSUB" chapters). Offsets are as the spec
// gives them: 16-bit ones from the start of the structure that holds them. Reading the
// cmap's subtables is shared with the reader of the CJK fonts' code points (cmap.ts).

/** `cmap` with a format 12 entry for each sequence, mapped to the ligature glyph `gsub` makes of it. */
export function cmapWithJoinedSequences (cmap: Buffer, gsub: Buffer): Buffer {
  const records = cmapRecords(cmap)
  const unicode = records.find((r) => cmap.readUInt16BE(r.offset) === 12)
  if (unicode === undefined) throw new Error('the emoji font has no format 12 cmap subtable')
  const groups = format12Groups(cmap, unicode.offset)
  const glyphOf = (cp: number): number => {
    const group = groups.find(([start, end]) => cp >= start && cp <= end)
    return group === undefined ? 0 : group[2] + cp - group[0]
  }
  const added: Array<[number, number, number]> = []
  for (const [sequence, cp] of JOINED_CODE_POINTS) {
    if (glyphOf(cp) !== 0) throw new Error(`the emoji font already maps U+${cp.toString(16).toUpperCase()}`)
    // The font's ligatures leave VS16 out: it is not in its cmap, and shapers drop it.
    const components = [...sequence.replaceAll(VS16, '')].map((ch) => glyphOf(ch.codePointAt(0)!))
    const ligature = components.includes(0) ? undefined : findLigature(gsub, components)
    if (ligature === undefined) throw new Error(`the emoji font has no ligature for ${sequence}`)
    added.push([cp, cp, ligature])
  }
  const subtable = format12(cmap, unicode.offset, [...groups, ...added].sort((a, b) => a[0] - b[0]))
  return rebuildCmap(cmap, records, new Map([[unicode.offset, subtable]]))
}

function format12 (cmap: Buffer, offset: number, groups: Array<[number, number, number]>): Buffer {
  const out = Buffer.alloc(16 + groups.length * 12)
  out.writeUInt16BE(12, 0)
  out.writeUInt32BE(out.length, 4)
  out.writeUInt32BE(cmap.readUInt32BE(offset + 8), 8) // language
  out.writeUInt32BE(groups.length, 12)
  groups.forEach(([start, end, glyph], i) => {
    out.writeUInt32BE(start, 16 + i * 12)
    out.writeUInt32BE(end, 20 + i * 12)
    out.writeUInt32BE(glyph, 24 + i * 12)
  })
  return out
}

/** The cmap with some subtables replaced (by their old offset); records sharing a subtable still share it. */
function rebuildCmap (cmap: Buffer, records: CmapRecord[], replaced: Map<number, Buffer>): Buffer {
  const offsets = [...new Set(records.map((r) => r.offset))].sort((a, b) => a - b)
  const moved = new Map<number, number>()
  const parts: Buffer[] = []
  let at = 4 + records.length * 8
  for (const offset of offsets) {
    const body = replaced.get(offset) ?? cmap.subarray(offset, offset + subtableLength(cmap, offset))
    moved.set(offset, at)
    const pad = Buffer.alloc((4 - (body.length % 4)) % 4)
    parts.push(body, pad)
    at += body.length + pad.length
  }
  const head = Buffer.alloc(4 + records.length * 8)
  head.writeUInt16BE(cmap.readUInt16BE(0), 0)
  head.writeUInt16BE(records.length, 2)
  records.forEach((r, i) => {
    head.writeUInt16BE(r.platform, 4 + i * 8)
    head.writeUInt16BE(r.encoding, 6 + i * 8)
    head.writeUInt32BE(moved.get(r.offset)!, 8 + i * 8)
  })
  return Buffer.concat([head, ...parts])
}

const LIGATURE_SUBSTITUTION = 4
const EXTENSION_SUBSTITUTION = 7

/** The glyph a ligature substitution of `gsub` makes of exactly `components`, if one does. */
function findLigature (gsub: Buffer, components: number[]): number | undefined {
  const lookupList = gsub.readUInt16BE(8)
  for (let l = 0; l < gsub.readUInt16BE(lookupList); l++) {
    const lookup = lookupList + gsub.readUInt16BE(lookupList + 2 + l * 2)
    const type = gsub.readUInt16BE(lookup)
    for (let s = 0; s < gsub.readUInt16BE(lookup + 4); s++) {
      let subtable = lookup + gsub.readUInt16BE(lookup + 6 + s * 2)
      let subtype = type
      if (type === EXTENSION_SUBSTITUTION) {
        subtype = gsub.readUInt16BE(subtable + 2)
        subtable += gsub.readUInt32BE(subtable + 4)
      }
      if (subtype !== LIGATURE_SUBSTITUTION || gsub.readUInt16BE(subtable) !== 1) continue
      const index = coverageIndex(gsub, subtable + gsub.readUInt16BE(subtable + 2), components[0]!)
      if (index === undefined || index >= gsub.readUInt16BE(subtable + 4)) continue
      const set = subtable + gsub.readUInt16BE(subtable + 6 + index * 2)
      for (let g = 0; g < gsub.readUInt16BE(set); g++) {
        const ligature = set + gsub.readUInt16BE(set + 2 + g * 2)
        const count = gsub.readUInt16BE(ligature + 2)
        if (count !== components.length) continue
        let same = true
        for (let c = 1; c < count && same; c++) same = gsub.readUInt16BE(ligature + 2 + c * 2) === components[c]
        if (same) return gsub.readUInt16BE(ligature)
      }
    }
  }
  return undefined
}

function coverageIndex (gsub: Buffer, coverage: number, glyph: number): number | undefined {
  const format = gsub.readUInt16BE(coverage)
  const count = gsub.readUInt16BE(coverage + 2)
  for (let i = 0; i < count; i++) {
    if (format === 1 && gsub.readUInt16BE(coverage + 4 + i * 2) === glyph) return i
    if (format === 2) {
      const at = coverage + 4 + i * 6
      const start = gsub.readUInt16BE(at)
      if (glyph >= start && glyph <= gsub.readUInt16BE(at + 2)) return gsub.readUInt16BE(at + 4) + glyph - start
    }
  }
  return undefined
}
