// Checks that bytes really are a GIF and reads what the catalog records: dimensions,
// frame count and dominant colour. Every frame is decoded by libvips (sharp), failing on
// the first error and within a time limit, off the main thread (libuv's pool), so a file
// with a valid header but broken image data is refused and a hostile one cannot hang the
// import. (omggif, used before, looped forever on some corrupt files and accepted others.)
import sharp, { type OutputInfo } from 'sharp'
import { readGifScreen, readHeader, type SourceHeader } from '../images/header.js'
import { checkSource, GIF_IMPORT_LIMITS } from '../images/limits.js'
import { imageName, sniff } from '../images/sniff.js'

/** Larger frames or logical screens are refused (src/images/limits.ts, GIF_IMPORT_LIMITS). */
export const MAX_GIF_PIXELS = GIF_IMPORT_LIMITS.maxFramePixels
export const MAX_GIF_FRAMES = GIF_IMPORT_LIMITS.maxFrames
export const GIF_CONTENT_TYPE = 'image/gif'
/** A file whose check takes longer is refused (a starter gif takes about 20 ms). */
export const GIF_CHECK_TIMEOUT_SECONDS = 20

/** Pixels sampled per frame side by the decoding check, which also gives the dominant colour. */
const SAMPLE_SIDE = 8
/** Bits kept per channel when grouping samples into colours: 3 gives 512 groups. */
const COLOUR_BITS = 3
/** Samples at least this opaque (of 255) count towards the dominant colour. */
const MIN_ALPHA = 128

export interface GifInfo {
  width: number
  height: number
  frames: number
  contentType: typeof GIF_CONTENT_TYPE
  /** `#rrggbb`: the colour most of the gif is, over every frame; null when every pixel is transparent. */
  dominantColor: string | null
}

/** Why a file is not an acceptable GIF, in words an operator can act on. */
export class GifInvalidError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'GifInvalidError'
  }
}

export async function inspectGif (bytes: Uint8Array): Promise<GifInfo> {
  // The source-image gate (src/images/limits.ts): sniffed, logical screen and header read, limits checked.
  if (bytes.length === 0) throw new GifInvalidError('not a GIF: the file is empty')
  const sniffed = sniff(bytes)
  if (sniffed?.format !== 'GIF') {
    throw new GifInvalidError(sniffed === undefined ? 'not a GIF: the file does not start with a GIF signature' : `not a GIF: it is ${imageName(sniffed.format)}`)
  }
  // GIF89a: header, logical screen descriptor, then blocks up to the trailer (0x3B).
  if (bytes[bytes.length - 1] !== 0x3b && bytes.lastIndexOf(0x3b) < 13) {
    throw new GifInvalidError('corrupt GIF: the file is truncated (no trailer)')
  }
  const screen = readGifScreen(bytes)
  if (screen === undefined) throw new GifInvalidError('corrupt GIF: the file ends inside its header')
  // A logical screen of 0 says nothing (decoders then take the frames' size, checked below).
  const screenCheck = checkSource({ ...screen, frames: 1 }, GIF_IMPORT_LIMITS)
  if (!screenCheck.ok && screenCheck.limit === 'frame-pixels') {
    throw new GifInvalidError(`too large: its logical screen is ${screen.width}×${screen.height} pixels (at most ${MAX_GIF_PIXELS} pixels)`)
  }
  let header: SourceHeader
  try {
    header = await withTimeout(readHeader(bytes, { animated: true, failOn: 'error' }))
  } catch (err) {
    throw new GifInvalidError(`corrupt GIF: ${reason(err)}`)
  }
  const { width, height, frames } = header
  if (header.format !== 'gif') throw new GifInvalidError(`not a GIF: libvips reads it as ${header.format ?? 'an unknown format'}`)
  const check = checkSource(header, GIF_IMPORT_LIMITS)
  if (!check.ok) {
    switch (check.limit) {
      case 'size': throw new GifInvalidError('corrupt GIF: its width or height is 0')
      case 'frame-pixels': throw new GifInvalidError(`too large: ${width}×${height} pixels (at most ${MAX_GIF_PIXELS} pixels per frame)`)
      default: throw new GifInvalidError(`too many frames: ${frames} (at most ${MAX_GIF_FRAMES})`)
    }
  }
  // Every frame decoded, failing on the first error; the output is shrunk to a few pixels
  // per frame so that memory does not grow with the frame count (8×8×4 bytes a frame,
  // 1.3 MB at MAX_GIF_FRAMES). Those samples also give the dominant colour, at no
  // further decoding.
  let samples: { data: Buffer, info: OutputInfo }
  try {
    samples = await withTimeout(sharp(bytes, { animated: true, failOn: 'error', limitInputPixels: false })
      .timeout({ seconds: GIF_CHECK_TIMEOUT_SECONDS })
      .resize(SAMPLE_SIDE, SAMPLE_SIDE, { fit: 'fill', kernel: 'nearest' })
      .raw()
      .toBuffer({ resolveWithObject: true }))
  } catch (err) {
    throw new GifInvalidError(`corrupt GIF: a frame cannot be decoded (${reason(err)})`)
  }
  return { width, height, frames, contentType: GIF_CONTENT_TYPE, dominantColor: dominantColor(samples.data, samples.info.channels) }
}

/**
 * The dominant colour of raw pixels (3 or 4 channels): the pixels are grouped by their
 * top COLOUR_BITS bits per channel, and the answer is the mean of the largest group (a
 * plain mean of every pixel gives a muddy colour no frame shows). Pixels less than half
 * opaque are left out; null when none is left.
 */
export function dominantColor (pixels: Uint8Array, channels: number): string | null {
  const shift = 8 - COLOUR_BITS
  const groups = 1 << (3 * COLOUR_BITS)
  const count = new Uint32Array(groups)
  const sums = new Float64Array(groups * 3)
  for (let i = 0; i + channels <= pixels.length; i += channels) {
    if (channels === 4 && pixels[i + 3]! < MIN_ALPHA) continue
    const r = pixels[i]!
    const g = pixels[i + 1]!
    const b = pixels[i + 2]!
    const group = ((r >> shift) << (2 * COLOUR_BITS)) | ((g >> shift) << COLOUR_BITS) | (b >> shift)
    count[group]!++
    sums[group * 3]! += r
    sums[group * 3 + 1]! += g
    sums[group * 3 + 2]! += b
  }
  let best = -1
  for (let group = 0; group < groups; group++) if (count[group]! > 0 && (best < 0 || count[group]! > count[best]!)) best = group
  if (best < 0) return null
  const hex = (sum: number): string => Math.round(sum / count[best]!).toString(16).padStart(2, '0')
  return `#${hex(sums[best * 3]!)}${hex(sums[best * 3 + 1]!)}${hex(sums[best * 3 + 2]!)}`
}

function reason (err: unknown): string {
  const text = err instanceof Error ? err.message : String(err)
  return text.split('\n')[0]!.replace(/^gifload_buffer: /, '').trim()
}

/** sharp's own timeout covers the decode; this also bounds the header read, and says so. */
function withTimeout<T> (work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`checking it took longer than ${GIF_CHECK_TIMEOUT_SECONDS} s`)), GIF_CHECK_TIMEOUT_SECONDS * 1000)
  })
  return Promise.race([work, limit]).finally(() => clearTimeout(timer))
}
