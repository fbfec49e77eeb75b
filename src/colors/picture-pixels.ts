// A picture's pixels for its colours: the source-image gate (src/images/: sniffed, header
// read, COLOR_IMAGE_LIMITS checked) before libvips decodes anything, then one decode of
// the first frame, shrunk to fit 100×100 (JPEG and WebP shrink while they load), in sRGB
// with an alpha channel, sampled (the nearest source pixel) rather than filtered: a
// filter's mixing and overshoot at every edge would add colours the picture does not
// have (a red and blue flag came out with 1% slivers of #f1000e and #0e00f1 under
// lanczos3), while samples are the picture's own colours, each share an unbiased
// estimate of its area. (JPEG and WebP still shrink by averaging while they load.) The colours of 10,000 pixels are those of the picture to within
// a rounding of the shares; and ThumbHash takes at most 100×100.
import sharp from 'sharp'
import { AppError } from '../errors.js'
import { readHeader, type SourceHeader } from '../images/header.js'
import { checkSource, COLOR_IMAGE_LIMITS } from '../images/limits.js'
import { imageName, sniff, sniffRefused } from '../images/sniff.js'
import { MAX_THUMBHASH_SIDE, type Pixels } from './picture-colors.js'

/** What the colours of a picture read: sharp's names (AVIF is HEIF with AV1). */
export const PICTURE_FORMATS = 'PNG, JPEG, WebP, GIF, AVIF or TIFF'
const FORMATS = new Set(['png', 'jpeg', 'webp', 'gif', 'tiff'])

/** libvips counts whole seconds: a decode of one shrunk frame takes milliseconds, so a second is far more than any honest file needs. */
export const DECODE_TIMEOUT_SECONDS = 2

export interface PictureHeader {
  width: number
  /** Of the first frame. */
  height: number
}

function unsupported (sent: string | undefined): AppError {
  const what = sent === undefined ? 'The body is not an image' : `The body is ${sent}, which this endpoint does not read`
  return new AppError('IMAGE_UNSUPPORTED_FORMAT', `${what}: send a ${PICTURE_FORMATS} picture as the body, or its address as the url query parameter`)
}

/** The gate: throws the refusal (415 not an image, 400 corrupt or too large) before any pixel is decoded. */
export async function checkPicture (bytes: Buffer): Promise<PictureHeader> {
  const sniffed = sniff(bytes)
  if (sniffed?.readable !== true) throw unsupported(sniffed === undefined ? undefined : imageName(sniffed.format))
  let header: SourceHeader
  try {
    header = await readHeader(bytes, { failOn: 'error' })
  } catch (err) {
    if (/unsupported image format/i.test((err as Error).message)) {
      const refused = sniffRefused(bytes)
      throw unsupported(refused === undefined ? undefined : imageName(refused))
    }
    throw new AppError('IMAGE_INVALID', 'The image could not be read: its header is truncated or corrupt', { cause: err })
  }
  const format = header.format === 'heif' && header.compression === 'av1' ? 'avif' : header.format
  if (format === undefined || (format !== 'avif' && !FORMATS.has(format))) throw unsupported(format === 'heif' ? 'an HEIC image' : undefined)
  const { width, height } = header
  // The first frame only is decoded: an animation's other frames cost nothing.
  const check = checkSource({ width, height, frames: 1 }, COLOR_IMAGE_LIMITS)
  if (!check.ok) {
    if (check.limit === 'size') throw new AppError('IMAGE_INVALID', 'The image declares no width or height: the file is corrupt')
    throw new AppError('IMAGE_TOO_MANY_PIXELS',
      `The image declares ${width}×${height} = ${check.value} pixels; this endpoint reads at most ${check.max}: send a smaller picture`,
      { details: { pixels: check.value, maxPixels: check.max } })
  }
  return { width, height }
}

/** The size a picture of `header` is decoded to: inside 100×100, never enlarged. */
export function decodedSize (header: PictureHeader): PictureHeader {
  const scale = Math.min(1, MAX_THUMBHASH_SIDE / Math.max(header.width, header.height))
  return { width: Math.max(1, Math.round(header.width * scale)), height: Math.max(1, Math.round(header.height * scale)) }
}

/**
 * libvips' working memory for the decode, estimated: the shrunk picture, and the source
 * rows it keeps while shrinking (a window of about two output rows' worth of source rows).
 */
export function decodeBytes (header: PictureHeader): number {
  const rowsPerOutputRow = Math.ceil(header.height / decodedSize(header).height)
  return 1024 * 1024 + header.width * 4 * rowsPerOutputRow * 2
}

/** Decodes a picture that passed checkPicture: the first frame, shrunk into 100×100, RGBA. */
export async function decodePicture (bytes: Buffer, header: PictureHeader): Promise<Pixels> {
  try {
    const { data, info } = await sharp(bytes, { failOn: 'error', limitInputPixels: COLOR_IMAGE_LIMITS.maxFramePixels })
      .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
      .rotate()
      .resize(MAX_THUMBHASH_SIDE, MAX_THUMBHASH_SIDE, { fit: 'inside', withoutEnlargement: true, kernel: 'nearest' })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
    return { width: info.width, height: info.height, rgba: new Uint8Array(data.buffer, data.byteOffset, data.length) }
  } catch (err) {
    if (/timeout/i.test((err as Error).message)) throw new AppError('IMAGE_TIMEOUT', `Decoding the picture took over ${DECODE_TIMEOUT_SECONDS} s and was stopped: send a smaller picture`, { cause: err })
    throw new AppError('IMAGE_INVALID', `The image (${header.width}×${header.height}) could not be decoded: the file is truncated or corrupt`, { cause: err })
  }
}
