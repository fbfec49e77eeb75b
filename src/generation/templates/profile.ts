// The profile card: a banner (or a picture behind the whole card), the avatar with its
// decoration frame and presence, display name and username, badges, a subtitle, the
// date the member joined, and an optional rank block; every picture fetched from the
// caller's URLs or the operator's named icons and banners, never from a service of
// anyone else's (discord-arts' profileImage breaks when its hosted API is down).
import type { SKRSContext2D } from '@napi-rs/canvas'
import type { Drawable, Sized } from '../drawable.js'
import { colorField, mix } from '../canvas/color.js'
import { drawCover, fillTextLine, fitText, roundedRect, rowGradient, wrapText } from '../canvas/draw.js'
import { initialOf } from '../text/graphemes.js'
import { drawLine } from '../text/inline-text.js'
import { drawnText, markText, nameForInitial } from '../text/markup.js'
import { textDirection } from '../text/scripts.js'
import { AppError } from '../../errors.js'
import { AVATAR_SHAPES, COLOR_HINT, displayName as shownName, drawAvatar, drawStatus, LOCALE_FIELD, optionalImage, placement, STATUS_VALUES, statusField } from './card.js'
import { choiceField, dateField, numberField, optionalNumber, textField } from './fields.js'
import { direction, formatDate, formatNumber, label, localeOf } from '../locale/locale.js'
import { listValues, sized, type Template, type TemplateDeps, type TemplateFields } from './template.js'

/** Badges drawn at most: Discord shows about as many in a profile. */
export const MAX_BADGES = 12
/** Blur of the banner, in pixels of the large card. */
export const MAX_BLUR = 40
const WIDTH = 960
/** Where the names end, and the height each of the subtitle (two lines) and the rank block adds under them. */
const HEADER_HEIGHT = 330
const ROW_HEIGHT = 90
const BOTTOM = 30
/**
 * The card is laid out 960 wide and drawn at 800 (large) or 600 (small): Discord shows an
 * embed's picture at most about 520 wide, and each pixel more is encoding time.
 */
const SIZES = { large: 5 / 6, small: 5 / 8 } as const
const BANNER_STYLES = ['top', 'full'] as const
const SIZE_NAMES = ['large', 'small'] as const
/** From ten thousand, a number on the card is abbreviated in the locale (12.3K, 12,3 k, 1.2万). */
const ABBREVIATE_FROM = 10_000
const MAX_LEVEL = 1_000_000
const MAX_XP = 1e15

const AVATAR = { cx: 150, cy: 200, r: 100 }
const STRIP_HEIGHT = 200
const BORDER = 6
const BADGE = 36

