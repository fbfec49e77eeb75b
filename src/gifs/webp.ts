// `?format=webp`: an animated WebP made from a catalog gif on its first request, then
// kept beside the GIF (src/store/gif-files.ts, putDerived) and served like it. Lossless:
// a GIF holds at most 256 colours a frame, which lossless WebP keeps exactly, usually in
// fewer bytes, and it is the quickest of sharp's WebP encoders on GIF frames (a 240×160
// gif of 10 frames: 30 kB as GIF, 11 kB as WebP, 80 ms; lossy at quality 80: 30 kB, 200 ms).
import type { GifRecord } from '../store/interface.js'
import type { CostPrior } from '../work/work.js'

/**
 * Gifs with more pixels than this over all their frames are not offered as WebP: about
 * 10 s of one core (GIF_WEBP_PRIORS), too long for one request to wait. Their pick answers
 * the GIF whatever `format` says.
 */
export const WEBP_MAX_PIXELS = 40_000_000
/** A conversion is stopped after this long (libvips' own timeout). */
export const WEBP_TIMEOUT_SECONDS = 60

export const WEBP_CONTENT_TYPE = 'image/webp'

/**
 * What a conversion holds, per pixel of one frame: libvips' frame and libwebp's animation
 * encoder, which keeps several whole canvases to compare frames. Measured with sharp on a
 * 2-core host (peak RSS over the process's before): 1000×1000 × 10 frames 70 MB, × 20 frames
 * 70 MB, 2000×2000 × 10 frames 264 MB, i.e. 66–70 bytes a frame pixel whatever the frames.
 */
export const WEBP_BYTES_PER_FRAME_PIXEL = 72
/**
 * And per pixel over all frames, for the WebP it builds in memory before it is written:
 * a 40-megapixel gif made a 48 MB WebP (issue 35), 1.2 bytes a pixel; most are far smaller.
 */
export const WEBP_OUTPUT_BYTES_PER_PIXEL = 1.25

/**
 * Running time of a conversion on one libvips lane (src/work/work.ts), by the pixels of
 * all its frames (webpUnits), on a 2-core machine.
 */
export const GIF_WEBP_PRIORS = {
  'gif-webp': { baseMs: 10, msPerUnit: 0.00025 }
} satisfies Record<string, CostPrior>

/** The pixels a conversion works through: what its time grows with. */
export function webpUnits (gif: Pick<GifRecord, 'width' | 'height' | 'frames'>): number {
  return gif.width * gif.height * Math.max(1, gif.frames)
}

/**
 * The memory a conversion holds, known before it starts from the gif's recorded size and
 * frames: reserved from IMAGE_MEMORY (src/work/memory-budget.ts) on its lane, before it decodes.
 */
export function webpMemoryBytes (gif: Pick<GifRecord, 'width' | 'height' | 'frames'>): number {
  return Math.ceil(gif.width * gif.height * WEBP_BYTES_PER_FRAME_PIXEL + webpUnits(gif) * WEBP_OUTPUT_BYTES_PER_PIXEL)
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
