// The /gen/custom layer model (../shared/compat/existing-clients.md, "/gen/custom"):
// a base (rectangle or image), image elements drawn in order, then texts, with
// `global` text defaults. Field names are the hosted service's C# client's.
import type { SKRSContext2D } from '@napi-rs/canvas'
import { type Static, Type } from 'typebox'
import { AppError } from '../errors.js'
import type { Drawable } from './assets.js'
import { colorField } from './color.js'
import { drawCover, roundedRect, wrapText } from './draw.js'
import type { Draw, TemplateDeps } from './templates.js'

// Published limits of the hosted service.
export const CUSTOM_BODY_LIMIT = 10 * 1024 * 1024
export const MAX_IMAGES = 50
export const MAX_URL_IMAGES = 10
export const MAX_TEXTS = 50
export const MIN_SIDE = 1
export const MAX_SIDE = 3000
export const MAX_TEXT_LENGTH = 5000
export const MAX_TEXT_SIZE = 1000
const DISCORD_EPOCH = 1420070400000n
const DEFAULT_DATE_FORMAT = 'yyyy-MM-dd HH:mm'

const Num = (description: string) => Type.Optional(Type.Number({ description }))
const Str = (description: string) => Type.Optional(Type.String({ description, maxLength: MAX_TEXT_LENGTH }))
const Bool = (description: string) => Type.Optional(Type.Boolean({ description }))

const BaseSchema = Type.Object({
  type: Str('"bitmap" (a rectangle) or "url" (an image); a base with a url is an image'),
  url: Str('Image URL of the base; the canvas takes its size unless width/height are given'),
  width: Num('Canvas width, 1..3000'),
  height: Num('Canvas height, 1..3000'),
  color: Str('Fill colour of a rectangle base')
}, { additionalProperties: true })

const ImageSchema = Type.Object({
  type: Str('bitmap (rectangle), url (image), circle or triangle; a url element may omit it'),
  url: Str('Image URL'),
  width: Num('Width'), height: Num('Height'), size: Num('Sets width and height'),
  maxwidth: Num('Scale down to at most this width'), maxheight: Num('Scale down to at most this height'),
  x: Num('Left'), y: Num('Top'),
  round: Num('Corner radius (large values make round avatars)'),
  radius: Num('Circle radius'),
  rotate: Num('Rotation in degrees, around the element\'s centre'),
  color: Str('Fill colour of shapes'),
  cut: Str('Triangle corner: topleft, topright, bottomleft, bottomright'),
  filter: Str('grayscale, sepia, invert, blur, or a CSS filter such as "blur(4px)"'),
  opacity: Num('0..1 (or 0..100)'),
  cache: Bool('Accepted for compatibility: fetched images are always cached briefly'),
  skip: Bool('true hides the element')
}, { additionalProperties: true })

const TextSchema = Type.Object({
  text: Str('The text'),
  texts: Type.Optional(Type.Array(Type.String({ maxLength: MAX_TEXT_LENGTH }), { description: 'Several lines', maxItems: 200 })),
  size: Num('Font size in pixels (16)'),
  font: Str('A name from /list/fonts ("Sans Serif")'),
  color: Str('Text colour (white)'),
  back: Str('Background box colour'),
  x: Num('Anchor x'), y: Num('Top y'),
  align: Str('l, m or r (left, middle, right of x)'),
  width: Num('Wrap width, 0 = no wrapping'),
  height: Num('Clip height, 0 = none'),
  line: Num('Line spacing factor (1)'),
  outlinecolor: Str('Outline colour (black)'),
  outlinewidth: Num('Outline width (0)'),
  outlineblur: Num('Outline blur (0)'),
  bold: Bool('Bold'), italics: Bool('Italic'), underline: Bool('Underline'),
  weight: Num('Font weight 100..900'),
  blend: Str('Blend mode: multiply, screen, overlay, darken, lighten, …'),
  skip: Bool('true hides the text'),
  unix: Num('Render this Unix time (seconds) as a date'),
  snowflake: Str('Render the creation time of this Discord snowflake as a date'),
  format: Str(`Date format (${DEFAULT_DATE_FORMAT}): yyyy yy MMMM MMM MM M dd d HH H hh h mm ss tt`)
}, { additionalProperties: true })

