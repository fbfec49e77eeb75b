// The /gen/{template} pictures. Every field is a string (as clients send them) and
// optional; each has a default so that a GET URL with only `username` is a picture.
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas'
import type { Drawable } from './assets.js'
import type { NewCanvas } from './canvas-pool.js'
import { colorField } from './color.js'
import { drawCover, fitText, type OutputFormat, roundedRect, wrapText } from './draw.js'
import type { FontRegistry } from './fonts.js'
import type { ImageSource } from './image-source.js'

export const MAX_FIELD_LENGTH = 2000

export interface TemplateDeps { fonts: FontRegistry, images: ImageSource }
export type TemplateFields = Record<string, string | undefined>
/**
 * Draws a prepared picture on a canvas made by `newCanvas` (the server's pool, or
 * createCanvas): CPU work only, nothing left to wait for.
 */
export type Draw = (newCanvas: NewCanvas) => Canvas

export interface FieldDoc { description: string, default?: string }

export interface Template {
  name: string
  summary: string
  defaultFormat: OutputFormat
  fields: Record<string, FieldDoc>
  /**
   * Checks the fields and fetches and decodes every image they name (URLs, assets);
   * the returned function draws. The split keeps network waits out of the render
   * slot: a slow avatar server must not hold a CPU slot other requests could use.
   */
  prepare (deps: TemplateDeps, fields: TemplateFields): Promise<Draw>
  /**
   * The box each image field is drawn in (cover): a larger image is decoded shrunk to
   * it (src/generation/render-job.ts), so a 5000×5000 avatar never becomes 100 MB of pixels.
   */
  imageBoxes: Record<string, { width: number, height: number }>
}

const COLOR_HINT = '(a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a")'

async function optionalImage (load: () => Promise<Drawable>, value: string | undefined): Promise<Drawable | undefined> {
  return value === undefined || value.trim() === '' ? undefined : await load()
}

function drawAvatar (ctx: SKRSContext2D, avatar: Drawable | undefined, cx: number, cy: number, r: number, ring: string, initial: string, family: string): void {
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
    ctx.fillText(initial, cx, cy)
  }
  ctx.restore()
}

/**
 * A canvas filled with the background colour, the banner drawn over it (cover), and a
 * rounded shaded panel inset from the edges, on which every card template draws.
 */
