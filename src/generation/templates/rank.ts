// The rank / level card: avatar, name, level, rank and an XP progress bar.
import type { Sized } from '../drawable.js'
import { colorField } from '../canvas/color.js'
import { fillTextLine, fitText, roundedRect } from '../canvas/draw.js'
import { initialOf } from '../text/graphemes.js'
import { drawnText, markText, nameForInitial } from '../text/markup.js'
import { COLOR_HINT, displayName, drawAvatar, optionalImage, startCard } from './card.js'
import { sized, type Template, type TemplateDeps, type TemplateFields } from './template.js'

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
    font: { description: 'A name from /list/fonts', default: 'Sans Serif' }
  },
  async prepare<I extends Sized> ({ fonts, images }: TemplateDeps<I>, f: TemplateFields) {
    const W = 934
    const H = 282
    const username = displayName(f)
    const family = fonts.family(f.font, 'font', username)
    const background = colorField(f.background, '#23272a', 'background')
    const bar = colorField(f.color_bar, '#5865f2', 'color_bar')
    const text = colorField(f.color_text, 'white', 'color_text')
    const [avatar, banner, nameMarked] = await Promise.all([
      optionalImage(async () => await images.url(f.avatar!, 'avatar'), f.avatar),
      optionalImage(async () => await images.assetOrUrl('banner', f.banner!, 'banner'), f.banner),
      markText(username, images.emoji.bind(images))
    ])
    const xp = Math.max(0, num(f.xp, 0))
    const maxXp = Math.max(1, num(f.max_xp, 100))
    return sized<I>(W, H, (newCanvas, pixels) => {
      const nameLine = drawnText(nameMarked, pixels)
      const { canvas, ctx } = startCard(newCanvas, W, H, background, pixels(banner), { inset: 20, radius: 20, shade: 'rgba(0,0,0,0.4)' })
      drawAvatar(ctx, pixels(avatar), 141, H / 2, 90, 'rgba(255,255,255,0.85)', initialOf(nameForInitial(username)), family)
      ctx.fillStyle = text
      ctx.textAlign = 'right'
      ctx.font = `bold 40px ${family}`
      const levelText = `LEVEL ${compact(num(f.level, 1))}`
      ctx.fillText(levelText, W - 50, 82)
      const levelWidth = ctx.measureText(levelText).width
      ctx.font = `normal 32px ${family}`
      ctx.fillText(`RANK #${compact(num(f.rank, 1))}`, W - 70 - levelWidth, 82)
      ctx.textAlign = 'left'
      fillTextLine(ctx, fitText(ctx, nameLine.text, family, 'bold', 40, 20, 440, nameLine.images), 270, 160, 'fill', nameLine.images)
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
    })
  }
}