const GlobalSchema = Type.Object({
  textSize: Num('Default size'), textColor: Str('Default colour'), textFont: Str('Default font'),
  textOutlineWidth: Num('Default outline width'), textOutineWidth: Num('The same, as one client spells it'),
  textOutlineColor: Str('Default outline colour'), textOutlineBlur: Num('Default outline blur'),
  textAlign: Str('Default alignment'), textX: Num('Default x')
}, { additionalProperties: true })

export const CustomBodySchema = Type.Object({
  output: Str('png, jpg (default) or webp'),
  format: Str('The same as output'),
  base: Type.Optional(BaseSchema),
  images: Type.Optional(Type.Array(ImageSchema)),
  texts: Type.Optional(Type.Array(TextSchema)),
  global: Type.Optional(GlobalSchema)
}, { additionalProperties: true })
export type CustomBody = Static<typeof CustomBodySchema>
type ImageElement = Static<typeof ImageSchema>
type TextElement = Static<typeof TextSchema>

function limit (message: string, field: string): never {
  throw new AppError('GEN_LIMIT_EXCEEDED', message, { details: { field } })
}

function side (value: number | undefined, field: string): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isFinite(value) || value < MIN_SIDE || value > MAX_SIDE) limit(`"${field}" must be between ${MIN_SIDE} and ${MAX_SIDE}, got ${value}`, field)
  return Math.round(value)
}

const FILTERS: Record<string, string> = { grayscale: 'grayscale(1)', greyscale: 'grayscale(1)', sepia: 'sepia(1)', invert: 'invert(1)', blur: 'blur(4px)' }
const CSS_FILTER = /^(\s*(blur|brightness|contrast|grayscale|hue-rotate|invert|opacity|saturate|sepia)\(\s*-?\d+(\.\d+)?(px|deg|%)?\s*\))+\s*$/i
const BLENDS = new Set(['source-over', 'multiply', 'screen', 'overlay', 'darken', 'lighten', 'color-dodge', 'color-burn', 'hard-light', 'soft-light', 'difference', 'exclusion', 'hue', 'saturation', 'color', 'luminosity', 'xor', 'lighter'])

function filterOf (value: string | undefined, field: string): string {
  if (value === undefined || value.trim() === '' || value.trim().toLowerCase() === 'none') return 'none'
  const named = FILTERS[value.trim().toLowerCase()]
  if (named) return named
  if (CSS_FILTER.test(value)) return value
  throw new AppError('VALIDATION', `Invalid "${field}": "${value.slice(0, 40)}"; use grayscale, sepia, invert, blur or a CSS filter`, { details: { field } })
}

function opacityOf (value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return 1
  return Math.max(0, Math.min(1, value > 1 ? value / 100 : value))
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** .NET-style date format (the hosted service is ASP.NET), in UTC. */
export function formatDate (date: Date, format: string): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  const h = date.getUTCHours()
  const tokens: Record<string, () => string> = {
    yyyy: () => String(date.getUTCFullYear()), yy: () => pad(date.getUTCFullYear() % 100),
    MMMM: () => MONTHS[date.getUTCMonth()]!, MMM: () => MONTHS[date.getUTCMonth()]!.slice(0, 3),
    MM: () => pad(date.getUTCMonth() + 1), M: () => String(date.getUTCMonth() + 1),
    dd: () => pad(date.getUTCDate()), d: () => String(date.getUTCDate()),
    HH: () => pad(h), H: () => String(h), hh: () => pad(h % 12 || 12), h: () => String(h % 12 || 12),
    mm: () => pad(date.getUTCMinutes()), ss: () => pad(date.getUTCSeconds()), tt: () => (h < 12 ? 'AM' : 'PM')
  }
  return format.replace(/yyyy|yy|MMMM|MMM|MM|M|dd|d|HH|H|hh|h|mm|ss|tt/g, (t) => tokens[t]!())
}

