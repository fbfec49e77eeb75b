// The now-playing card of music bots: album art, title, artist, elapsed and total time
// with a progress bar, an optional queue line; dark or light, tinted by a colour given
// or, when none is, by the album art's dominant colour (the colours of a picture, as
// GET /color/image finds them: src/colors/picture-colors.ts).
import type { SKRSContext2D } from '@napi-rs/canvas'
import { paletteOf } from '../../colors/picture-colors.js'
import { toHex } from '../../colors/convert.js'
import type { Drawable, Sized } from '../drawable.js'
import type { NewCanvas } from '../canvas/canvas-pool.js'
import { colorField, mix, withLightness } from '../canvas/color.js'
import { drawCover, fillTextLine, fitText, roundedRect, rowGradient } from '../canvas/draw.js'
import { drawnText, markText } from '../text/markup.js'
import { AppError } from '../../errors.js'
import { COLOR_HINT, LOCALE_FIELD, optionalImage, placement } from './card.js'
import { choiceField, durationField, numberField, textField } from './fields.js'
import { direction, formatNumber, intlTag, label, localeOf } from '../locale/locale.js'
import { sized, type Template, type TemplateDeps, type TemplateFields } from './template.js'

const W = 1000
const H = 300
const ART = { x: 30, y: 30, size: 240 }
const THEMES = ['dark', 'light'] as const
type Theme = typeof THEMES[number]
export const MAX_QUEUE = 1_000_000
/** The side the album art is sampled at for its colours: its palette from 576 pixels. */
const SAMPLE_SIDE = 24
const DEFAULT_ACCENT = '#5865f2'
const SPACED_SCRIPTS = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\s\p{P}]+$/u

/** The art's colours by image: an animated art keeps the theme of its first frame. */
const dominantColors = new WeakMap<object, string>()

/** The dominant colour of `image`, sampled small on a scratch canvas. */
function dominantOf (image: Drawable, newCanvas: NewCanvas): string {
  const known = dominantColors.get(image)
  if (known !== undefined) return known
  const scratch = newCanvas(SAMPLE_SIDE, SAMPLE_SIDE)
  const ctx = scratch.getContext('2d')
  ctx.clearRect(0, 0, SAMPLE_SIDE, SAMPLE_SIDE)
  ctx.drawImage(image, 0, 0, SAMPLE_SIDE, SAMPLE_SIDE)
  const { data } = ctx.getImageData(0, 0, SAMPLE_SIDE, SAMPLE_SIDE)
  const found = paletteOf({ width: SAMPLE_SIDE, height: SAMPLE_SIDE, rgba: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) })
  const color = toHex(found.palette[0]!.color)
  dominantColors.set(image, color)
  return color
}

