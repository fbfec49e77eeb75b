// What a source image declares, read before any pixel is decoded: libvips' header read
// (sharp's metadata, on libuv's pool), and for GIF the logical screen from the bytes
// themselves. The limits these are checked against are limits.ts's.
import sharp from 'sharp'

export interface SourceHeader {
  /** sharp's name of the format: 'jpeg', 'png', 'webp', 'gif', 'tiff', 'heif'…; absent if libvips gives none. */
  format?: string
  /** HEIF's codec ('av1' for AVIF, 'hevc' for HEIC); absent for the other formats. */
  compression?: string
  /** 0 when the header declares none. */
  width: number
  /** Of one frame (page); 0 when the header declares none. */
  height: number
  /** Pages as libvips counts them, at least 1: an animation's frames, a TIFF's pages. */
  frames: number
  /** Each frame's delay in ms, when the file gives them. */
  delays?: number[]
}

export interface ReadHeaderOptions {
  /** libvips' strictness: sharp's default ('warning') unless the caller says otherwise. */
  failOn?: 'error' | 'warning'
  /** Read the file as an animation (every page). */
  animated?: boolean
  /** sharp itself; tests hand in a wrapper that records what reaches libvips. */
  load?: typeof sharp
}

/**
 * The header libvips reads. Its own pixel limit is off here: the limits are checked by
 * checkSource from this header, so that a refusal can say which limit and by how much.
 * Throws sharp's error for what libvips cannot read (its message says why).
 */
export async function readHeader (bytes: Uint8Array, options: ReadHeaderOptions = {}): Promise<SourceHeader> {
  const load = options.load ?? sharp
  const meta = await load(bytes, {
    limitInputPixels: false,
    ...(options.failOn === undefined ? {} : { failOn: options.failOn }),
    ...(options.animated === undefined ? {} : { animated: options.animated })
  }).metadata()
  return {
    ...(meta.format === undefined ? {} : { format: meta.format }),
    ...(meta.compression === undefined ? {} : { compression: meta.compression }),
    width: meta.width ?? 0,
    height: meta.pageHeight ?? meta.height ?? 0,
    frames: Math.max(1, meta.pages ?? 1),
    ...(meta.delay === undefined ? {} : { delays: meta.delay })
  }
}

/**
 * A GIF's logical screen (GIF89a §18: bytes 6-9, little-endian), or undefined when the
 * file ends before it. It is what decoders that honour it allocate, whatever libvips
 * reads from the first frame, so it is checked from the file before libvips reads it.
 */
export function readGifScreen (bytes: Uint8Array): { width: number, height: number } | undefined {
  // Signature (6), logical screen descriptor (7).
  if (bytes.length < 13) return undefined
  return { width: bytes[6]! | (bytes[7]! << 8), height: bytes[8]! | (bytes[9]! << 8) }
}