function textOf (t: TextElement, index: number): string {
  const field = `texts[${index}]`
  if (t.unix !== undefined || t.snowflake !== undefined) {
    let ms: number
    if (t.snowflake !== undefined) {
      if (!/^\d{1,20}$/.test(t.snowflake.trim())) throw new AppError('VALIDATION', `Invalid "${field}.snowflake": a Discord id is digits only`, { details: { field: `${field}.snowflake` } })
      ms = Number((BigInt(t.snowflake.trim()) >> 22n) + DISCORD_EPOCH)
    } else {
      ms = t.unix! * 1000
    }
    const date = new Date(ms)
    if (Number.isNaN(date.getTime())) throw new AppError('VALIDATION', `Invalid "${field}.unix": not a representable time`, { details: { field: `${field}.unix` } })
    return formatDate(date, t.format ?? DEFAULT_DATE_FORMAT)
  }
  return t.texts ? t.texts.join('\n') : (t.text ?? '')
}

/** Checks the published limits before anything is fetched or drawn. */
export function checkLimits (body: CustomBody): void {
  const images = body.images ?? []
  const texts = body.texts ?? []
  if (images.length > MAX_IMAGES) limit(`Too many image elements: ${images.length}, at most ${MAX_IMAGES}`, 'images')
  const urls = images.filter((i) => !i.skip && typeof i.url === 'string' && i.url.trim() !== '').length + (body.base?.url ? 1 : 0)
  if (urls > MAX_URL_IMAGES) limit(`Too many images fetched from URLs: ${urls}, at most ${MAX_URL_IMAGES}`, 'images')
  if (texts.length > MAX_TEXTS) limit(`Too many texts: ${texts.length}, at most ${MAX_TEXTS}`, 'texts')
  side(body.base?.width, 'base.width')
  side(body.base?.height, 'base.height')
  images.forEach((img, i) => {
    for (const key of ['width', 'height', 'size', 'maxwidth', 'maxheight', 'radius', 'round'] as const) {
      const v = img[key]
      if (v !== undefined && (!Number.isFinite(v) || Math.abs(v) > MAX_SIDE * 2)) limit(`"images[${i}].${key}" must be at most ${MAX_SIDE * 2}, got ${v}`, `images[${i}].${key}`)
    }
  })
  texts.forEach((t, i) => {
    if (t.size !== undefined && (t.size <= 0 || t.size > MAX_TEXT_SIZE)) limit(`"texts[${i}].size" must be between 1 and ${MAX_TEXT_SIZE}, got ${t.size}`, `texts[${i}].size`)
  })
}

/**
 * Checks the whole description (limits, element types, colours, fonts, filters) and
 * fetches and decodes every URL it names, in parallel; the returned function draws.
 * Nothing that can wait is left for drawing, so that the render slot is spent on CPU.
 */
export async function prepareCustom ({ fonts, images: source }: TemplateDeps, body: CustomBody): Promise<Draw> {
  checkLimits(body)
  const base = body.base ?? {}
  const elements = body.images ?? []
  const g = body.global ?? {}
  const styles = elements.map((el, i) => el.skip ? undefined : elementStyle(el, i))
  const texts = (body.texts ?? []).map((t, i) => t.skip ? undefined : textStyle(fonts, t, g, i))
  const baseColor = base.url ? undefined : colorField(base.color, 'white', 'base.color')
  // Layer n's role names its index.
  const [baseImage, ...layerImages] = await Promise.all([
    base.url ? source.url(base.url, 'base') : Promise.resolve(undefined),
    ...elements.map(async (el, i): Promise<Drawable | undefined> => el.skip || !el.url ? undefined : await source.url(el.url, `layer ${i}`))
  ])
  const width = side(base.width, 'base.width') ?? (baseImage ? Math.min(MAX_SIDE, baseImage.width) : 1024)
  const height = side(base.height, 'base.height') ?? (baseImage ? Math.min(MAX_SIDE, baseImage.height) : 512)
  return (newCanvas) => {
    const canvas = newCanvas(width, height)
    const ctx = canvas.getContext('2d')
    if (baseImage) {
      ctx.drawImage(baseImage, 0, 0, width, height)
    } else {
      ctx.fillStyle = baseColor!
      ctx.fillRect(0, 0, width, height)
    }
    elements.forEach((el, i) => { if (styles[i]) drawElement(ctx, el, styles[i], layerImages[i]) })
    texts.forEach((style) => { if (style) drawText(ctx, style) })
    return canvas
  }
}

