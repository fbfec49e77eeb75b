// The leaderboard card: a header (image, title, subtitle, the page) over one row per
// player of the page asked for (rank, avatar, display name and username, level and XP
// or any value with its label), the member asked for highlighted. Players: leaderboard-players.ts.
import type { SKRSContext2D } from '@napi-rs/canvas'
import { AppError } from '../../errors.js'
import type { Sized } from '../drawable.js'
import { colorField, cssColor, parseColor } from '../canvas/color.js'
import { fillTextLine, fitText, roundedRect } from '../canvas/draw.js'
import { direction, formatNumber, label as localeLabel, type Locale, localeOf } from '../locale/locale.js'
import { initialOf } from '../text/graphemes.js'
import { drawnText, markText, type MarkedText, nameForInitial } from '../text/markup.js'
import { COLOR_HINT, drawAvatar, LOCALE_FIELD, optionalImage, placement, startCard } from './card.js'
import { isHighlighted, MAX_LABEL_LENGTH, MAX_NAME_LENGTH, MAX_PER_PAGE, MAX_PLAYERS, pageOf, parsePlayers, type Player, DEFAULT_PER_PAGE } from './leaderboard-players.js'
import { sized, type Template, type TemplateDeps, type TemplateFields } from './template.js'

const W = 720
const HEADER_H = 170
const ROW_H = 68
const ROW_PITCH = 76
const FOOT = 28
const AVATAR_R = 24
/** The medals' colours of the first three ranks. */
const MEDALS = ['#f5c542', '#c9d1d9', '#d98c4a']

/** The card's fixed words in the request's locale (src/generation/locale/). */
function label (locale: Locale, key: 'title' | 'level' | 'xp' | 'rank' | 'page', vars: Record<string, string | number> = {}): string {
  return localeLabel(locale, `leaderboard.${key}`, vars)
}

function flag (value: string | undefined, field: string, fallback: boolean): boolean {
  const v = (value ?? '').trim().toLowerCase()
  if (v === '') return fallback
  if (v === 'true' || v === '1' || v === 'yes') return true
  if (v === 'false' || v === '0' || v === 'no') return false
  throw new AppError('VALIDATION', `Invalid "${field}": "${v.slice(0, 20)}"; use true or false`, { details: { field } })
}

function bounded (value: string | undefined, field: string, max: number): string {
  const s = (value ?? '').trim()
  if (s.length > max) throw new AppError('VALIDATION', `Invalid "${field}": at most ${max} characters (got ${s.length})`, { details: { field } })
  return s
}

/** The colour with another alpha: the highlighted row's fill from the accent colour. */
function withAlpha (color: string, alpha: number): string {
  const c = parseColor(color)
  return c === undefined ? color : cssColor({ ...c, a: Math.round(c.a * alpha) })
}

/** What a player's row shows on its right: the main figure and the line under it. */
function figures (p: Player, valueLabel: string, abbreviate: boolean, locale: Locale): { main: string, sub: string } {
  const count = (n: number): string => formatNumber(locale, n, { abbreviate })
  const level = p.level === undefined ? '' : `${label(locale, 'level')} ${count(p.level)}`
  if (p.value !== undefined) return { main: `${count(p.value)} ${p.label ?? valueLabel}`.trim(), sub: level }
  if (p.xp !== undefined) return { main: `${count(p.xp)} ${label(locale, 'xp')}`, sub: level }
  return { main: level, sub: '' }
}

interface Row<I> { player: Player, avatar: I | undefined, name: MarkedText<I>, handle: MarkedText<I> | undefined, initial: string }

