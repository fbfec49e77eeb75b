// The one table of image signatures: what a source's first bytes announce, read before
// libvips sees them. libvips picks its loader from the content, not from a declared type,
// so anything handed to it is parsed, at least to read its header: an SVG by librsvg
// (entities, external references, a viewBox of any size), a PDF by poppler. Only the
// readable formats below are ever handed to libvips; the others are named here so that a
// refusal can say what was sent ("an SVG image") rather than only what is accepted.
// Which of the readable formats a caller takes is the caller's (conversion reads TIFF,
// operator assets do not): this table only tells them apart.

/** Containers libvips reads for us. AVIF and HEIC share HEIF's; the header's compression tells them apart. */
export type ReadableFormat = 'JPEG' | 'PNG' | 'WebP' | 'GIF' | 'TIFF' | 'HEIF'
/** Formats recognised only to be named in a refusal. */
export type RefusedFormat = 'BMP' | 'ICO' | 'PSD' | 'PDF' | 'HEIC' | 'video' | 'SVG'
export type SniffedFormat = ReadableFormat | RefusedFormat

export interface Sniffed {
  format: SniffedFormat
  /**
   * Whether libvips may be handed these bytes: a readable format, announced by at least
   * MIN_READABLE_BYTES. False for a refused format, and for a readable signature in a
   * shorter input (libvips answers those as corrupt rather than as not an image).
   */
  readable: boolean
}

/**
 * Fewer bytes than this are never handed to libvips: the longest readable signature
 * (WebP's RIFF…WEBP, HEIF's ftyp brand) needs 12, and no image of any readable format is
 * as short (a GIF of one pixel is 35 bytes).
 */
export const MIN_READABLE_BYTES = 12

const HEIF_BRANDS = ['avif', 'avis', 'mif1', 'msf1']
const HEIC_BRANDS = ['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1']
const VIDEO_BRANDS = ['isom', 'mp41', 'mp42', 'avc1', 'M4V ', 'qt  ']

function ascii (bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1', start, Math.min(end, bytes.length))
}

function u16 (bytes: Uint8Array, at: number, littleEndian: boolean): number {
  return littleEndian ? bytes[at]! | (bytes[at + 1]! << 8) : (bytes[at]! << 8) | bytes[at + 1]!
}

/**
 * In order: readable formats first, so that a HEIF brand both could hold (mif1, msf1) is
 * tried by libvips, whose header then says AV1 or HEVC. Each test runs only when the
 * input holds `length` bytes.
 */
const SIGNATURES: ReadonlyArray<{ format: SniffedFormat, length: number, test: (bytes: Uint8Array) => boolean }> = [
  { format: 'JPEG', length: 3, test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { format: 'PNG', length: 8, test: (b) => ascii(b, 0, 8) === '\x89PNG\r\n\x1a\n' },
  { format: 'WebP', length: 12, test: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' },
  { format: 'GIF', length: 6, test: (b) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a' },
  // Classic TIFF (42) and BigTIFF (43), either byte order.
  {
    format: 'TIFF',
    length: 4,
    test: (b) => {
      const order = ascii(b, 0, 2)
      if (order !== 'II' && order !== 'MM') return false
      const version = u16(b, 2, order === 'II')
      return version === 42 || version === 43
    }
  },
  { format: 'HEIF', length: 12, test: (b) => ascii(b, 4, 8) === 'ftyp' && HEIF_BRANDS.includes(ascii(b, 8, 12)) },
  // A bitmap file header is 14 bytes.
  { format: 'BMP', length: 14, test: (b) => ascii(b, 0, 2) === 'BM' },
  { format: 'ICO', length: 4, test: (b) => b[0] === 0 && b[1] === 0 && b[2] === 1 && b[3] === 0 },
  { format: 'PSD', length: 4, test: (b) => ascii(b, 0, 4) === '8BPS' },
  { format: 'PDF', length: 5, test: (b) => ascii(b, 0, 5) === '%PDF-' },
  { format: 'HEIC', length: 12, test: (b) => ascii(b, 4, 8) === 'ftyp' && HEIC_BRANDS.includes(ascii(b, 8, 12)) },
  { format: 'video', length: 12, test: (b) => ascii(b, 4, 8) === 'ftyp' && VIDEO_BRANDS.includes(ascii(b, 8, 12)) },
  // Markup (after a byte-order mark, blanks, an XML prolog, comments or a doctype) with an <svg element early on.
  {
    format: 'SVG',
    length: 1,
    test: (b) => {
      const head = ascii(b, 0, 4096).replace(/^\xef\xbb\xbf/, '').trimStart().toLowerCase()
      return head.startsWith('<') && head.includes('<svg')
    }
  }
]

export const READABLE_FORMATS: ReadonlySet<SniffedFormat> = new Set<ReadableFormat>(['JPEG', 'PNG', 'WebP', 'GIF', 'TIFF', 'HEIF'])

/** What the first bytes announce, or undefined when they match no signature. */
export function sniff (bytes: Uint8Array): Sniffed | undefined {
  const row = SIGNATURES.find((s) => bytes.length >= s.length && s.test(bytes))
  if (row === undefined) return undefined
  return { format: row.format, readable: READABLE_FORMATS.has(row.format) && bytes.length >= MIN_READABLE_BYTES }
}

/**
 * The refused format the first bytes announce, if any: what to name when libvips itself
 * found no loader (a HEIF brand shared with HEIC is then HEIC).
 */
export function sniffRefused (bytes: Uint8Array): RefusedFormat | undefined {
  return SIGNATURES.find((s) => !READABLE_FORMATS.has(s.format) && bytes.length >= s.length && s.test(bytes))?.format as RefusedFormat | undefined
}

/** "an SVG image", "a PNG image", "a video": a format as a refusal names it. */
export function imageName (format: string): string {
  if (format === 'video') return 'a video'
  // Letters read with a vowel sound: "an SVG", "an HEIC", "a PNG".
  return `${/^[AEFHILMNORSX]/.test(format) ? 'an' : 'a'} ${format} image`
}