/** Seconds as a clock: 3:05, 1:02:03. */
export function clock (seconds: number): string {
  const s = Math.floor(seconds)
  const two = (n: number): string => String(n).padStart(2, '0')
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  return h > 0 ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`
}

export const nowplaying: Template = {
  name: 'nowplaying',
  summary: 'A now-playing card: album art, title, artist, elapsed and total time with a progress bar, a queue line',
  defaultFormat: 'png',
  example: { title: 'Clair de lune', artist: 'Claude Debussy', elapsed: '1:35', duration: '5:02', next: 'Gymnopédie No. 1', queue: '4', theme: 'dark' },
  imageBoxes: { album_art: { width: ART.size, height: ART.size } },
  fields: {
    title: { description: 'The track\'s title', default: 'Unknown title' },
    artist: { description: 'The artist' },
    album_art: { description: 'URL of the album art (its dominant colour tints the card when no accent is given)' },
    elapsed: { description: 'Time played: seconds (95) or a clock (1:35)', default: '0' },
    duration: { description: 'The track\'s length: seconds (215) or a clock (3:35); 0 or absent: unknown (a live stream)', default: '0' },
    next: { description: 'The next track\'s title, on the queue line' },
    queue: { description: `Tracks in the queue, on the queue line (0..${MAX_QUEUE})`, default: '0', numeric: true },
    theme: { description: 'dark (default) or light', default: 'dark', values: () => THEMES },
    accent: { description: `Accent colour ${COLOR_HINT}: the label, the bar and the tint (default: the album art's dominant colour)` },
    font: { description: 'A name from /list/fonts', default: 'Sans Serif' },
    locale: LOCALE_FIELD
  },
  async prepare<I extends Sized> ({ fonts, images }: TemplateDeps<I>, f: TemplateFields) {
    const locale = localeOf(f.locale)
    const rtl = direction(locale) === 'rtl'
    const title = textField(f, 'title', 'Unknown title')
    const artist = textField(f, 'artist')
    const next = textField(f, 'next')
    const theme: Theme = choiceField(f, 'theme', THEMES, 'dark')
    const duration = durationField(f, 'duration', 0)
    const elapsed = durationField(f, 'elapsed', 0)
    if (duration > 0 && elapsed > duration) {
      throw new AppError('VALIDATION', `Invalid "elapsed": ${clock(elapsed)} is past the duration ${clock(duration)}; use a time within the track`, { details: { field: 'elapsed' } })
    }
    const queue = numberField(f, 'queue', { min: 0, max: MAX_QUEUE }, 0)
    const given = f.accent === undefined || f.accent.trim() === '' ? undefined : colorField(f.accent, DEFAULT_ACCENT, 'accent')
    const queueLine = [next !== '' ? label(locale, 'nowplaying.up_next', { title: next }) : '', queue > 0 ? label(locale, 'nowplaying.queue', { count: formatNumber(locale, queue, { abbreviate: queue >= 10_000 }) }) : ''].filter((s) => s !== '').join(' · ')
    const heading = label(locale, 'nowplaying.title').toLocaleUpperCase(intlTag(locale))
    const family = fonts.family(f.font, 'font', [heading, title, artist, queueLine].join('\n'))
    const emoji = images.emoji.bind(images)
    const [art, titleMarked, artistMarked, queueMarked] = await Promise.all([
      optionalImage(async () => await images.url(f.album_art!, 'album_art'), f.album_art),
      markText(title, emoji),
      markText(artist, emoji),
      markText(queueLine, emoji)
    ])
    return sized<I>(W, H, (newCanvas, pixels) => {
      const canvas = newCanvas(W, H)
      const artImage = pixels(art)
      const base = given ?? (artImage === undefined ? DEFAULT_ACCENT : dominantOf(artImage, newCanvas))
      const dark = theme === 'dark'
      const accent = dark ? withLightness(base, 0.6, 0.85) : withLightness(base, 0.25, 0.45)
      const text = dark ? '#ffffff' : '#111214'
      const ctx = canvas.getContext('2d')
      // Top to bottom, each row of one colour (rowGradient): a card with flat art stays flat for the PNG encoder.
      rowGradient(newCanvas, H, [
        [0, dark ? mix(base, '#000000', 0.55) : mix(base, '#ffffff', 0.7)],
        [1, dark ? mix(base, '#000000', 0.85) : mix(base, '#ffffff', 0.9)]
      ])(ctx, 0, 0, W, H)

      // Right to left (ar), the card is mirrored (card.ts, placement): the art on the right,
      // the lines aligned on it, the bar filling from it, the time played under its start.
      const at = placement(W, rtl)
      const artBox = { ...ART, x: at.x(ART.x, ART.size) }
      // The art, on a soft shadow.
      ctx.save()
      ctx.shadowColor = 'rgba(0,0,0,0.45)'
      ctx.shadowBlur = 24
      ctx.shadowOffsetY = 6
      ctx.fillStyle = mix(base, '#000000', 0.3)
      roundedRect(ctx, artBox.x, artBox.y, artBox.size, artBox.size, 22)
      ctx.fill()
      ctx.restore()
      ctx.save()
      roundedRect(ctx, artBox.x, artBox.y, artBox.size, artBox.size, 22)
      ctx.clip()
      if (artImage !== undefined) drawCover(ctx, artImage, artBox.x, artBox.y, artBox.size, artBox.size)
      else drawNote(ctx, artBox, accent)
      ctx.restore()

      const x = ART.x + ART.size + 36
      const right = W - 40
      ctx.textBaseline = 'alphabetic'
      ctx.textAlign = at.start
      ctx.fillStyle = accent
      ctx.font = `bold 20px ${family}`
      // Spaced capitals where the script has capitals; spacing would part Thai or Arabic letters from their marks.
      if (SPACED_SCRIPTS.test(heading)) ctx.letterSpacing = '3px'
      fillTextLine(ctx, heading, at.x(x), 66)
      const headingWidth = ctx.measureText(heading).width
      ctx.letterSpacing = '0px'
      if (queueLine !== '') {
        const marked = drawnText(queueMarked, pixels)
        ctx.fillStyle = text
        ctx.globalAlpha = 0.65
        ctx.textAlign = at.end
        fillTextLine(ctx, fitText(ctx, marked.text, family, 'normal', 20, 14, right - x - headingWidth - 32, marked.images), at.x(right), 66, 'fill', marked.images)
        ctx.globalAlpha = 1
        ctx.textAlign = at.start
      }
      const titleLine = drawnText(titleMarked, pixels)
      ctx.fillStyle = text
      fillTextLine(ctx, fitText(ctx, titleLine.text, family, 'bold', 46, 24, right - x, titleLine.images), at.x(x), 130, 'fill', titleLine.images)
      if (artist !== '') {
        const artistLine = drawnText(artistMarked, pixels)
        ctx.globalAlpha = 0.72
        fillTextLine(ctx, fitText(ctx, artistLine.text, family, 'normal', 30, 18, right - x, artistLine.images), at.x(x), 176, 'fill', artistLine.images)
        ctx.globalAlpha = 1
      }

      // The progress bar, its knob where the track is, and the times under it.
      const barY = 218
      const progress = duration > 0 ? elapsed / duration : 0
      ctx.fillStyle = dark ? 'rgba(255,255,255,0.18)' : 'rgba(0,0,0,0.12)'
      roundedRect(ctx, at.x(x, right - x), barY, right - x, 10, 5)
      ctx.fill()
      ctx.fillStyle = accent
      if (progress > 0) {
        const filled = Math.max(10, (right - x) * progress)
        roundedRect(ctx, at.x(x, filled), barY, filled, 10, 5)
        ctx.fill()
      }
      ctx.beginPath()
      ctx.arc(at.x(x + (right - x) * progress), barY + 5, 11, 0, Math.PI * 2)
      ctx.fillStyle = dark ? '#ffffff' : accent
      ctx.fill()
      ctx.fillStyle = text
      ctx.globalAlpha = 0.72
      ctx.font = `normal 22px ${family}`
      fillTextLine(ctx, clock(elapsed), at.x(x), barY + 48)
      ctx.textAlign = at.end
      // An unknown length (a live stream) has no total.
      if (duration > 0) fillTextLine(ctx, clock(duration), at.x(right), barY + 48)
      ctx.globalAlpha = 1
      ctx.textAlign = 'left'
      return canvas
    })
  }
}