export const leaderboard: Template = {
  name: 'leaderboard',
  summary: 'A leaderboard: a header and a page of up to 20 of 100 players (rank, avatar, names, level and XP or any value), the current member highlighted',
  defaultFormat: 'png',
  // The OpenAPI document's example: players as a JSON array, a page of them.
  example: { title: 'Top chatters', players: [{ display_name: 'Ada', username: 'ada', avatar: 'https://cdn.discordapp.com/embed/avatars/0.png', level: 12, xp: 8420 }, { display_name: 'Grace', username: 'grace', level: 9, xp: 5120 }], per_page: 10, page: 1, highlight: 'grace' },
  imageBoxes: { 'players[].avatar': { width: 2 * AVATAR_R, height: 2 * AVATAR_R }, image: { width: 96, height: 96 }, banner: { width: W, height: HEADER_H + MAX_PER_PAGE * ROW_PITCH + FOOT } },
  fields: {
    players: {
      description: `The players, 1 to ${MAX_PLAYERS}: a JSON array (a JSON value in a body, or JSON text in the query string) of objects with username and/or display_name (at most ${MAX_NAME_LENGTH} characters, Discord emoji markup drawn), avatar (an image URL), level, xp, value with its label (any score, shown instead of the XP), rank (default: the place in the list; players are drawn by rank) and id; keys in any case (displayName works)`,
      json: true
    },
    page: { description: 'The page drawn, from 1 to the page count', default: '1', numeric: true },
    per_page: { description: `Players a page draws, 1 to ${MAX_PER_PAGE}`, default: String(DEFAULT_PER_PAGE), numeric: true },
    title: { description: 'The header\'s title (default: "Leaderboard" in the locale)', default: 'Leaderboard' },
    subtitle: { description: 'The line under the title (with the page count when there are several pages)', default: '' },
    image: { description: 'A name from /list/icons or an image URL, the header\'s round picture (a server icon)' },
    highlight: { description: 'The current member: a player\'s id, username or rank; that row is drawn in the accent colour' },
    label: { description: `The label of players' value (e.g. "messages"), at most ${MAX_LABEL_LENGTH} characters; a player's own label wins` },
    abbreviate: { description: 'true (default): numbers in the locale\'s short form (1.2K, 1,2 k, 1234 and 1.2万); false: in full (1,234)', default: 'true' },
    background: { description: `Card colour ${COLOR_HINT}`, default: '#1e1f22' },
    banner: { description: 'A name from /list/banners or an image URL behind the card' },
    color_text: { description: `Text colour ${COLOR_HINT}`, default: 'white' },
    color_accent: { description: `The highlighted row's colour ${COLOR_HINT}`, default: '#5865f2' },
    font: { description: 'A name from /list/fonts', default: 'Sans Serif' },
    locale: LOCALE_FIELD
  },
  async prepare<I extends Sized> ({ fonts, images }: TemplateDeps<I>, f: TemplateFields) {
    const page = pageOf(parsePlayers(f.players), f.page, f.per_page)
    const locale = localeOf(f.locale)
    const p = placement(W, direction(locale) === 'rtl')
    const title = bounded(f.title, 'title', MAX_NAME_LENGTH) || label(locale, 'title')
    const subtitle = bounded(f.subtitle, 'subtitle', MAX_NAME_LENGTH)
    const valueLabel = bounded(f.label, 'label', MAX_LABEL_LENGTH)
    const abbreviate = flag(f.abbreviate, 'abbreviate', true)
    const background = colorField(f.background, '#1e1f22', 'background')
    const text = colorField(f.color_text, 'white', 'color_text')
    const accent = colorField(f.color_accent, '#5865f2', 'color_accent')
    const pageLine = page.pages > 1 ? label(locale, 'page', { page: formatNumber(locale, page.page), pages: formatNumber(locale, page.pages) }) : ''
    const names = page.players.flatMap((p) => [p.displayName ?? '', p.username ?? '', p.label ?? ''])
    // Every text drawn, the locale's words included: the font's fallback chain covers them all.
    const family = fonts.family(f.font, 'font', [title, subtitle, valueLabel, pageLine, label(locale, 'level'), label(locale, 'xp'), formatNumber(locale, 123_456, { abbreviate }), ...names].join('\n'))
    const emoji = images.emoji.bind(images)
    // Only the page's players' avatars are fetched, all at once.
    const [headerImage, banner, titleMarked, subtitleMarked, rows] = await Promise.all([
      optionalImage(async () => await images.assetOrUrl('icon', f.image!, 'image'), f.image),
      optionalImage(async () => await images.assetOrUrl('banner', f.banner!, 'banner'), f.banner),
      markText(title, emoji),
      markText(subtitle, emoji),
      Promise.all(page.players.map(async (player, i): Promise<Row<I>> => {
        const shown = player.displayName ?? player.username!
        const [avatar, name, handle] = await Promise.all([
          optionalImage(async () => await images.url(player.avatar!, `players[${page.offset + i}].avatar`), player.avatar),
          markText(shown, emoji),
          player.displayName !== undefined && player.username !== undefined ? markText(`@${player.username.replace(/^@/, '')}`, emoji) : undefined
        ])
        return { player, avatar, name, handle, initial: initialOf(nameForInitial(shown)) }
      }))
    ])
    const H = HEADER_H + rows.length * ROW_PITCH + FOOT
    return sized<I>(W, H, (newCanvas, pixels) => {
      const { canvas, ctx } = startCard(newCanvas, W, H, background, pixels(banner), { inset: 16, radius: 24, shade: 'rgba(0,0,0,0.35)' })
      ctx.textBaseline = 'alphabetic'
      // Laid out from the start of the locale's lines: mirrored right to left (card.ts, placement).
      ctx.textAlign = p.start
      // The header: the picture, the title, the subtitle and the page.
      let textX = 48
      if (headerImage !== undefined) {
        drawAvatar(ctx, pixels(headerImage), p.x(48 + 44), 90, 44, withAlpha(text, 0.85), '', family, 'round', 4)
        textX = 48 + 88 + 24
      }
      const titleLine = drawnText(titleMarked, pixels)
      ctx.fillStyle = text
      fillTextLine(ctx, fitText(ctx, titleLine.text, family, 'bold', 40, 22, W - textX - 48, titleLine.images), p.x(textX), subtitle === '' && pageLine === '' ? 104 : 88, 'fill', titleLine.images)
      const sub = [subtitle, pageLine].filter((s) => s !== '').join('  ·  ')
      if (sub !== '') {
        const subLine = drawnText(subtitleMarked, pixels)
        // The page count after the subtitle, the subtitle's emoji kept.
        const line = subtitle === '' ? pageLine : pageLine === '' ? subLine.text : `${subLine.text}  ·  ${pageLine}`
        ctx.globalAlpha = 0.7
        fillTextLine(ctx, fitText(ctx, line, family, 'normal', 22, 14, W - textX - 48, subLine.images), p.x(textX), 124, 'fill', subLine.images)
        ctx.globalAlpha = 1
      }
      rows.forEach((row, i) => drawRow(ctx, row, HEADER_H + i * ROW_PITCH, isHighlighted(row.player, f.highlight)))
      return canvas

      function drawRow (ctx: SKRSContext2D, row: Row<I>, top: number, highlighted: boolean): void {
        const x = 32
        const w = W - 64
        ctx.fillStyle = highlighted ? withAlpha(accent, 0.35) : 'rgba(255,255,255,0.06)'
        roundedRect(ctx, x, top, w, ROW_H, 16)
        ctx.fill()
        if (highlighted) {
          ctx.strokeStyle = accent
          ctx.lineWidth = 3
          roundedRect(ctx, x + 1.5, top + 1.5, w - 3, ROW_H - 3, 15)
          ctx.stroke()
        }
        const cy = top + ROW_H / 2
        // The rank: the first three on their medal's disc.
        const rank = row.player.rank
        const medal = rank <= 3 ? MEDALS[rank - 1] : undefined
        if (medal !== undefined) {
          ctx.fillStyle = medal
          ctx.beginPath(); ctx.arc(p.x(x + 40), cy, 20, 0, Math.PI * 2); ctx.fill()
          ctx.fillStyle = '#1e1f22'
        } else {
          ctx.fillStyle = text
        }
        ctx.textAlign = 'center'
        ctx.font = `bold 22px ${family}`
        const rankText = fitText(ctx, medal === undefined ? `#${rank}` : String(rank), family, 'bold', 22, 11, medal === undefined ? 64 : 36)
        ctx.fillText(rankText, p.x(x + 40), cy + 8)
        drawAvatar(ctx, pixels(row.avatar), p.x(x + 112), cy, AVATAR_R, withAlpha(highlighted ? accent : text, 0.8), row.initial, family, 'round', 3)
        // The figures on the right, measured first: the names take what is left.
        const { main, sub } = figures(row.player, valueLabel, abbreviate, locale)
        const right = x + w - 24
        ctx.textAlign = p.end
        ctx.fillStyle = text
        const mainText = fitText(ctx, main, family, 'bold', 22, 12, 200)
        const mainWidth = ctx.measureText(mainText).width
        ctx.fillText(mainText, p.x(right), sub === '' ? cy + 8 : cy - 2)
        let subWidth = 0
        if (sub !== '') {
          ctx.globalAlpha = 0.65
          const subText = fitText(ctx, sub, family, 'normal', 16, 11, 200)
          subWidth = ctx.measureText(subText).width
          ctx.fillText(subText, p.x(right), cy + 20)
          ctx.globalAlpha = 1
        }
        ctx.textAlign = p.start
        const nameX = x + 152
        const nameWidth = right - Math.max(mainWidth, subWidth) - 20 - nameX
        const name = drawnText(row.name, pixels)
        fillTextLine(ctx, fitText(ctx, name.text, family, 'bold', 22, 14, nameWidth, name.images), p.x(nameX), row.handle === undefined ? cy + 8 : cy - 2, 'fill', name.images)
        if (row.handle !== undefined) {
          const handle = drawnText(row.handle, pixels)
          ctx.globalAlpha = 0.65
          fillTextLine(ctx, fitText(ctx, handle.text, family, 'normal', 16, 11, nameWidth, handle.images), p.x(nameX), cy + 20, 'fill', handle.images)
          ctx.globalAlpha = 1
        }
      }
    })
  }
}
