// What the card templates share: a card (background, banner, shaded panel), the
// avatar disc, the name shown, the colour fields' hint and optional images.
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas'
import type { Drawable } from '../drawable.js'
import type { NewCanvas } from '../canvas/canvas-pool.js'
import { drawCover, roundedRect } from '../canvas/draw.js'
import { drawLine } from '../text/inline-text.js'
import type { TemplateFields } from './template.js'

export const COLOR_HINT = '(a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a")'

export async function optionalImage<I> (load: () => Promise<I>, value: string | undefined): Promise<I | undefined> {
  return value === undefined || value.trim() === '' ? undefined : await load()
}

export function drawAvatar (ctx: SKRSContext2D, avatar: Drawable | undefined, cx: number, cy: number, r: number, ring: string, initial: string, family: string, ringWidth = 8): void {
  ctx.save()
  ctx.fillStyle = ring
  ctx.beginPath(); ctx.arc(cx, cy, r + ringWidth, 0, Math.PI * 2); ctx.fill()
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

export function displayName (f: TemplateFields): string {
  return (f.username ?? '').trim() || 'Someone'
}
