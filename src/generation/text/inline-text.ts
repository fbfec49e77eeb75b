// Lines holding custom emoji (markup.ts: each stood for by a placeholder character)
// measured and drawn: the emoji's image takes the box the colour emoji font's glyph takes
// at the line's font and baseline, so that <:wave:…> sits where 👋 would, as large, and
// keeps its aspect ratio. Lines without placeholders go straight to the canvas.
//
// Every text a picture measures or draws passes here, so this is also where the ZWJ
// sequences the canvas would split become the one code point the emoji font draws them
// with (joined-emoji.ts).
import type { SKRSContext2D } from '@napi-rs/canvas'
import { type Drawable, naturalSize } from '../drawable.js'
import { joinSplitEmoji } from './joined-emoji.js'
import { hasPlaceholder, type InlineImages, NO_INLINE_IMAGES } from './markup.js'

/** Any emoji of Noto Color Emoji: they share one box (ascent, descent, advance). */
const REFERENCE_EMOJI = '😀'
/** A custom emoji is drawn at most this many times as wide as it is high (Discord allows wide ones). */
const MAX_ASPECT = 4

interface EmojiBox {
  /** Above the current baseline (textBaseline), in pixels. */
  ascent: number
  height: number
  /** Space on each side of the glyph within its advance. */
  bearing: number
}

// Per font and baseline; a thread draws with a few dozen font strings at most.
const boxes = new Map<string, EmojiBox>()
const MAX_BOXES = 512

function emojiBox (ctx: SKRSContext2D): EmojiBox {
  const key = `${ctx.textBaseline}\n${ctx.font}`
  let box = boxes.get(key)
  if (box === undefined) {
    const m = ctx.measureText(REFERENCE_EMOJI)
    const height = m.actualBoundingBoxAscent + m.actualBoundingBoxDescent
    box = { ascent: m.actualBoundingBoxAscent, height, bearing: Math.max(0, (m.width - height) / 2) }
    if (boxes.size >= MAX_BOXES) boxes.clear()
    boxes.set(key, box)
  }
  return box
}

function emojiWidth (box: EmojiBox, image: Drawable): number {
  const { width, height } = naturalSize(image)
  const aspect = width > 0 && height > 0 ? Math.min(MAX_ASPECT, Math.max(1 / MAX_ASPECT, width / height)) : 1
  return box.height * aspect
}

/** The line cut at its placeholders: text runs and images, in logical order. */
function pieces (text: string, images: InlineImages): Array<string | Drawable> {
  const out: Array<string | Drawable> = []
  let run = ''
  for (const ch of text) {
    const image = images.get(ch)
    if (image === undefined) { run += ch; continue }
    if (run !== '') out.push(run)
    run = ''
    out.push(image)
  }
  if (run !== '') out.push(run)
  return out
}

/** The width of a line as drawLine draws it, with ctx's font. */
export function measureLine (ctx: SKRSContext2D, line: string, images: InlineImages = NO_INLINE_IMAGES): number {
  const text = joinSplitEmoji(line)
  if (images.size === 0 || !hasPlaceholder(text)) return ctx.measureText(text).width
  const box = emojiBox(ctx)
  let width = 0
  for (const piece of pieces(text, images)) width += typeof piece === 'string' ? ctx.measureText(piece).width : emojiWidth(box, piece) + 2 * box.bearing
  return width
}

/**
 * Draws one line at x, y as fillText (or strokeText) would, with ctx's font, alignment,
 * baseline and direction; its emoji images are drawn by a fill only (an outline is the
 * letters'). Right to left, the runs are placed from the right.
 */
export function drawLine (ctx: SKRSContext2D, line: string, x: number, y: number, mode: 'fill' | 'stroke' = 'fill', images: InlineImages = NO_INLINE_IMAGES): void {
  const text = joinSplitEmoji(line)
  if (images.size === 0 || !hasPlaceholder(text)) {
    if (mode === 'fill') ctx.fillText(text, x, y)
    else ctx.strokeText(text, x, y)
    return
  }
  const total = measureLine(ctx, text, images)
  const rtl = ctx.direction === 'rtl'
  const align = ctx.textAlign
  const fromRight = align === 'right' || (align === 'end' && !rtl) || (align === 'start' && rtl)
  let cx = align === 'center' ? x - total / 2 : fromRight ? x - total : x
  const box = emojiBox(ctx)
  const list = pieces(text, images)
  if (rtl) list.reverse()
  ctx.save()
  ctx.textAlign = 'left'
  for (const piece of list) {
    if (typeof piece === 'string') {
      if (mode === 'fill') ctx.fillText(piece, cx, y)
      else ctx.strokeText(piece, cx, y)
      cx += ctx.measureText(piece).width
      continue
    }
    const width = emojiWidth(box, piece)
    if (mode === 'fill') ctx.drawImage(piece, cx + box.bearing, y - box.ascent, width, box.height)
    cx += width + 2 * box.bearing
  }
  ctx.restore()
}
