// The rank / level card: avatar, name, level, rank and an XP progress bar.
import { AppError } from '../../errors.js'
import type { Sized } from '../drawable.js'
import { colorField } from '../canvas/color.js'
import { fillTextLine, fitText, roundedRect } from '../canvas/draw.js'
import { DEFAULT_LOCALE, direction, formatNumber, formatNumberLike, label, type Locale, localeOf } from '../locale/locale.js'
import { initialOf } from '../text/graphemes.js'
import { drawnText, markText, nameForInitial } from '../text/markup.js'
import { COLOR_HINT, displayName, drawAvatar, LOCALE_FIELD, optionalImage, placement, startCard } from './card.js'
import { sized, type Template, type TemplateDeps, type TemplateFields } from './template.js'

function num (value: string | undefined, fallback: number): number {
  const n = Number((value ?? '').trim().replace(/,/g, ''))
  return value === undefined || value.trim() === '' || !Number.isFinite(n) ? fallback : n
}

/** From ten thousand, a number on the card is abbreviated in the locale (12.3K, 12,3 k, 1.2万); below, written in full. */
const ABBREVIATE_FROM = 10_000

function compact (n: number, locale: Locale): string {
  return formatNumber(locale, n, { abbreviate: Math.abs(n) >= ABBREVIATE_FROM })
}

/**
 * "xp / max XP" in the locale with both numbers in the unit the larger one needs:
 * written one by one, 8420 of 12000 read "8420 / 12K".
 */
export function xpProgress (xp: number, maxXp: number, locale: Locale = DEFAULT_LOCALE): string {
  const larger = Math.max(Math.abs(xp), Math.abs(maxXp))
  const write = (n: number): string => larger >= ABBREVIATE_FROM ? formatNumberLike(locale, n, larger) : formatNumber(locale, n)
  return label(locale, 'rank.xp', { xp: write(xp), max: write(maxXp) })
}

/**
 * The colours of Discord's presence statuses (its client's, 2023), drawn as the avatar's
 * ring; `invisible` is how a member's own client names offline.
 */
export const STATUS_COLORS: Readonly<Record<string, string>> = {
  online: '#23a55a',
  idle: '#f0b232',
  dnd: '#f23f43',
  offline: '#80848e',
  invisible: '#80848e',
  streaming: '#593695'
}
const STATUSES = Object.keys(STATUS_COLORS)

function statusRing (value: string | undefined): string | undefined {
  const status = (value ?? '').trim().toLowerCase()
  if (status === '' || status === 'none') return undefined
  const color = STATUS_COLORS[status]
  if (color === undefined) throw new AppError('VALIDATION', `Invalid "status": "${value!.slice(0, 20)}"; use one of ${STATUSES.join(', ')} (or none)`, { details: { field: 'status', valid: STATUSES } })
  return color
}

export const rank: Template = {
  name: 'rank',
  summary: 'A rank / level card: avatar, name, level, rank and an XP progress bar',
  defaultFormat: 'png',
  imageBoxes: { avatar: { width: 180, height: 180 }, banner: { width: 934, height: 282 } },
  fields: {
    username: { description: 'The member\'s name', default: 'Someone' },
    avatar: { description: 'URL of the avatar image' },
    level: { description: 'Current level', default: '1', numeric: true },
    rank: { description: 'Position on the leaderboard', default: '1', numeric: true },
    xp: { description: 'XP within the current level', default: '0', numeric: true },
    max_xp: { description: 'XP needed for the next level', default: '100', numeric: true },
    background: { description: `Card colour ${COLOR_HINT}`, default: '#23272a' },
    banner: { description: 'A name from /list/banners or an image URL behind the card' },
    color_bar: { description: `Progress bar colour ${COLOR_HINT}`, default: '#5865f2' },
    color_text: { description: `Text colour ${COLOR_HINT}`, default: 'white' },
    font: { description: 'A name from /list/fonts', default: 'Sans Serif' },
    status: { description: `The member's presence as a coloured ring round the avatar, in Discord's colours: ${STATUSES.join(', ')}; none (default) draws the white ring`, default: 'none', values: () => ['none', ...STATUSES] },
    locale: LOCALE_FIELD
  },
  async prepare<I extends Sized> ({ fonts, images }: TemplateDeps<I>, f: TemplateFields) {
    const W = 934
    const H = 282
    const locale = localeOf(f.locale)
    const rtl = direction(locale) === 'rtl'
    const username = displayName(f, locale)
    const ring = statusRing(f.status)
    const xp = Math.max(0, num(f.xp, 0))
    const maxXp = Math.max(1, num(f.max_xp, 100))
    const levelText = label(locale, 'rank.level', { level: compact(num(f.level, 1), locale) })
    const rankText = label(locale, 'rank.rank', { rank: compact(num(f.rank, 1), locale) })
    const xpText = xpProgress(xp, maxXp, locale)
    const family = fonts.family(f.font, 'font', [username, levelText, rankText, xpText].join('\n'))
    const background = colorField(f.background, '#23272a', 'background')
    const bar = colorField(f.color_bar, '#5865f2', 'color_bar')
    const text = colorField(f.color_text, 'white', 'color_text')
    const [avatar, banner, nameMarked] = await Promise.all([
      optionalImage(async () => await images.url(f.avatar!, 'avatar'), f.avatar),
      optionalImage(async () => await images.assetOrUrl('banner', f.banner!, 'banner'), f.banner),
      markText(username, images.emoji.bind(images))
    ])
    return sized<I>(W, H, (newCanvas, pixels) => {
      const nameLine = drawnText(nameMarked, pixels)
      const { canvas, ctx } = startCard(newCanvas, W, H, background, pixels(banner), { inset: 20, radius: 20, shade: 'rgba(0,0,0,0.4)' })
      // Right to left (ar), the card is mirrored: avatar on the right, the bar filling from it.
      const at = placement(W, rtl)
      drawAvatar(ctx, pixels(avatar), at.x(141), H / 2, 90, ring ?? 'rgba(255,255,255,0.85)', initialOf(nameForInitial(username)), family)
      ctx.fillStyle = text
      ctx.textAlign = at.end
      ctx.font = `bold 40px ${family}`
      fillTextLine(ctx, levelText, at.x(W - 50), 82)
      const levelWidth = ctx.measureText(levelText).width
      ctx.font = `normal 32px ${family}`
      fillTextLine(ctx, rankText, at.x(W - 70 - levelWidth), 82)
      ctx.textAlign = at.start
      fillTextLine(ctx, fitText(ctx, nameLine.text, family, 'bold', 40, 20, 440, nameLine.images), at.x(270), 160, 'fill', nameLine.images)
      ctx.textAlign = at.end
      ctx.font = `normal 26px ${family}`
      fillTextLine(ctx, xpText, at.x(W - 50), 160)
      ctx.fillStyle = 'rgba(255,255,255,0.2)'
      roundedRect(ctx, at.x(270, W - 320), 185, W - 320, 38, 19)
      ctx.fill()
      const progress = Math.min(1, xp / maxXp)
      if (progress > 0) {
        ctx.fillStyle = bar
        const filled = Math.max(38, (W - 320) * progress)
        roundedRect(ctx, at.x(270, filled), 185, filled, 38, 19)
        ctx.fill()
      }
      return canvas
    })
  }
}