/** A quaver on the accent, for a track without album art. */
function drawNote (ctx: SKRSContext2D, box: typeof ART, color: string): void {
  const gradient = ctx.createLinearGradient(box.x, box.y, box.x + box.size, box.y + box.size)
  gradient.addColorStop(0, color)
  gradient.addColorStop(1, mix(color, '#000000', 0.45))
  ctx.fillStyle = gradient
  ctx.fillRect(box.x, box.y, box.size, box.size)
  const size = box.size * 0.32
  const cx = box.x + box.size / 2
  const cy = box.y + box.size / 2
  ctx.fillStyle = 'rgba(255,255,255,0.92)'
  ctx.beginPath()
  ctx.ellipse(cx - size * 0.35, cy + size * 0.55, size * 0.42, size * 0.32, -0.4, 0, Math.PI * 2)
  ctx.fill()
  ctx.fillRect(cx - size * 0.02, cy - size * 0.9, size * 0.16, size * 1.45)
  ctx.beginPath()
  ctx.moveTo(cx + size * 0.14, cy - size * 0.9)
  ctx.quadraticCurveTo(cx + size * 0.75, cy - size * 0.55, cx + size * 0.55, cy - size * 0.05)
  ctx.quadraticCurveTo(cx + size * 0.6, cy - size * 0.45, cx + size * 0.14, cy - size * 0.55)
  ctx.closePath()
  ctx.fill()
}