interface ElementStyle {
  type: 'bitmap' | 'url' | 'circle' | 'triangle'
  cut: keyof typeof TRIANGLE_CUTS
  filter: string
  opacity: number
  /** Fill of a shape without an image. */
  color: string | undefined
}

/** The triangle kept by `cut`, as corners of the element's box (0 = left/top, 1 = right/bottom). */
const TRIANGLE_CUTS = {
  topleft: [[0, 0], [1, 0], [0, 1]],
  topright: [[0, 0], [1, 0], [1, 1]],
  bottomleft: [[0, 0], [0, 1], [1, 1]],
  bottomright: [[1, 0], [1, 1], [0, 1]]
} as const

function elementStyle (el: ImageElement, i: number): ElementStyle {
  const field = `images[${i}]`
  const type = (el.type ?? (el.url ? 'url' : 'bitmap')).toLowerCase()
  if (type !== 'bitmap' && type !== 'url' && type !== 'circle' && type !== 'triangle') throw new AppError('VALIDATION', `Invalid "${field}.type": "${el.type}"; use bitmap, url, circle or triangle`, { details: { field: `${field}.type` } })
  const cut = (el.cut ?? 'bottomright').toLowerCase()
  if (type === 'triangle' && !Object.hasOwn(TRIANGLE_CUTS, cut)) throw new AppError('VALIDATION', `Invalid "${field}.cut": "${el.cut}"; use topleft, topright, bottomleft or bottomright`, { details: { field: `${field}.cut` } })
  return {
    type,
    cut: cut as ElementStyle['cut'],
    filter: filterOf(el.filter, `${field}.filter`),
    opacity: opacityOf(el.opacity),
    color: el.url ? undefined : colorField(el.color, 'black', `${field}.color`)
  }
}

function drawElement (ctx: SKRSContext2D, el: ImageElement, style: ElementStyle, image: Drawable | undefined): void {
  const { type } = style
  let w = el.size ?? el.width ?? (type === 'circle' ? (el.radius ?? 50) * 2 : image?.width ?? 100)
  let h = el.size ?? el.height ?? (type === 'circle' ? (el.radius ?? 50) * 2 : image?.height ?? 100)
  if (image && el.size === undefined && el.width !== undefined && el.height === undefined) h = image.height * (w / image.width)
  if (image && el.size === undefined && el.height !== undefined && el.width === undefined) w = image.width * (h / image.height)
  const scale = Math.min(1, el.maxwidth ? el.maxwidth / w : 1, el.maxheight ? el.maxheight / h : 1)
  w *= scale; h *= scale
  const x = el.x ?? 0
  const y = el.y ?? 0
  ctx.save()
  ctx.globalAlpha = style.opacity
  ctx.filter = style.filter
  if (el.rotate) {
    ctx.translate(x + w / 2, y + h / 2)
    ctx.rotate((el.rotate * Math.PI) / 180)
    ctx.translate(-(x + w / 2), -(y + h / 2))
  }
  if (type === 'circle') {
    const r = el.radius ?? Math.min(w, h) / 2
    ctx.beginPath(); ctx.arc(x + r, y + r, r, 0, Math.PI * 2); ctx.closePath()
    if (image) { ctx.clip(); drawCover(ctx, image, x, y, r * 2, r * 2) } else { ctx.fillStyle = style.color!; ctx.fill() }
  } else if (type === 'triangle') {
    ctx.beginPath(); TRIANGLE_CUTS[style.cut].forEach(([cx, cy]) => ctx.lineTo(x + cx * w, y + cy * h)); ctx.closePath()
    if (image) { ctx.clip(); ctx.drawImage(image, x, y, w, h) } else { ctx.fillStyle = style.color!; ctx.fill() }
  } else {
    const round = el.round ?? 0
    if (round > 0) { roundedRect(ctx, x, y, w, h, round); ctx.clip() }
    if (image) ctx.drawImage(image, x, y, w, h)
    else { ctx.fillStyle = style.color!; ctx.fillRect(x, y, w, h) }
  }
  ctx.restore()
}