export const profile: Template = {
  name: 'profile',
  summary: 'A profile card: banner, avatar with decoration and presence, names, badges, subtitle, member since and an optional rank block',
  defaultFormat: 'png',
  example: { display_name: 'Ada ✨', username: 'ada', status: 'online', badges: 'star,crown', subtitle: 'Counting engines since 1843', member_since: '2021-03-14', banner: 'aurora', level: '12', rank: '3', xp: '8420', max_xp: '12000' },
  imageBoxes: {
    avatar: { width: 180, height: 180 },
    decoration: { width: 220, height: 220 },
    banner: { width: 800, height: 450 },
    badges: { width: BADGE, height: BADGE }
  },
  fields: {
    display_name: { description: 'The name shown large (the username when absent); long names shrink, then end in "…"' },
    username: { description: 'The member\'s name', default: 'Someone' },
    avatar: { description: 'URL of the avatar image (a letter on a disc when absent)' },
    avatar_shape: { description: 'round or square (rounded corners)', default: 'round', values: () => AVATAR_SHAPES },
    decoration: { description: 'The avatar\'s decoration frame, drawn over it: an image URL (Discord\'s avatar decorations) or a name from /list/icons' },
    status: { description: 'Presence mark at the avatar\'s corner, in Discord\'s colours and shapes: online, idle, dnd, offline (or invisible), streaming; none (default) draws none', default: 'none', values: STATUS_VALUES },
    banner: { description: 'A name from /list/banners or an image URL, the background picture' },
    banner_style: { description: 'top (the banner above the names, default) or full (behind the whole card, under a shaded panel)', default: 'top', values: () => BANNER_STYLES },
    banner_blur: { description: `Blur of the banner in pixels, 0..${MAX_BLUR}`, default: '0', numeric: true },
    banner_brightness: { description: 'Brightness of the banner in percent, 0..100 (lower is dimmer)', default: '100', numeric: true },
    badges: { description: `Up to ${MAX_BADGES} badges, drawn in order from the name: image URLs or names from /list/icons, separated by commas (a query parameter) or a JSON array of strings (a body)`, list: true },
    subtitle: { description: 'A line or two under the names (a custom status, a bio)' },
    member_since: { description: 'The date the member joined: 2021-03-14, Unix time, or a Discord id (the date it was made)' },
    level: { description: 'Current level', default: '1', numeric: true },
    rank: { description: 'Position on the leaderboard', default: '1', numeric: true },
    xp: { description: 'XP within the current level', default: '0', numeric: true },
    max_xp: { description: 'XP needed for the next level', default: '100', numeric: true },
    accent: { description: `Accent colour ${COLOR_HINT}: the border, the strip without a banner, the bar`, default: '#5865f2' },
    accent_end: { description: `Second accent colour ${COLOR_HINT}: the accent becomes a gradient to it (default: the accent, deepened)` },
    background: { description: `Card colour ${COLOR_HINT}`, default: '#111214' },
    color_bar: { description: `Progress bar colour ${COLOR_HINT}` },
    color_text: { description: `Text colour ${COLOR_HINT}`, default: 'white' },
    size: { description: 'large (800 wide, 300 to 450 high as the subtitle and the rank block need; default) or small (600 wide, 225 to 338 high)', default: 'large', values: () => SIZE_NAMES },
    font: { description: 'A name from /list/fonts', default: 'Sans Serif' },
    locale: LOCALE_FIELD
  },
  async prepare<I extends Sized> ({ fonts, images }: TemplateDeps<I>, f: TemplateFields) {
    const locale = localeOf(f.locale)
    const rtl = direction(locale) === 'rtl'
    const username = textField(f, 'username')
    const displayName = textField(f, 'display_name') || shownName(f, locale)
    const shownUsername = username !== '' && username !== displayName ? username : ''
    const subtitle = textField(f, 'subtitle')
    const scale = SIZES[choiceField(f, 'size', SIZE_NAMES, 'large')]
    const shape = choiceField(f, 'avatar_shape', AVATAR_SHAPES, 'round')
    const status = statusField(f.status)
    const bannerStyle = choiceField(f, 'banner_style', BANNER_STYLES, 'top')
    const blur = numberField(f, 'banner_blur', { min: 0, max: MAX_BLUR }, 0)
    const brightness = numberField(f, 'banner_brightness', { min: 0, max: 100 }, 100)
    const accent = colorField(f.accent, '#5865f2', 'accent')
    // Without a second colour, the accent deepens a little across the card.
    const accentEnd = f.accent_end === undefined || f.accent_end.trim() === '' ? mix(accent, '#000000', 0.3) : colorField(f.accent_end, accent, 'accent_end')
    const background = colorField(f.background, '#111214', 'background')
    const text = colorField(f.color_text, 'white', 'color_text')
    const bar = colorField(f.color_bar, accent, 'color_bar')
    const joined = dateField(f, 'member_since')
    const level = optionalNumber(f, 'level', { min: 0, max: MAX_LEVEL })
    const xpGiven = optionalNumber(f, 'xp', { min: 0, max: MAX_XP })
    const rankBlock = level !== undefined || xpGiven !== undefined
    const xp = xpGiven ?? 0
    const maxXp = numberField(f, 'max_xp', { min: 1, max: MAX_XP }, 100)
    const rank = optionalNumber(f, 'rank', { min: 1, max: MAX_XP })
    const badgeValues = listValues(f.badges, 'badges')
    if (badgeValues.length > MAX_BADGES) {
      throw new AppError('VALIDATION', `Invalid "badges": ${badgeValues.length} badges; draw at most ${MAX_BADGES}`, { details: { field: 'badges' } })
    }
    const memberSince = joined === undefined ? '' : label(locale, 'profile.member_since', { date: formatDate(locale, joined) })
    const levelNow = level ?? 0
    const count = (n: number): string => formatNumber(locale, n, { abbreviate: Math.abs(n) >= ABBREVIATE_FROM })
    const levelText = `${label(locale, 'profile.level')} ${count(levelNow)}`
    const rankText = rank === undefined ? '' : `${label(locale, 'profile.rank')} #${count(rank)}`
    const toNextText = label(locale, 'profile.to_next', { xp: count(Math.max(0, maxXp - xp)), level: count(levelNow + 1) })
    // The labels too: a Thai or Arabic label loads its script's font.
    const family = fonts.family(f.font, 'font', [displayName, shownUsername, subtitle, memberSince, ...(rankBlock ? [levelText, rankText, toNextText] : [])].join('\n'))
    const emoji = images.emoji.bind(images)
    const [avatar, decoration, banner, badges, nameMarked, userMarked, subtitleMarked] = await Promise.all([
      optionalImage(async () => await images.url(f.avatar!, 'avatar'), f.avatar),
      optionalImage(async () => await images.assetOrUrl('icon', f.decoration!, 'decoration'), f.decoration),
      optionalImage(async () => await images.assetOrUrl('banner', f.banner!, 'banner'), f.banner),
      Promise.all(badgeValues.map(async (value) => await images.assetOrUrl('icon', value, 'badges'))),
      markText(displayName, emoji),
      markText(shownUsername, emoji),
      markText(subtitle, emoji)
    ])
    // The card is as high as what it shows: 360 with names alone, 540 with a subtitle and a rank block (before its scale).
    const subtitleTop = HEADER_HEIGHT + 42
    const rankTop = HEADER_HEIGHT + (subtitle !== '' ? ROW_HEIGHT : 0) + 42
    const height = HEADER_HEIGHT + (subtitle !== '' ? ROW_HEIGHT : 0) + (rankBlock ? ROW_HEIGHT : 0) + BOTTOM
    const W = Math.round(WIDTH * scale)
    const H = Math.round(height * scale)
    return sized<I>(W, H, (newCanvas, pixels) => {
      const canvas = newCanvas(W, H)
      const ctx = canvas.getContext('2d')
      ctx.scale(scale, scale)
      const w = WIDTH
      const h = height
      // The border: the accent (or its gradient) round the card, top to bottom, each row
      // of one colour (rowGradient: the picture stays flat for the PNG encoder).
      const gradient = rowGradient(newCanvas, h, [[0, accent], [1, accentEnd]])
      gradient(ctx, 0, 0, w, h)
      ctx.save()
      roundedRect(ctx, BORDER, BORDER, w - 2 * BORDER, h - 2 * BORDER, 28)
      ctx.clip()
      ctx.fillStyle = background
      ctx.fillRect(0, 0, w, h)
      const full = bannerStyle === 'full' && banner !== undefined
      const stripHeight = full ? h : STRIP_HEIGHT
      if (banner !== undefined) {
        drawBanner(ctx, pixels(banner), 0, 0, w, stripHeight, blur, brightness)
      } else {
        gradient(ctx, 0, 0, w, STRIP_HEIGHT)
      }
      if (full) {
        // The names on a shaded panel of the card's colour, over the picture.
        ctx.globalAlpha = 0.78
        ctx.fillStyle = background
        roundedRect(ctx, 24, STRIP_HEIGHT - 40, w - 48, h - STRIP_HEIGHT + 16, 24)
        ctx.fill()
        ctx.globalAlpha = 1
      }
      ctx.restore()

      // Right to left (ar), the card is mirrored (card.ts, placement): the avatar on the
      // right, the names aligned on it, the badges on the left, the bar filling from the right.
      const at = placement(w, rtl)
      const { cy, r } = AVATAR
      const cx = at.x(AVATAR.cx)
      drawAvatar(ctx, pixels(avatar), cx, cy, r, background, initialOf(nameForInitial(displayName)), family, shape, 8)
      if (decoration !== undefined) drawCover(ctx, pixels(decoration), cx - r * 1.2, cy - r * 1.2, r * 2.4, r * 2.4)
      if (status !== undefined) {
        const corner = shape === 'round' ? r * Math.SQRT1_2 : r * 0.86
        drawStatus(ctx, status, cx + (rtl ? -corner : corner), cy + corner, r * 0.2, background)
      }

      // Badges in a pill at the end of the name's row (on the left of a mirrored card), the first nearest the name.
      let badgesWidth = 0
      if (badges.length > 0) {
        const gap = 8
        const pad = 10
        badgesWidth = badges.length * BADGE + (badges.length - 1) * gap + 2 * pad
        const x = w - 40 - badgesWidth
        const y = 222
        ctx.fillStyle = 'rgba(0,0,0,0.35)'
        roundedRect(ctx, at.x(x, badgesWidth), y, badgesWidth, BADGE + 2 * pad - 4, 14)
        ctx.fill()
        badges.forEach((badge, i) => drawContain(ctx, pixels(badge), at.x(x + pad + i * (BADGE + gap), BADGE), y + pad - 2, BADGE, BADGE))
      }

      const textX = AVATAR.cx + r + 32
      const nameLine = drawnText(nameMarked, pixels)
      const userLine = drawnText(userMarked, pixels)
      ctx.textBaseline = 'alphabetic'
      ctx.textAlign = at.start
      ctx.fillStyle = text
      const nameWidth = w - 40 - textX - (badgesWidth > 0 ? badgesWidth + 20 : 0)
      fillTextLine(ctx, fitText(ctx, nameLine.text, family, 'bold', 46, 24, nameWidth, nameLine.images), at.x(textX), 256, 'fill', nameLine.images)
      ctx.globalAlpha = 0.72
      let sinceWidth = 0
      if (memberSince !== '') {
        ctx.font = `normal 22px ${family}`
        sinceWidth = ctx.measureText(memberSince).width
        ctx.textAlign = at.end
        fillTextLine(ctx, memberSince, at.x(w - 40), 306)
        ctx.textAlign = at.start
      }
      if (shownUsername !== '') {
        fillTextLine(ctx, fitText(ctx, userLine.text, family, 'normal', 28, 18, w - 40 - textX - (sinceWidth > 0 ? sinceWidth + 24 : 0), userLine.images), at.x(textX), 306, 'fill', userLine.images)
      }
      ctx.globalAlpha = 1

      if (subtitle !== '') {
        const marked = drawnText(subtitleMarked, pixels)
        const boxX = 48
        const boxW = w - 96
        const size = 28
        ctx.font = `normal ${size}px ${family}`
        let lines = wrapText(ctx, marked.text, boxW, marked.images)
        const maxLines = 2
        if (lines.length > maxLines) lines = [...lines.slice(0, maxLines - 1), fitText(ctx, lines.slice(maxLines - 1).join(' '), family, 'normal', size, size, boxW, marked.images)]
        ctx.font = `normal ${size}px ${family}`
        ctx.fillStyle = text
        ctx.globalAlpha = 0.9
        // Laid out in its own direction; aligned on the right when it reads right to left,
        // or when the card does (a Latin status on an Arabic card).
        const lineDirection = textDirection(subtitle)
        ctx.direction = lineDirection
        const alignRight = rtl || lineDirection === 'rtl'
        ctx.textAlign = alignRight ? 'right' : 'left'
        lines.forEach((line, i) => drawLine(ctx, line, alignRight ? boxX + boxW : boxX, subtitleTop + i * size * 1.3, 'fill', marked.images))
        ctx.direction = 'ltr'
        ctx.textAlign = at.start
        ctx.globalAlpha = 1
      }

      if (rankBlock) {
        const left = 48
        const right = w - 48
        const top = rankTop
        ctx.fillStyle = text
        ctx.font = `bold 26px ${family}`
        ctx.textAlign = at.start
        fillTextLine(ctx, levelText, at.x(left), top)
        if (rank !== undefined) {
          const levelWidth = ctx.measureText(levelText).width
          ctx.font = `normal 24px ${family}`
          ctx.globalAlpha = 0.72
          fillTextLine(ctx, rankText, at.x(left + levelWidth + 24), top)
          ctx.globalAlpha = 1
        }
        ctx.font = `normal 22px ${family}`
        ctx.textAlign = at.end
        ctx.globalAlpha = 0.72
        fillTextLine(ctx, toNextText, at.x(right), top)
        ctx.globalAlpha = 1
        ctx.textAlign = 'left'
        ctx.fillStyle = 'rgba(255,255,255,0.14)'
        roundedRect(ctx, left, top + 16, right - left, 22, 11)
        ctx.fill()
        const progress = Math.min(1, xp / maxXp)
        if (progress > 0) {
          ctx.fillStyle = bar
          const filled = Math.max(22, (right - left) * progress)
          roundedRect(ctx, at.x(left, filled), top + 16, filled, 22, 11)
          ctx.fill()
        }
      }
      return canvas
    })
  }
}

/** The banner in its box (cover), blurred and dimmed as asked; a blur's soft edge falls outside the box. */
function drawBanner (ctx: SKRSContext2D, image: Drawable, x: number, y: number, w: number, h: number, blur: number, brightness: number): void {
  ctx.save()
  ctx.beginPath()
  ctx.rect(x, y, w, h)
  ctx.clip()
  const filters = [blur > 0 ? `blur(${blur}px)` : '', brightness < 100 ? `brightness(${brightness}%)` : ''].filter((s) => s !== '')
  if (filters.length > 0) ctx.filter = filters.join(' ')
  const bleed = blur * 2
  drawCover(ctx, image, x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed)
  ctx.restore()
}

/** An image inside w×h, its whole drawn, centred (CSS object-fit: contain): a badge keeps its shape. */
function drawContain (ctx: SKRSContext2D, image: Drawable, x: number, y: number, w: number, h: number): void {
  const s = Math.min(w / image.width, h / image.height)
  const dw = image.width * s
  const dh = image.height * s
  ctx.drawImage(image, x + (w - dw) / 2, y + (h - dh) / 2, dw, dh)
}
