// Original artwork for the starter catalog, made by code: the category's name animated
// over moving shapes, in three styles. Frames are drawn straight into palette indices
// and encoded with gifenc (a fast LZW encoder): no fonts, no quantisation, nothing that depends
// on the machine, so the same category and style always give the same bytes.
import { createRequire } from 'node:module'
import { GLYPH_HEIGHT, GLYPH_WIDTH, glyphPixel } from './pixel-font.js'

// gifenc ships CommonJS whose named exports Node's ESM loader cannot see: require it.
const { GIFEncoder } = createRequire(import.meta.url)('gifenc') as typeof import('gifenc')

export const STARTER_WIDTH = 240
export const STARTER_HEIGHT = 160
export const STARTER_FRAMES = 10
/** Frame delay in milliseconds (stored in hundredths of a second by GIF89a). */
export const STARTER_DELAY_MS = 80
export const STARTER_STYLES = ['bubbles', 'stripes', 'rings'] as const
export type StarterStyle = typeof STARTER_STYLES[number]

const MAX_TEXT_SCALE = 6
const MARGIN = 12

// Palette slots (16 colours, a power of two as GIF requires).
const BG_DARK = 0
const BG_LIGHT = 1
const SHAPE_FIRST = 2
const SHAPE_COUNT = 6
const TEXT_FILL = 8
const TEXT_OUTLINE = 9
const TEXT_SHADOW = 10
const PALETTE_SIZE = 16

/** A stable number from a string (FNV-1a), to vary colours per category. */
function seedOf (text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

function hsl (h: number, s: number, l: number): number {
  const a = s * Math.min(l, 1 - l)
  const f = (n: number): number => {
    const k = (n + h / 30) % 12
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))))
  }
  return (f(0) << 16) | (f(8) << 8) | f(4)
}

function rgb (color: number): number[] {
  return [(color >> 16) & 255, (color >> 8) & 255, color & 255]
}

function paletteFor (category: string, style: number): number[][] {
  const hue = (seedOf(category) % 360 + style * 47) % 360
  const palette = new Array<number>(PALETTE_SIZE).fill(0)
  palette[BG_DARK] = hsl(hue, 0.45, 0.16)
  palette[BG_LIGHT] = hsl(hue, 0.4, 0.24)
  for (let i = 0; i < SHAPE_COUNT; i++) palette[SHAPE_FIRST + i] = hsl((hue + 40 + i * 53) % 360, 0.75, 0.58)
  palette[TEXT_FILL] = 0xffffff
  palette[TEXT_OUTLINE] = 0x111111
  palette[TEXT_SHADOW] = hsl(hue, 0.5, 0.08)
  return palette.map(rgb)
}

class Frame {
  readonly pixels: Uint8Array
  constructor (readonly width: number, readonly height: number) {
    this.pixels = new Uint8Array(width * height)
  }

  fillRect (x0: number, y0: number, w: number, h: number, color: number): void {
    const x1 = Math.min(this.width, x0 + w)
    const y1 = Math.min(this.height, y0 + h)
    for (let y = Math.max(0, y0); y < y1; y++) this.pixels.fill(color, y * this.width + Math.max(0, x0), y * this.width + x1)
  }

  fillCircle (cx: number, cy: number, r: number, color: number): void {
    const top = Math.max(0, Math.floor(cy - r))
    const bottom = Math.min(this.height - 1, Math.ceil(cy + r))
    for (let y = top; y <= bottom; y++) {
      const dy = y - cy
      const half = Math.sqrt(Math.max(0, r * r - dy * dy))
      const left = Math.max(0, Math.round(cx - half))
      const right = Math.min(this.width, Math.round(cx + half))
      if (right > left) this.pixels.fill(color, y * this.width + left, y * this.width + right)
    }
  }

  /** One letter at (x, y), `scale` pixels per glyph pixel, with an outline one scale-pixel wide. */
  letter (ch: string, x: number, y: number, scale: number): void {
    for (const [dx, dy, color] of [[2, 2, TEXT_SHADOW], [-1, 0, TEXT_OUTLINE], [1, 0, TEXT_OUTLINE], [0, -1, TEXT_OUTLINE], [0, 1, TEXT_OUTLINE], [0, 0, TEXT_FILL]] as const) {
      const offset = Math.max(1, Math.floor(scale / 2))
      for (let row = 0; row < GLYPH_HEIGHT; row++) {
        for (let col = 0; col < GLYPH_WIDTH; col++) {
          if (glyphPixel(ch, col, row)) this.fillRect(x + col * scale + dx * offset, y + row * scale + dy * offset, scale, scale, color)
        }
      }
    }
  }
}

