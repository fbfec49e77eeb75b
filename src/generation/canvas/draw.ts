// Drawing helpers shared by the templates and the custom renderer.
import { type Canvas, type SKRSContext2D } from '@napi-rs/canvas'
import type { NewCanvas } from './canvas-pool.js'
import { CompressionType, FilterType, Transformer } from '@napi-rs/image'
import { AppError } from '../../errors.js'
import { collectYoung } from '../../runtime/garbage.js'
import type { Drawable } from '../drawable.js'
import { graphemes, wordPieces } from '../text/graphemes.js'
import { drawLine, measureLine } from '../text/inline-text.js'
import { type InlineImages, NO_INLINE_IMAGES } from '../text/markup.js'
import { textDirection } from '../text/scripts.js'

export type OutputFormat = 'png' | 'jpg' | 'webp' | 'gif'
export const OUTPUT_FORMATS = ['png', 'jpg', 'jpeg', 'webp', 'gif'] as const
export const CONTENT_TYPES: Record<OutputFormat, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' }
/** The formats a picture can animate in (animation.ts). */
export const ANIMATED_FORMATS: ReadonlySet<OutputFormat> = new Set(['gif', 'webp'])
const ENCODE_QUALITY = 90

export function parseFormat (value: string | undefined, fallback: OutputFormat, field = 'output'): OutputFormat {
  if (value === undefined || value.trim() === '') return fallback
  const v = value.trim().toLowerCase().replace(/^\./, '')
  if (v === 'png' || v === 'webp' || v === 'gif') return v
  if (v === 'jpg' || v === 'jpeg') return 'jpg'
  throw new AppError('VALIDATION', `Invalid "${field}": "${value.slice(0, 20)}"; use png, jpg, webp or gif`, { details: { field } })
}

/**
 * PNG answers are written by the png crate (@napi-rs/image) at zlib's default level with
 * a filter chosen per row (adaptive), from the canvas's unpremultiplied pixels: the very
 * pixels Skia's encoder writes (test/unit/generation/canvas/encode.test.ts), in about the same
 * bytes and half its time or less. Skia's encoder, the only PNG encoder the canvas
 * offers and without options, tries every filter on every row: it took 60 % of a rank
 * card's time over HTTP. Writing rows unfiltered (sharp) is faster again on flat cards,
 * but makes photographs and gradients 1.4 to 2.2 times as large (docs/performance.md,
 * "Rank cards against canvacord").
 */
const PNG_OPTIONS = { compressionType: CompressionType.Default, filterType: FilterType.Adaptive }
/**
 * A flat picture (a card of colour fills, text and a small avatar: most of them) is
 * deflated in the png crate's fast mode instead: a third of the time or less for 1.2 to
 * 1.6 times the bytes (a rank card 37 KB instead of 28). A photograph or a gradient
 * would come out 2 to 3.5 times as large that way, so it keeps the default. Flat: at
 * least FLAT_SHARE of the pixels of every eighth row equal to their left neighbour
 * (0.88 to 0.99 for every flat golden picture, 0.25 to 0.69 for those with a photo
 * banner or a gradient; docs/performance.md, "Rank cards against canvacord").
 */
const FLAT_PNG_OPTIONS = { compressionType: CompressionType.Fast, filterType: FilterType.Adaptive }
export const FLAT_SHARE = 0.85
const SAMPLED_ROW_STEP = 8

/** Whether `FLAT_SHARE` of the sampled pixels repeat their left neighbour (RGBA, 4 bytes a pixel). */
export function isFlat (data: Uint8Array | Uint8ClampedArray, width: number, height: number): boolean {
  // Four bytes compared at once; a view that does not start on a 4-byte boundary is copied first.
  const aligned = data.byteOffset % 4 === 0 ? data : new Uint8Array(data)
  const pixels = new Uint32Array(aligned.buffer, aligned.byteOffset, width * height)
  let same = 0
  let sampled = 0
  for (let y = 0; y < height; y += SAMPLED_ROW_STEP) {
    const row = y * width
    for (let x = row + 1; x < row + width; x++) {
      if (pixels[x] === pixels[x - 1]) same++
    }
    sampled += width - 1
  }
  return sampled > 0 && same >= sampled * FLAT_SHARE
}

