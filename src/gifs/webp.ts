// `?format=webp`: an animated WebP made from a catalog gif on its first request, then
// kept beside the GIF (src/store/gif-files.ts, putDerived) and served like it. Lossless:
// a GIF holds at most 256 colours a frame, which lossless WebP keeps exactly, usually in
// fewer bytes, and it is the quickest of sharp's WebP encoders on GIF frames (a 240×160
// gif of 10 frames: 30 kB as GIF, 11 kB as WebP, 80 ms; lossy at quality 80: 30 kB, 200 ms).
import type { GifRecord } from '../store/interface.js'

/**
 * Gifs with more pixels than this over all their frames are not offered as WebP: about
 * 10 s of one core (the 'gif-webp' prior of src/work/work.ts), too long for one request to wait. Their pick answers
 * the GIF whatever `format` says.
 */
export const WEBP_MAX_PIXELS = 40_000_000
/** A conversion is stopped after this long (libvips' own timeout). */
export const WEBP_TIMEOUT_SECONDS = 60

export const WEBP_CONTENT_TYPE = 'image/webp'

/** The pixels a conversion works through: what its time grows with. */
export function webpUnits (gif: Pick<GifRecord, 'width' | 'height' | 'frames'>): number {
  return gif.width * gif.height * Math.max(1, gif.frames)
}

/** Whether a gif is answered as WebP when asked: a local file, small enough to convert within a request. */
export function webpOffered (gif: Pick<GifRecord, 'hash' | 'width' | 'height' | 'frames'>): boolean {
  return gif.hash !== null && webpUnits(gif) <= WEBP_MAX_PIXELS
}

/** The animated WebP of a GIF: every frame, its delays and its loop count, lossless. Runs on libuv's threads. */
export async function gifToAnimatedWebp (gif: Uint8Array): Promise<Buffer> {
  // Loaded here: the catalog imports this module for webpOffered alone.
  const { default: sharp } = await import('sharp')
  return await sharp(gif, { animated: true, limitInputPixels: false })
    .timeout({ seconds: WEBP_TIMEOUT_SECONDS })
    .webp({ lossless: true, effort: 1 })
    .toBuffer()
}