function textScale (text: string, width: number): number {
  const perLetter = (GLYPH_WIDTH + 1) * text.length
  return Math.max(1, Math.min(MAX_TEXT_SCALE, Math.floor((width - 2 * MARGIN) / perLetter)))
}

function drawBubbles (f: Frame, t: number, seed: number): void {
  const bands = 8
  for (let i = 0; i < bands; i++) f.fillRect(Math.floor(i * f.width / bands), 0, Math.ceil(f.width / bands), f.height, i % 2 === 0 ? BG_DARK : BG_LIGHT)
  for (let i = 0; i < 9; i++) {
    const angle = 2 * Math.PI * (t + i / 9) * (i % 2 === 0 ? 1 : -1) + (seed % 7)
    const radius = 30 + (i * 23) % 50
    const cx = f.width / 2 + Math.cos(angle) * radius * 1.6
    const cy = f.height / 2 + Math.sin(angle) * radius * 0.8
    f.fillCircle(cx, cy, 10 + (i * 7) % 14, SHAPE_FIRST + i % SHAPE_COUNT)
  }
}

function drawStripes (f: Frame, t: number): void {
  const stripe = 16
  const shift = Math.round(t * stripe * 4)
  for (let y = 0; y < f.height; y++) {
    const row = y * f.width
    for (let x = 0; x < f.width; x++) {
      const k = Math.floor((x + y + shift) / stripe)
      f.pixels[row + x] = k % 4 === 0 ? SHAPE_FIRST + (Math.floor(k / 4) % SHAPE_COUNT + SHAPE_COUNT) % SHAPE_COUNT : (k % 2 === 0 ? BG_LIGHT : BG_DARK)
    }
  }
}

function drawRings (f: Frame, t: number, distances: Float32Array): void {
  const ring = 14
  const grow = t * ring * 2
  for (let i = 0; i < distances.length; i++) {
    const k = Math.floor((distances[i]! - grow) / ring)
    const m = ((k % 3) + 3) % 3
    f.pixels[i] = m === 0 ? SHAPE_FIRST + ((Math.floor(k / 3) % SHAPE_COUNT) + SHAPE_COUNT) % SHAPE_COUNT : m === 1 ? BG_DARK : BG_LIGHT
  }
}

function drawName (f: Frame, name: string, t: number, style: number): void {
  const text = name.toUpperCase()
  // The "stripes" style pulses the lettering between two sizes.
  const base = textScale(text, f.width)
  const scale = style === 1 && Math.floor(t * 4) % 2 === 1 ? Math.max(1, base - 1) : base
  const advance = (GLYPH_WIDTH + 1) * scale
  const textWidth = advance * text.length - scale
  const x0 = Math.round((f.width - textWidth) / 2)
  const y0 = Math.round((f.height - GLYPH_HEIGHT * scale) / 2)
  for (let i = 0; i < text.length; i++) {
    let dy = 0
    // bubbles: the whole word bounces; rings: each letter rides a wave.
    if (style === 0) dy = Math.round(-Math.abs(Math.sin(2 * Math.PI * t)) * 18)
    if (style === 2) dy = Math.round(Math.sin(2 * Math.PI * (t - i / text.length)) * 10)
    f.letter(text[i]!, x0 + i * advance, y0 + dy, scale)
  }
}

/** One starter gif: `style` 0..2 picks the background and the motion. Deterministic. */
export function renderStarterGif (category: string, style: number, width = STARTER_WIDTH, height = STARTER_HEIGHT): Buffer {
  const seed = seedOf(category)
  const palette = paletteFor(category, style)
  const gif = GIFEncoder()
  let distances: Float32Array | undefined
  if (style === 2) {
    distances = new Float32Array(width * height)
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) distances[y * width + x] = Math.hypot(x - width / 2, (y - height / 2) * 1.3)
  }
  const frame = new Frame(width, height)
  for (let i = 0; i < STARTER_FRAMES; i++) {
    const t = i / STARTER_FRAMES
    if (style === 0) drawBubbles(frame, t, seed)
    else if (style === 1) drawStripes(frame, t)
    else drawRings(frame, t, distances!)
    drawName(frame, category, t, style)
    // One global palette (first frame), looping forever (repeat 0).
    gif.writeFrame(frame.pixels, width, height, i === 0 ? { palette, delay: STARTER_DELAY_MS, repeat: 0 } : { delay: STARTER_DELAY_MS })
  }
  gif.finish()
  return Buffer.from(gif.bytes())
}