function startCard (newCanvas: NewCanvas, W: number, H: number, background: string, banner?: Drawable, panel?: { inset: number, radius: number, shade: string }): { canvas: Canvas, ctx: SKRSContext2D } {
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

function displayName (f: TemplateFields): string {
  return (f.username ?? '').trim() || 'Someone'
}

function bannerTemplate (name: string, title: string, titleColor: string, summary: string): Template {
  return {
    name,
    summary,
    defaultFormat: 'png',
    imageBoxes: { avatar: { width: 280, height: 280 }, banner: { width: 1024, height: 450 }, icon: { width: 88, height: 88 } },
    fields: {
      username: { description: 'The member\'s name; long names shrink, then end in "…"', default: 'Someone' },
      avatar: { description: 'URL of the avatar image (a letter on a disc when absent)' },
      background: { description: `Background colour ${COLOR_HINT}, under the banner`, default: '#23272a' },
      members: { description: 'Third line, free text, e.g. "Member #42"', default: '' },
      icon: { description: 'A name from /list/icons or an image URL, drawn in the top right corner' },
      banner: { description: 'A name from /list/banners or an image URL, the background picture' },
      color_welcome: { description: `Colour of the "${title}" line ${COLOR_HINT}`, default: titleColor },
      color_username: { description: `Colour of the username ${COLOR_HINT}`, default: 'white' },
      color_members: { description: `Colour of the members line ${COLOR_HINT}`, default: '#c8ccd0' },
      font: { description: 'A name from /list/fonts', default: 'Sans Serif' },
      text: { description: `The title line instead of "${title}"`, default: title }
    },
    async prepare ({ fonts, images }, f) {
      const W = 1024
      const H = 450
      const family = fonts.family(f.font)
      const background = colorField(f.background, '#23272a', 'background')
      const colors = {
        title: colorField(f.color_welcome, titleColor, 'color_welcome'),
        username: colorField(f.color_username, 'white', 'color_username'),
        members: colorField(f.color_members, '#c8ccd0', 'color_members')
      }
      const [avatar, banner, icon] = await Promise.all([
        optionalImage(async () => await images.url(f.avatar!, 'avatar'), f.avatar),
        optionalImage(async () => await images.assetOrUrl('banner', f.banner!, 'banner'), f.banner),
        optionalImage(async () => await images.assetOrUrl('icon', f.icon!, 'icon'), f.icon)
      ])
      return (newCanvas) => {
        const { canvas, ctx } = startCard(newCanvas, W, H, background, banner, { inset: 24, radius: 28, shade: 'rgba(0,0,0,0.35)' })
        const username = displayName(f)
        drawAvatar(ctx, avatar, 230, H / 2, 140, 'rgba(255,255,255,0.9)', [...username][0]!.toUpperCase(), family)
        if (icon) drawCover(ctx, icon, W - 140, 48, 88, 88)
        const textX = 420
        const maxWidth = W - textX - (icon ? 160 : 60)
        ctx.textAlign = 'left'
        ctx.textBaseline = 'alphabetic'
        ctx.fillStyle = colors.title
        ctx.fillText(fitText(ctx, (f.text ?? '').trim() || title, family, 'bold', 72, 32, maxWidth), textX, 175)
        ctx.fillStyle = colors.username
        ctx.fillText(fitText(ctx, username, family, 'bold', 56, 26, W - textX - 60), textX, 262)
        const members = (f.members ?? '').trim()
        if (members !== '') {
          ctx.fillStyle = colors.members
          ctx.fillText(fitText(ctx, members, family, 'normal', 36, 20, W - textX - 60), textX, 330)
        }
        return canvas
      }
    }
  }
}

function num (value: string | undefined, fallback: number): number {
  const n = Number((value ?? '').trim().replace(/,/g, ''))
  return value === undefined || value.trim() === '' || !Number.isFinite(n) ? fallback : n
}

/** The unit a number is written in: M from a million, K from ten thousand, else none. */
function unitOf (n: number): { divisor: number, suffix: string } {
  if (Math.abs(n) >= 1e6) return { divisor: 1e6, suffix: 'M' }
  if (Math.abs(n) >= 1e4) return { divisor: 1e3, suffix: 'K' }
  return { divisor: 1, suffix: '' }
}

function inUnit (n: number, { divisor, suffix }: { divisor: number, suffix: string }): string {
  return divisor === 1 ? String(Math.round(n)) : `${(n / divisor).toFixed(1).replace(/\.0$/, '')}${suffix}`
}

function compact (n: number): string {
  return inUnit(n, unitOf(n))
}

/**
 * "xp / max XP" with both numbers in the unit the larger one needs: written one by
 * one, 8420 of 12000 read "8420 / 12K".
 */
export function xpProgress (xp: number, maxXp: number): string {
  const unit = unitOf(Math.max(Math.abs(xp), Math.abs(maxXp)))
  return `${inUnit(xp, unit)} / ${inUnit(maxXp, unit)} XP`
}

const rank: Template = {
  name: 'rank',
  summary: 'A rank / level card: avatar, name, level, rank and an XP progress bar',
  defaultFormat: 'png',
  imageBoxes: { avatar: { width: 180, height: 180 }, banner: { width: 934, height: 282 } },
  fields: {
    username: { description: 'The member\'s name', default: 'Someone' },
    avatar: { description: 'URL of the avatar image' },
    level: { description: 'Current level', default: '1' },
    rank: { description: 'Position on the leaderboard', default: '1' },
    xp: { description: 'XP within the current level', default: '0' },
    max_xp: { description: 'XP needed for the next level', default: '100' },
    background: { description: `Card colour ${COLOR_HINT}`, default: '#23272a' },
    banner: { description: 'A name from /list/banners or an image URL behind the card' },
    color_bar: { description: `Progress bar colour ${COLOR_HINT}`, default: '#5865f2' },
    color_text: { description: `Text colour ${COLOR_HINT}`, default: 'white' },
    font: { description: 'A name from /list/fonts', default: 'Sans Serif' }
  },
  async prepare ({ fonts, images }, f) {
    const W = 934
    const H = 282
    const family = fonts.family(f.font)
    const background = colorField(f.background, '#23272a', 'background')
    const bar = colorField(f.color_bar, '#5865f2', 'color_bar')
    const text = colorField(f.color_text, 'white', 'color_text')
    const [avatar, banner] = await Promise.all([
      optionalImage(async () => await images.url(f.avatar!, 'avatar'), f.avatar),
      optionalImage(async () => await images.assetOrUrl('banner', f.banner!, 'banner'), f.banner)
    ])
    const xp = Math.max(0, num(f.xp, 0))
    const maxXp = Math.max(1, num(f.max_xp, 100))
    return (newCanvas) => {
      const { canvas, ctx } = startCard(newCanvas, W, H, background, banner, { inset: 20, radius: 20, shade: 'rgba(0,0,0,0.4)' })
      const username = displayName(f)
      drawAvatar(ctx, avatar, 141, H / 2, 90, 'rgba(255,255,255,0.85)', [...username][0]!.toUpperCase(), family)
      ctx.fillStyle = text
      ctx.textAlign = 'right'
      ctx.font = `bold 40px ${family}`
      const levelText = `LEVEL ${compact(num(f.level, 1))}`
      ctx.fillText(levelText, W - 50, 82)
      const levelWidth = ctx.measureText(levelText).width
      ctx.font = `normal 32px ${family}`
      ctx.fillText(`RANK #${compact(num(f.rank, 1))}`, W - 70 - levelWidth, 82)
      ctx.textAlign = 'left'
      ctx.fillText(fitText(ctx, username, family, 'bold', 40, 20, 440), 270, 160)
      ctx.textAlign = 'right'
      ctx.font = `normal 26px ${family}`
      ctx.fillText(xpProgress(xp, maxXp), W - 50, 160)
      ctx.fillStyle = 'rgba(255,255,255,0.2)'
      roundedRect(ctx, 270, 185, W - 320, 38, 19)
      ctx.fill()
      const progress = Math.min(1, xp / maxXp)
      if (progress > 0) {
        ctx.fillStyle = bar
        roundedRect(ctx, 270, 185, Math.max(38, (W - 320) * progress), 38, 19)
        ctx.fill()
      }
      return canvas
    }
  }
}

const quote: Template = {
  name: 'quote',
  summary: 'A quote card: a message in large type with the author\'s avatar and name',
  defaultFormat: 'png',
  imageBoxes: { avatar: { width: 200, height: 200 } },
  fields: {
    text: { description: 'The quoted message; wraps, and shrinks when long', default: '…' },
    username: { description: 'Who said it', default: 'Someone' },
    avatar: { description: 'URL of the author\'s avatar image' },
    background: { description: `Background colour ${COLOR_HINT}`, default: '#1e1f22' },
    color_text: { description: `Text colour ${COLOR_HINT}`, default: 'white' },
    font: { description: 'A name from /list/fonts', default: 'Noto Serif' }
  },
  async prepare ({ fonts, images }, f) {
    const W = 1024
    const H = 512
    const family = fonts.family((f.font ?? '').trim() || 'Noto Serif')
    const background = colorField(f.background, '#1e1f22', 'background')
    const color = colorField(f.color_text, 'white', 'color_text')
    const avatar = await optionalImage(async () => await images.url(f.avatar!, 'avatar'), f.avatar)
    return (newCanvas) => {
      const { canvas, ctx } = startCard(newCanvas, W, H, background)
      const username = displayName(f)
      drawAvatar(ctx, avatar, 150, H / 2, 100, 'rgba(255,255,255,0.6)', [...username][0]!.toUpperCase(), family)
      const message = `“${(f.text ?? '').trim() || '…'}”`
      const boxX = 300
      const boxW = W - boxX - 50
      let size = 48
      let lines: string[] = []
      for (; size >= 18; size -= 4) {
        ctx.font = `italic ${size}px ${family}`
        lines = wrapText(ctx, message, boxW)
        if (lines.length * size * 1.3 <= H - 160) break
      }
      const maxLines = Math.max(1, Math.floor((H - 160) / (size * 1.3)))
      if (lines.length > maxLines) lines = [...lines.slice(0, maxLines - 1), fitText(ctx, lines.slice(maxLines - 1).join(' '), family, 'italic', size, size, boxW)]
      ctx.font = `italic ${size}px ${family}`
      ctx.fillStyle = color
      ctx.textAlign = 'left'
      const top = (H - 80 - lines.length * size * 1.3) / 2 + size
      lines.forEach((line, i) => ctx.fillText(line, boxX, top + i * size * 1.3))
      ctx.fillStyle = color
      ctx.globalAlpha = 0.75
      ctx.fillText(fitText(ctx, `— ${username}`, family, 'normal', 32, 18, boxW), boxX, H - 60)
      ctx.globalAlpha = 1
      return canvas
    }
  }
}

export const TEMPLATES: readonly Template[] = [
  bannerTemplate('welcome', 'WELCOME', 'white', 'A welcome banner: avatar, username, member count, icon and banner'),
  bannerTemplate('goodbye', 'GOODBYE', '#ff8a80', 'A goodbye banner, the welcome banner\'s twin for members who leave'),
  rank,
  quote
]

/** Field names a template reads, lower-cased (query and body keys are case-insensitive). */
export function templateByName (name: string): Template | undefined {
  return TEMPLATES.find((t) => t.name === name.toLowerCase())
}