/**
 * A still, encoded on the calling thread: drawing runs in a worker thread (src/work/),
 * where a synchronous encode is what we want: an async one runs on libuv's shared thread
 * pool (sharp, file system and DNS wait behind it), and the canvas's kept running after
 * the worker that asked for it was terminated.
 */
export function encodeSync (canvas: Canvas, format: Exclude<OutputFormat, 'gif'>): Buffer {
  if (format === 'png') return encodePng(canvas)
  if (format === 'jpg') return canvas.encodeSync('jpeg', ENCODE_QUALITY)
  return canvas.encodeSync('webp', ENCODE_QUALITY)
}

/** As encodeSync, on libuv's pool: for a caller on the event loop. */
export async function encode (canvas: Canvas, format: Exclude<OutputFormat, 'gif'>): Promise<Buffer> {
  if (format === 'png') {
    const { transformer, flat } = pixelsOf(canvas)
    return await transformer.png(flat ? FLAT_PNG_OPTIONS : PNG_OPTIONS)
  }
  if (format === 'jpg') return await canvas.encode('jpeg', ENCODE_QUALITY)
  return await canvas.encode('webp', ENCODE_QUALITY)
}

function encodePng (canvas: Canvas): Buffer {
  const { transformer, flat } = pixelsOf(canvas)
  const png = transformer.pngSync(flat ? FLAT_PNG_OPTIONS : PNG_OPTIONS)
  // The encoder keeps its copy of the pixels and its buffers (about 3 MB for a rank card)
  // in native memory V8 does not count, until its object is collected: left to the
  // drawing thread's own collections, which only its JavaScript allocation starts, that
  // held 70 to 90 MB more than Skia's encoder. A scavenge per picture frees it at once
  // (+12 MB, in no measurable time): docs/performance.md, "Rank cards against canvacord".
  collectYoung()
  return png
}

/** The canvas's pixels, unpremultiplied (getImageData), as the PNG encoder takes them, and whether they are flat. */
function pixelsOf (canvas: Canvas): { transformer: Transformer, flat: boolean } {
  const { data, width, height } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height)
  return { transformer: Transformer.fromRgbaPixels(data, width, height), flat: isFlat(data, width, height) }
}

/**
 * A top-to-bottom gradient, 0 to `height` in the caller's units, every row of one colour:
 * `fill(ctx, x, y, w, h)` paints the rows y..y+h of it over x..x+w. Skia dithers a
 * gradient's pixels, so a gradient filled directly changes colour from one pixel to the
 * next along each row: a card with one (the profile's border, the now-playing
 * background) was not flat for the PNG encoder and took the slow deflate, 3 to 4 ms of
 * its 5 (isFlat). Drawn once into a column one pixel wide and stretched across, each row
 * keeps the column's one colour.
 */
export function rowGradient (newCanvas: NewCanvas, height: number, stops: ReadonlyArray<readonly [number, string]>): (ctx: SKRSContext2D, x: number, y: number, w: number, h: number) => void {
  const rows = Math.max(1, Math.ceil(height))
  const column = newCanvas(1, rows)
  const c = column.getContext('2d')
  const gradient = c.createLinearGradient(0, 0, 0, rows)
  for (const [at, color] of stops) gradient.addColorStop(at, color)
  c.fillStyle = gradient
  c.fillRect(0, 0, 1, rows)
  return (ctx, x, y, w, h) => ctx.drawImage(column, 0, y, 1, h, x, y, w, h)
}

/** Draws `image` to fill w×h, cropping the overflow (CSS object-fit: cover). */
export function drawCover (ctx: SKRSContext2D, image: Drawable, x: number, y: number, w: number, h: number): void {
  const scale = Math.max(w / image.width, h / image.height)
  const sw = w / scale
  const sh = h / scale
  ctx.drawImage(image, (image.width - sw) / 2, (image.height - sh) / 2, sw, sh, x, y, w, h)
}

export function roundedRect (ctx: SKRSContext2D, x: number, y: number, w: number, h: number, r: number): void {
  const radius = Math.max(0, Math.min(r, w / 2, h / 2))
  ctx.beginPath()
  ctx.roundRect(x, y, w, h, radius)
}