interface TextStyle {
  text: string
  font: string
  size: number
  align: 'left' | 'center' | 'right'
  x: number
  y: number
  width: number
  height: number
  lineHeight: number
  back: string | undefined
  blend: GlobalCompositeOperation
  color: string
  outline: { width: number, blur: number, color: string } | undefined
  underline: boolean
}

function textStyle (fonts: TemplateDeps['fonts'], t: TextElement, g: Static<typeof GlobalSchema>, i: number): TextStyle | undefined {
  const field = `texts[${i}]`
  const text = textOf(t, i)
  if (text === '') return undefined
  const size = t.size ?? g.textSize ?? 16
  const family = fonts.family(t.font ?? g.textFont, `${field}.font`)
  const weight = t.weight !== undefined ? String(Math.max(100, Math.min(900, Math.round(t.weight / 100) * 100))) : t.bold ? 'bold' : 'normal'
  const align = (t.align ?? g.textAlign ?? 'l').toLowerCase()[0]
  const blend = (t.blend ?? 'source-over').toLowerCase()
  if (!BLENDS.has(blend)) throw new AppError('VALIDATION', `Invalid "${field}.blend": "${t.blend}"; use one of ${[...BLENDS].join(', ')}`, { details: { field: `${field}.blend` } })
  const outlineWidth = t.outlinewidth ?? g.textOutlineWidth ?? g.textOutineWidth ?? 0
  return {
    text,
    font: `${t.italics ? 'italic ' : ''}${weight} ${size}px ${family}`,
    size,
    align: align === 'm' || align === 'c' ? 'center' : align === 'r' ? 'right' : 'left',
    x: t.x ?? g.textX ?? 0,
    y: t.y ?? 0,
    width: t.width && t.width > 0 ? t.width : 0,
    height: t.height && t.height > 0 ? t.height : 0,
    lineHeight: size * 1.2 * (t.line ?? 1),
    back: t.back ? colorField(t.back, 'black', `${field}.back`) : undefined,
    blend: blend as GlobalCompositeOperation,
    color: colorField(t.color ?? g.textColor, 'white', `${field}.color`),
    outline: outlineWidth > 0
      ? { width: outlineWidth, blur: t.outlineblur ?? g.textOutlineBlur ?? 0, color: colorField(t.outlinecolor ?? g.textOutlineColor, 'black', `${field}.outlinecolor`) }
      : undefined,
    underline: t.underline === true
  }
}

function drawText (ctx: SKRSContext2D, s: TextStyle): void {
  ctx.save()
  ctx.font = s.font
  ctx.textAlign = s.align
  ctx.textBaseline = 'top'
  const { x, y } = s
  const lines = wrapText(ctx, s.text, s.width)
  const boxWidth = s.width > 0 ? s.width : Math.max(...lines.map((l) => ctx.measureText(l).width))
  const left = s.align === 'center' ? x - boxWidth / 2 : s.align === 'right' ? x - boxWidth : x
  const boxHeight = s.height > 0 ? s.height : lines.length * s.lineHeight
  if (s.height > 0) { ctx.beginPath(); ctx.rect(left - 4, y, boxWidth + 8, s.height); ctx.clip() }
  if (s.back) { ctx.fillStyle = s.back; ctx.fillRect(left - 4, y - 2, boxWidth + 8, boxHeight + 4) }
  ctx.globalCompositeOperation = s.blend
  lines.forEach((line, n) => {
    const ly = y + n * s.lineHeight
    if (s.outline) {
      ctx.save()
      if (s.outline.blur > 0) { ctx.shadowColor = s.outline.color; ctx.shadowBlur = s.outline.blur }
      ctx.strokeStyle = s.outline.color
      ctx.lineWidth = s.outline.width * 2
      ctx.lineJoin = 'round'
      ctx.strokeText(line, x, ly)
      ctx.restore()
    }
    ctx.fillStyle = s.color
    ctx.fillText(line, x, ly)
    if (s.underline) {
      const w = ctx.measureText(line).width
      const lx = s.align === 'center' ? x - w / 2 : s.align === 'right' ? x - w : x
      ctx.fillRect(lx, ly + s.size * 1.05, w, Math.max(1, s.size / 14))
    }
  })
  ctx.restore()
}
