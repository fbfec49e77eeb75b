// What the card templates share: a card (background, banner, shaded panel), the
// avatar disc, the name shown, the colour fields' hint and optional images.
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas'
import { AppError } from '../../errors.js'
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
  values: () => LOCALES,
  otherSpellings: 'Another spelling of one of these, read as it: any case, _ for -, en, es, pt, sv, zh, zh-Hant, nb, and a tag with a region such as fr-CA or pt-br (docs/generation.md, "Languages"); anything else is 400 UNKNOWN_LOCALE'
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

export const AVATAR_SHAPES = ['round', 'square'] as const
export type AvatarShape = typeof AVATAR_SHAPES[number]

/** The avatar's outline at cx, cy, radius r: a disc, or a square with rounded corners. */
function avatarPath (ctx: SKRSContext2D, shape: AvatarShape, cx: number, cy: number, r: number): void {
  ctx.beginPath()
  if (shape === 'round') ctx.arc(cx, cy, r, 0, Math.PI * 2)
  else ctx.roundRect(cx - r, cy - r, r * 2, r * 2, r * 0.22)
  ctx.closePath()
}

export function drawAvatar (ctx: SKRSContext2D, avatar: Drawable | undefined, cx: number, cy: number, r: number, ring: string, initial: string, family: string, shape: AvatarShape = 'round', ringWidth = 8): void {
  ctx.save()
  ctx.fillStyle = ring
  avatarPath(ctx, shape, cx, cy, r + ringWidth); ctx.fill()
  avatarPath(ctx, shape, cx, cy, r); ctx.clip()
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
 * A member's presence, as Discord shows it on an avatar; `invisible` is how a member's own
 * client names offline. The colours are its client's (2023).
 */
export const STATUS_COLORS = {
  online: '#23a55a',
  idle: '#f0b232',
  dnd: '#f23f43',
  offline: '#80848e',
  invisible: '#80848e',
  streaming: '#593695'
} as const
export type Status = keyof typeof STATUS_COLORS
export const STATUSES = Object.keys(STATUS_COLORS) as Status[]
/** A `status` field's values: none (the default) draws no presence. */
export const STATUS_VALUES = (): readonly string[] => ['none', ...STATUSES]

/** The `status` field: a presence, or undefined for none or absent; anything else is a 400 naming it. */
export function statusField (value: string | undefined): Status | undefined {
  const status = (value ?? '').trim().toLowerCase()
  if (status === '' || status === 'none') return undefined
  if (Object.hasOwn(STATUS_COLORS, status)) return status as Status
  throw new AppError('VALIDATION', `Invalid "status": "${value!.slice(0, 20)}"; use one of ${STATUSES.join(', ')} (or none)`, { details: { field: 'status', valid: STATUSES } })
}

/**
 * The presence mark Discord draws at an avatar's lower right: a disc of its colour, cut
 * out of the avatar by a ring of `ring` (the card's colour), and each presence its own
 * shape, so that it reads without its colour: a moon (idle), a bar (do not disturb), a
 * hollow disc (offline), a play sign (streaming).
 */
export function drawStatus (ctx: SKRSContext2D, status: Status, cx: number, cy: number, r: number, ring: string): void {
  ctx.save()
  ctx.fillStyle = ring
  ctx.beginPath(); ctx.arc(cx, cy, r * 1.4, 0, Math.PI * 2); ctx.fill()
  ctx.fillStyle = STATUS_COLORS[status]
  ctx.beginPath(); ctx.arc(cx, cy, r, 0, Math.PI * 2); ctx.fill()
  ctx.fillStyle = ring
  if (status === 'idle') {
    ctx.beginPath(); ctx.arc(cx - r * 0.5, cy - r * 0.5, r * 0.62, 0, Math.PI * 2); ctx.fill()
  } else if (status === 'dnd') {
    roundedRect(ctx, cx - r * 0.62, cy - r * 0.2, r * 1.24, r * 0.4, r * 0.2); ctx.fill()
  } else if (status === 'offline' || status === 'invisible') {
    ctx.beginPath(); ctx.arc(cx, cy, r * 0.5, 0, Math.PI * 2); ctx.fill()
  } else if (status === 'streaming') {
    ctx.beginPath()
    ctx.moveTo(cx - r * 0.3, cy - r * 0.5); ctx.lineTo(cx + r * 0.55, cy); ctx.lineTo(cx - r * 0.3, cy + r * 0.5)
    ctx.closePath(); ctx.fill()
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
