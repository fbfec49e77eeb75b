// What the image converter reads and writes. Inputs are recognised from their bytes,
// never from a declared content type or file name (clients send application/octet-stream,
// image/*, or nothing: docs/compatibility.md, "Image uploads"), by the one table of
// signatures (src/images/sniff.ts).
import { imageName, sniffRefused } from '../../images/sniff.js'

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
  return imageName(REFUSED_NAMES[format] ?? format.toUpperCase())
}

/**
 * Names a few common formats sharp cannot read at all, from their first bytes
 * (src/images/sniff.ts), so the 415 answer says what was sent ("a BMP image") rather
 * than only what is accepted.
 */
export function unreadableName (bytes: Buffer): string | undefined {
  const format = sniffRefused(bytes)
  return format === undefined ? undefined : imageName(format)
}
