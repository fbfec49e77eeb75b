// Checks that bytes really are a GIF and reads what the catalog records: dimensions
// and frame count. Every frame is decoded (into one reused buffer), so a file with
// a valid header but broken image data is refused too. Decoding uses omggif.
import { GifReader } from 'omggif'

/** Larger canvases are refused: decoding one frame needs width × height × 4 bytes. */
export const MAX_GIF_PIXELS = 4096 * 4096
export const MAX_GIF_FRAMES = 5000
export const GIF_CONTENT_TYPE = 'image/gif'

export interface GifInfo {
  width: number
  height: number
  frames: number
  contentType: typeof GIF_CONTENT_TYPE
}

/** Why a file is not an acceptable GIF, in words an operator can act on. */
export class GifInvalidError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'GifInvalidError'
  }
}

const SIGNATURES: Array<[string, number[]]> = [
  ['PNG', [0x89, 0x50, 0x4e, 0x47]],
  ['JPEG', [0xff, 0xd8, 0xff]],
  ['WebP', [0x52, 0x49, 0x46, 0x46]],
  ['BMP', [0x42, 0x4d]]
]

function otherFormat (bytes: Uint8Array): string | undefined {
  return SIGNATURES.find(([, sig]) => sig.every((b, i) => bytes[i] === b))?.[0]
}

export function inspectGif (bytes: Uint8Array): GifInfo {
  if (bytes.length === 0) throw new GifInvalidError('not a GIF: the file is empty')
  const header = Buffer.from(bytes.subarray(0, 6)).toString('latin1')
  if (header !== 'GIF87a' && header !== 'GIF89a') {
    const other = otherFormat(bytes)
    throw new GifInvalidError(other ? `not a GIF: it is a ${other} image` : 'not a GIF: the file does not start with a GIF signature')
  }
  // GIF89a: header, logical screen descriptor, then blocks up to the trailer (0x3B).
  if (bytes[bytes.length - 1] !== 0x3b && bytes.lastIndexOf(0x3b) < 13) {
    throw new GifInvalidError('corrupt GIF: the file is truncated (no trailer)')
  }
  let reader: GifReader
  try {
    reader = new GifReader(bytes)
  } catch (err) {
    throw new GifInvalidError(`corrupt GIF: ${(err as Error).message}`)
  }
  const width = reader.width
  const height = reader.height
  const frames = reader.numFrames()
  if (width === 0 || height === 0) throw new GifInvalidError('corrupt GIF: its width or height is 0')
  if (frames === 0) throw new GifInvalidError('corrupt GIF: it holds no image')
  if (width * height > MAX_GIF_PIXELS) throw new GifInvalidError(`too large: ${width}×${height} pixels (at most ${MAX_GIF_PIXELS} pixels per frame)`)
  if (frames > MAX_GIF_FRAMES) throw new GifInvalidError(`too many frames: ${frames} (at most ${MAX_GIF_FRAMES})`)
  const canvas = new Uint8Array(width * height * 4)
  for (let i = 0; i < frames; i++) {
    const frame = reader.frameInfo(i)
    if (frame.x + frame.width > width || frame.y + frame.height > height) {
      throw new GifInvalidError(`corrupt GIF: frame ${i + 1} lies outside the image`)
    }
    try {
      reader.decodeAndBlitFrameRGBA(i, canvas)
    } catch (err) {
      throw new GifInvalidError(`corrupt GIF: frame ${i + 1} cannot be decoded (${(err as Error).message})`)
    }
  }
  return { width, height, frames, contentType: GIF_CONTENT_TYPE }
}
