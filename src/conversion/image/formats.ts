// What the image converter reads and writes. Inputs are recognised from their bytes,
// never from a declared content type or file name (clients send application/octet-stream,
// image/*, or nothing: docs/compatibility.md, "Image uploads").

export type OutputFormat = 'png' | 'jpeg' | 'webp'

export const OUTPUT_MIME: Record<OutputFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp'
}

/**
 * Default quality of each output when the request gives none (docs/image-conversion.md):
 * JPEG and WebP 80 (libjpeg's and libwebp's own balanced default); PNG is lossless
 * unless a quality below 100 asks for palette quantisation.
 */
export const DEFAULT_QUALITY: Record<OutputFormat, number | undefined> = {
  jpeg: 80,
  webp: 80,
  png: undefined
}

/** Input formats accepted, by the name sharp's metadata gives them, with a name people know. */
export const ACCEPTED_INPUTS = ['JPEG', 'PNG', 'WebP', 'GIF', 'AVIF', 'TIFF'] as const
export type InputFormat = typeof ACCEPTED_INPUTS[number]

/**
 * Lossless PNG settings for an input. A JPEG or AVIF is a photo, whose noisy pixels
 * adaptive row filtering about halves in PNG; on flat graphics (what PNG, GIF, WebP and
 * TIFF inputs mostly hold) the same filtering makes the file larger, so they keep sharp's
 * defaults (the figures: docs/image-conversion.md, "Performance").
 */
export function losslessPngOptions (input: InputFormat): { adaptiveFiltering: boolean, compressionLevel: number } {
  return input === 'JPEG' || input === 'AVIF'
    ? { adaptiveFiltering: true, compressionLevel: 4 }
    : { adaptiveFiltering: false, compressionLevel: 6 }
}

/** Formats that can hold several frames played as an animation. */
export const ANIMATED_INPUTS: ReadonlySet<InputFormat> = new Set(['GIF', 'WebP'])

/** sharp metadata (format, compression) → accepted input, or undefined when refused. */
export function acceptedInput (format: string | undefined, compression: string | undefined): InputFormat | undefined {
  switch (format) {
    case 'jpeg': return 'JPEG'
    case 'png': return 'PNG'
    case 'webp': return 'WebP'
    case 'gif': return 'GIF'
    case 'tiff': return 'TIFF'
    // HEIF containers hold AV1 (AVIF) or HEVC (HEIC); the bundled libheif decodes AV1 only.
    case 'heif': return compression === 'av1' ? 'AVIF' : undefined
    default: return undefined
  }
}

/**
 * The accepted container an input's first bytes announce, or undefined. Checked before
 * sharp sees the bytes: libvips picks its loader from the content, so anything else
 * (SVG above all, parsed by librsvg with its entities and its viewBox, or PDF) would be
 * parsed while reading the header. AVIF and HEIC share the HEIF container; the brand
 * decides what is clearly HEIC, and the header's compression the rest (acceptedInput).
 */
export function sniffAccepted (bytes: Buffer): 'JPEG' | 'PNG' | 'WebP' | 'GIF' | 'TIFF' | 'HEIF' | undefined {
  if (bytes.length < 12) return undefined
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'JPEG'
  if (bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a) return 'PNG'
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString('latin1')
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'WebP'
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'GIF'
  // Classic TIFF (42) and BigTIFF (43), either byte order.
  const tiff = ascii(0, 2)
  if ((tiff === 'II' && (bytes.readUInt16LE(2) === 42 || bytes.readUInt16LE(2) === 43)) ||
      (tiff === 'MM' && (bytes.readUInt16BE(2) === 42 || bytes.readUInt16BE(2) === 43))) return 'TIFF'
  if (ascii(4, 8) === 'ftyp' && ['avif', 'avis', 'mif1', 'msf1'].includes(ascii(8, 12))) return 'HEIF'
  return undefined
}

/** sharp format names of inputs it may read but we refuse, with the reason shown to users. */
const REFUSED_NAMES: Record<string, string> = {
  svg: 'SVG',
  heif: 'HEIC',
  jp2k: 'JPEG 2000',
  jxl: 'JPEG XL',
  pdf: 'PDF',
  vips: 'VIPS',
  raw: 'raw pixels',
  ppm: 'PPM',
  fits: 'FITS',
  rad: 'Radiance HDR',
  magick: 'ImageMagick',
  openslide: 'OpenSlide'
}

/** "an SVG image": what a refused input is, for the 415 message. */
export function refusedName (format: string): string {
  return withArticle(REFUSED_NAMES[format] ?? format.toUpperCase())
}

function withArticle (name: string): string {
  // Letters read with a vowel sound: "an SVG", "an HEIC", "a PNG".
  return `${/^[AEFHILMNORSX]/.test(name) ? 'an' : 'a'} ${name} image`
}

/**
 * Names a few common formats sharp cannot read at all, from their first bytes, so the
 * 415 answer says what was sent ("a BMP image") rather than only what is accepted.
 */
export function sniffUnreadable (bytes: Buffer): string | undefined {
  const name = sniffName(bytes)
  return name === undefined || name.startsWith('a ') ? name : withArticle(name)
}

function sniffName (bytes: Buffer): string | undefined {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString('latin1')
  if (bytes.length >= 14 && ascii(0, 2) === 'BM') return 'BMP'
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x00000100) return 'ICO'
  if (ascii(0, 4) === '8BPS') return 'PSD'
  if (ascii(0, 5) === '%PDF-') return 'PDF'
  if (bytes.length >= 12 && ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12)
    if (['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1'].includes(brand)) return 'HEIC'
    if (['isom', 'mp41', 'mp42', 'avc1', 'M4V ', 'qt  '].includes(brand)) return 'a video'
  }
  // Markup (after a byte-order mark, blanks, an XML prolog, comments or a doctype) with an <svg element early on.
  const head = bytes.subarray(0, 4096).toString('latin1').replace(/^\xef\xbb\xbf/, '').trimStart().toLowerCase()
  if (head.startsWith('<') && head.includes('<svg')) return 'SVG'
  return undefined
}
