// What the card templates share: a card (background, banner, shaded panel), the
// avatar disc, the name shown, the colour fields' hint and optional images.
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas'
import type { Drawable } from '../drawable.js'
import type { NewCanvas } from '../canvas/canvas-pool.js'
import { drawCover, roundedRect } from '../canvas/draw.js'
import { label, type Locale, LOCALES } from '../locale/locale.js'
import { drawLine } from '../text/inline-text.js'
import type { FieldDoc, TemplateFields } from './template.js'

export const COLOR_HINT = '(a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a")'

/** Every template's `locale`: the language of its fixed labels, numbers and dates (src/generation/locale/). */
export const LOCALE_FIELD: FieldDoc = {
  description: 'The language of the fixed labels, numbers and dates: a locale as Discord spells it (an interaction\'s `locale`), or ar (right to left: the card is mirrored); en, es, pt, sv, zh, zh-Hant, nb and regional tags such as fr-CA or pt-br are read too (docs/generation.md, "Languages"). Labels the request gives itself are drawn as given',
  default: 'en-US',
  values: () => LOCALES
}

/**
 * A card's x positions in the locale's direction: as written for left to right, mirrored
 * on a card `width` wide for right to left (an Arabic card reads from its right edge).
 */
export function placement (width: number, rtl: boolean): { x: (x: number, w?: number) => number, start: 'left' | 'right', end: 'left' | 'right' } {
  return {
    x: (x, w = 0) => rtl ? width - x - w : x,
    start: rtl ? 'right' : 'left',
    end: rtl ? 'left' : 'right'
  }
}

export async function optionalImage<I> (load: () => Promise<I>, value: string | undefined): Promise<I | undefined> {
  return value === undefined || value.trim() === '' ? undefined : await load()
}

export function drawAvatar (ctx: SKRSContext2D, avatar: Drawable | undefined, cx: number, cy: number, r: number, ring: string, initial: string, family: string): void {
  ctx.save()
  ctx.fillStyle = ring
  ctx.beginPath(); ctx.arc(cx, cy, r + 8, 0, Math.PI * 2); ctx.fill()
  ctx.beginPath(); ctx.arc(cx, cy, r, 0, Math.PI * 2); ctx.closePath(); ctx.clip()
  if (avatar) {
    drawCover(ctx, avatar, cx - r, cy - r, r * 2, r * 2)
  } else {
    // No avatar: the name's first letter on a neutral disc, as chat apps do.
    ctx.fillStyle = '#5865f2'; ctx.fillRect(cx - r, cy - r, r * 2, r * 2)
    ctx.fillStyle = 'white'; ctx.font = `bold ${Math.round(r)}px ${family}`; ctx.textAlign = 'center'; ctx.textBaseline = 'middle'
    drawLine(ctx, initial, cx, cy)
  }
  ctx.restore()
}

/**
 * A canvas filled with the background colour, the banner drawn over it (cover), and a
 * rounded shaded panel inset from the edges, on which every card template draws.
 */
export function startCard (newCanvas: NewCanvas, W: number, H: number, background: string, banner?: Drawable, panel?: { inset: number, radius: number, shade: string }): { canvas: Canvas, ctx: SKRSContext2D } {
  const canvas = newCanvas(W, H)
  const ctx = canvas.getContext('2d')
  ctx.fillStyle = background
  ctx.fillRect(0, 0, W, H)
  if (banner) drawCover(ctx, banner, 0, 0, W, H)
  if (panel) {
    ctx.fillStyle = panel.shade
    roundedRect(ctx, panel.inset, panel.inset, W - 2 * panel.inset, H - 2 * panel.inset, panel.radius)
    ctx.fill()
  }
  return { canvas, ctx }
}

/** The name shown: the request's, or "Someone" in the locale. */
export function displayName (f: TemplateFields, locale: Locale): string {
  return (f.username ?? '').trim() || label(locale, 'card.someone')
}
