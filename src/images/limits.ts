// The decompression-bomb policy: how large a source image may be, decided from its
// header before any pixel is decoded. A small file can declare a huge canvas (a 150 KB
// PNG of 30000×30000, a GIF of 65535×65535 whose one frame is 1×1, thousands of frames of
// one colour), and decoding costs memory and time in proportion to what it declares, not
// to its bytes. Every source image any caller reads passes the same three steps, as
// imgproxy's security.CheckDimensions and its one image-type registry do:
//
// 1. sniff.ts: the first bytes name the format; only the readable formats (JPEG, PNG,
//    WebP, GIF, TIFF, HEIF) are ever handed to libvips, and each caller takes its own
//    subset of them.
// 2. header.ts: libvips reads the header (its own pixel limit off, so that the refusal
//    can say which limit was passed and by how much); a GIF's logical screen is read from
//    the bytes first.
// 3. checkSource below: the header against the caller's limits, in one order: a declared
//    size, pixels of one frame, frames, pixels over every frame.
//
// Each caller maps the outcome to its own answer. The limits, by caller:
//
// | caller | pixels of a frame | frames | pixels over all frames | refused as |
// |---|---|---|---|---|
// | image conversion (conversion/image/convert.ts) | – | IMAGE_MAX_FRAMES (1000) | IMAGE_MAX_PIXELS (50 MP) | 400 IMAGE_TOO_MANY_FRAMES / IMAGE_TOO_MANY_PIXELS |
// | remote images: /gen URLs, custom emoji (remote-fetch/image-fetcher.ts) | 25 MP | – | – | 400 REMOTE_IMAGE_INVALID |
// | gif import: packs, pulls, the CLI, starter gifs (gifs/gif-info.ts) | 4096×4096, logical screen too | 5000 | – | GifInvalidError, the file rejected |
// | the colours of a picture (colors/picture-pixels.ts) | 25 MP | – (the first frame only is decoded) | – | 400 IMAGE_TOO_MANY_PIXELS |
// | operator banners and icons (generation/assets/asset-catalog.ts, pipeline/render-job.ts) | – | – | – | the file skipped with a warning |
//
// Why they differ: a conversion decodes every frame it keeps, so it counts all of them
// (a small GIF of thousands of frames costs what one huge picture does); its figures are
// the operator's (docs/image-conversion.md). /gen shrinks what it fetches on load and
// budgets each request's pixels over all its images (generation/pipeline/render-job.ts,
// MAX_SOURCE_PIXELS and MAX_DECODED_PIXELS), so one remote image is bounded per frame. The
// gif catalog decodes every frame of an import to check it (4096² × 4 bytes is 64 MB a
// frame). Operator files are the operator's own, bounded by their size (16 MB,
// asset-catalog.ts) and refused only when they declare no size. After these checks the
// conversion hands libvips its limit again (limitInputPixels), and every decode runs with
// a time limit, so a header that lies about its size still cannot run long.

/** What a caller accepts; a limit left out is not checked. */
export interface SourceLimits {
  /** Pixels of one frame (width × height). */
  maxFramePixels?: number
  /** Frames of an animation (pages, as libvips counts them). */
  maxFrames?: number
  /** Pixels over every frame (width × height × frames). */
  maxPixels?: number
}

/** What is checked: the header's size of one frame, and its frames. */
export interface SourceSize {
  width: number
  /** Of one frame. */
  height: number
  frames: number
}

export type SourceLimit = 'frame-pixels' | 'frames' | 'pixels'

export type SourceCheck =
  /** `pixels`: over every frame, as the caller may budget them. */
  | { ok: true, pixels: number }
  /** The header declares no width or height: the file is corrupt. */
  | { ok: false, limit: 'size' }
  /** `value` passed `max` (pixels, or frames). */
  | { ok: false, limit: SourceLimit, value: number, max: number }

/** Remote images (/gen URLs, custom emoji): 25 MP a frame, a 5000×5000 image, far above any canvas /gen draws (3000×3000). */
export const REMOTE_IMAGE_LIMITS = { maxFramePixels: 25_000_000 } as const satisfies SourceLimits

/** The colours of a picture (/color/image): the first frame is decoded, shrunk while it loads, so a frame's pixels are what is bounded, as for remote images. */
export const COLOR_IMAGE_LIMITS = { maxFramePixels: 25_000_000 } as const satisfies SourceLimits

/** Imported gifs: a frame decodes to width × height × 4 bytes (64 MB at 4096²), and every frame is decoded to check it. */
export const GIF_IMPORT_LIMITS = { maxFramePixels: 4096 * 4096, maxFrames: 5000 } as const satisfies SourceLimits

/** Operator banners and icons: none beyond a declared size (their files are at most 16 MB, asset-catalog.ts). */
export const OPERATOR_ASSET_LIMITS = {} as const satisfies SourceLimits

/**
 * Whether a source of `size` is within `limits`, checked in the order: a declared size,
 * pixels of one frame, frames, pixels over every frame. The first limit passed is the
 * outcome.
 */
export function checkSource (size: SourceSize, limits: SourceLimits): SourceCheck {
  const { width, height, frames } = size
  if (!(width > 0) || !(height > 0)) return { ok: false, limit: 'size' }
  const framePixels = width * height
  if (limits.maxFramePixels !== undefined && framePixels > limits.maxFramePixels) {
    return { ok: false, limit: 'frame-pixels', value: framePixels, max: limits.maxFramePixels }
  }
  if (limits.maxFrames !== undefined && frames > limits.maxFrames) {
    return { ok: false, limit: 'frames', value: frames, max: limits.maxFrames }
  }
  const pixels = framePixels * frames
  if (limits.maxPixels !== undefined && pixels > limits.maxPixels) {
    return { ok: false, limit: 'pixels', value: pixels, max: limits.maxPixels }
  }
  return { ok: true, pixels }
}