/**
 * Sets ctx.font so that `text` fits `maxWidth`: the size shrinks down to `minSize`,
 * then the text is cut with an ellipsis, between grapheme clusters (graphemes.ts; a
 * custom emoji of `images` is one). Returns the text to draw.
 */
export function fitText (ctx: SKRSContext2D, text: string, family: string, weight: string, size: number, minSize: number, maxWidth: number, images: InlineImages = NO_INLINE_IMAGES): string {
  const width = (s: string): number => measureLine(ctx, s, images)
  let s = size
  ctx.font = `${weight} ${s}px ${family}`
  while (s > minSize && width(text) > maxWidth) {
    s = Math.max(minSize, Math.floor(s * 0.9))
    ctx.font = `${weight} ${s}px ${family}`
  }
  if (width(text) <= maxWidth) return text
  const chars = graphemes(text)
  let lo = 0
  let hi = chars.length
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    if (width(chars.slice(0, mid).join('') + '…') <= maxWidth) lo = mid
    else hi = mid - 1
  }
  return chars.slice(0, lo).join('').trimEnd() + '…'
}

/**
 * Draws one line of `text` at x, y with ctx's font, laid out in the text's own direction
 * (scripts.ts, textDirection): right to left for an Arabic or Hebrew line. textAlign
 * left, right and center keep their meaning: they place the line, not its letters.
 */
export function fillTextLine (ctx: SKRSContext2D, text: string, x: number, y: number, mode: 'fill' | 'stroke' = 'fill', images: InlineImages = NO_INLINE_IMAGES): void {
  const direction = ctx.direction
  ctx.direction = textDirection(text)
  drawLine(ctx, text, x, y, mode, images)
  ctx.direction = direction
}

/**
 * Splits text into lines no wider than maxWidth (words; a word wider than a line at the
 * places a dictionary finds in it, which is how Thai, Chinese and Japanese, written
 * without spaces, wrap; then between grapheme clusters). Linear in the text: every word and character is measured once and the line's
 * width accumulated (a canvas measures a string as the sum of its parts), where measuring
 * the growing line per word made a long line cost the square of its length.
 */
export function wrapText (ctx: SKRSContext2D, text: string, maxWidth: number, images: InlineImages = NO_INLINE_IMAGES): string[] {
  const lines: string[] = []
  const widths = new Map<string, number>()
  const measure = (s: string): number => {
    let w = widths.get(s)
    if (w === undefined) {
      w = measureLine(ctx, s, images)
      // Characters and short words repeat; a long run of text would only fill the map.
      if (s.length <= 32) widths.set(s, w)
    }
    return w
  }
  for (const paragraph of text.split(/\r?\n/)) {
    if (maxWidth <= 0) { lines.push(paragraph); continue }
    let line = ''
    let lineWidth = 0
    for (const word of paragraph.split(/(\s+)/)) {
      if (word === '') continue
      const wordWidth = measure(word)
      if (lineWidth + wordWidth <= maxWidth) {
        line += word
        lineWidth += wordWidth
        continue
      }
      // The word starts the next line, without the spaces before it.
      if (line !== '') {
        lines.push(line.trimEnd())
        line = ''
        lineWidth = 0
      }
      const start = word.trimStart()
      const startWidth = start === word ? wordWidth : measure(start)
      if (startWidth <= maxWidth) {
        line = start
        lineWidth = startWidth
        continue
      }
      // A word wider than a line: broken at its word pieces, and a piece still wider than
      // a line between graphemes.
      const add = (piece: string, pieceWidth: number): void => {
        if (lineWidth + pieceWidth > maxWidth && line !== '') { lines.push(line); line = ''; lineWidth = 0 }
        line += piece
        lineWidth += pieceWidth
      }
      for (const piece of wordPieces(start)) {
        const pieceWidth = measure(piece)
        if (pieceWidth <= maxWidth) add(piece, pieceWidth)
        else for (const g of graphemes(piece)) add(g, measure(g))
      }
    }
    lines.push(line.trimEnd())
  }
  return lines
}
