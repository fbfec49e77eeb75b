// The /gen/custom layer model (docs/generation.md, "Custom images"; what clients send:
// docs/compatibility.md): a base (rectangle or image), image elements drawn in order,
// then texts, with `global` text defaults. Field names are the hosted service's C#
// client's.
import type { SKRSContext2D } from '@napi-rs/canvas'
import { type Static, Type } from 'typebox'
import { AppError } from '../errors.js'
import type { Drawable } from './assets.js'
import { colorField } from './color.js'
import { closedSet, component } from '../http/openapi-annotations.js'
import { DateFormatError, formatDotNetDate } from './date-format.js'
import { drawCover, OUTPUT_FORMATS, roundedRect, wrapText } from './draw.js'
import { naturalSize } from './image-source.js'
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
// Budgets of one picture, decided before it is drawn (docs/generation.md, "Budgets").
/** Characters of all texts together. */
export const MAX_DRAWN_CHARACTERS = 20_000
/** Lines of all texts together, as written (before wrapping). */
export const MAX_DRAWN_LINES = 1000
/** Largest blur radius of a `filter` and of a text outline, in pixels: blur costs grow with it. */
export const MAX_BLUR_PX = 100
/**
 * Pixels blurred by `filter` in one picture, summed over its layers (each counted at most
 * once the canvas): a blur costs in proportion to the pixels it covers, and 50 full
 * layers of 3000×3000 blurred took 45 s of a core. One canvas of the largest size.
 */
export const MAX_BLURRED_PIXELS = MAX_SIDE * MAX_SIDE
/** Largest text outline width, in pixels. */
export const MAX_OUTLINE_WIDTH = 100
const DISCORD_EPOCH = 1420070400000n
const DEFAULT_DATE_FORMAT = 'yyyy-MM-dd HH:mm'

const Num = (description: string) => Type.Optional(Type.Number({ description }))
const Str = (description: string) => Type.Optional(Type.String({ description, maxLength: MAX_TEXT_LENGTH }))
const Bool = (description: string) => Type.Optional(Type.Boolean({ description }))

const BaseSchema = component('CustomBase', Type.Object({
  type: Str('"bitmap" (a rectangle) or "url" (an image); a base with a url is an image'),
  url: Str('Image URL of the base; the canvas takes its size unless width/height are given'),
  width: Num('Canvas width, 1..3000'),
  height: Num('Canvas height, 1..3000'),
  color: Str('Fill colour of a rectangle base')
}, { additionalProperties: true }))

const ImageSchema = component('CustomImageLayer', Type.Object({
  type: closedSet(Str('bitmap (rectangle), url (image), circle or triangle; a url element may omit it'), { values: () => ['bitmap', 'url', 'circle', 'triangle'] }),
  url: Str('Image URL'),
  width: Num('Width'),
  height: Num('Height'),
  size: Num('Sets width and height'),
  maxwidth: Num('Scale down to at most this width'),
  maxheight: Num('Scale down to at most this height'),
  x: Num('Left'),
  y: Num('Top'),
  round: Num('Corner radius (large values make round avatars)'),
  radius: Num('Circle radius'),
  rotate: Num('Rotation in degrees, around the element\'s centre'),
  color: Str('Fill colour of shapes'),
  cut: closedSet(Str('Triangle corner: topleft, topright, bottomleft, bottomright'), { values: () => Object.keys(TRIANGLE_CUTS) }),
  filter: Str('grayscale, sepia, invert, blur, or a CSS filter such as "blur(4px)"'),
  opacity: Num('0 (transparent) to 10 (opaque, the default); 5 is half. A fraction below 1 such as 0.4 is read as 0..1'),
  cache: Bool('Accepted for compatibility: fetched images are always cached briefly'),
  skip: Bool('true hides the element')
}, { additionalProperties: true }))

const TextSchema = component('CustomText', Type.Object({
  text: Str('The text'),
  texts: Type.Optional(Type.Array(Type.String({ maxLength: MAX_TEXT_LENGTH }), { description: 'Several lines', maxItems: 200 })),
  size: Num('Font size in pixels (16)'),
  font: Str('A name from /list/fonts ("Sans Serif")'),
  color: Str('Text colour (white)'),
  back: Str('Background box colour'),
  x: Num('Anchor x'),
  y: Num('Top y'),
  align: closedSet(Str('l, m or r (left, middle, right of x)'), { values: () => ['l', 'm', 'r'] }),
  width: Num('Wrap width, 0 = no wrapping'),
  height: Num('Clip height, 0 = none'),
  line: Num('Line spacing factor (1)'),
  outlinecolor: Str('Outline colour (black)'),
  outlinewidth: Num('Outline width (0 = none)'),
  outlineblur: Num('Outline blur (0)'),
  bold: Bool('Bold'),
  italics: Bool('Italic'),
  underline: Bool('Underline'),
  weight: Num('Font weight 100..900'),
  blend: Str('Blend mode: multiply, screen, overlay, darken, lighten, …'),
  skip: Bool('true hides the text'),
  unix: Num('Render this Unix time (seconds) as a date; 0 = no date'),
  snowflake: Str('Render the creation time of this Discord snowflake as a date; 0 = no date'),
  format: Str(`.NET date format, invariant culture, UTC (${DEFAULT_DATE_FORMAT}): a standard format (d D f F g G t T M Y s u o r) or custom specifiers (yyyy MMMM MMM MM dddd ddd dd d HH hh mm ss fff tt zzz, '...' literals)`)
}, { additionalProperties: true }))

const GlobalSchema = component('CustomGlobal', Type.Object({
  textSize: Num('Default size'),
  textColor: Str('Default colour'),
  textFont: Str('Default font'),
  textOutlineWidth: Num('Default outline width'),
  textOutineWidth: Num('The same, as one client spells it'),
  textOutlineColor: Str('Default outline colour'),
  textOutlineBlur: Num('Default outline blur'),
  textAlign: Str('Default alignment'),
  textX: Num('Default x')
}, { additionalProperties: true }))

export const CustomBodySchema = component('CustomImage', Type.Object({
  output: closedSet(Str('png, jpg (default) or webp'), { values: () => OUTPUT_FORMATS }),
  format: closedSet(Str('The same as output'), { values: () => OUTPUT_FORMATS }),
  base: Type.Optional(BaseSchema),
  images: Type.Optional(Type.Array(ImageSchema)),
  texts: Type.Optional(Type.Array(TextSchema)),
  global: Type.Optional(GlobalSchema)
}, {
  additionalProperties: true,
  examples: [{
    output: 'png',
    base: { type: 'bitmap', width: 600, height: 200, color: '#23272a' },
    images: [{ type: 'circle', x: 30, y: 30, radius: 70, color: '#5865f2' }],
    texts: [{ text: 'Hello', x: 360, y: 70, size: 56, align: 'm', color: 'white' }]
  }]
}))
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
  const key = value.trim().toLowerCase()
  const named = Object.hasOwn(FILTERS, key) ? FILTERS[key] : undefined // not "constructor" or "__proto__" of Object.prototype
  if (named) return named
  if (CSS_FILTER.test(value)) return value
  throw new AppError('VALIDATION', `Invalid "${field}": "${value.slice(0, 40)}"; use grayscale, sepia, invert, blur or a CSS filter`, { details: { field } })
}

/**
 * The hosted service's scale, 0..10 (docs/generation.md, "Opacity"): its C# client
 * sends the integer 10 for every element the user did not make translucent. A
 * fraction strictly between 0 and 1 is this API's older 0..1 scale; hosted clients
 * send whole steps, so 0.4 means 40 %, while 1 means 10 % as on the hosted scale.
 */
export function opacityOf (value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return 1
  if (value > 0 && value < 1) return value
  return Math.max(0, Math.min(10, value)) / 10
}

/**
 * What the hosted service's C# client sends for a field the user did not set
 * (docs/compatibility.md, "The C# client's custom images") means "not set" here too:
 * a size of 0 (width, height, size, radius and the maxima: width and height decide,
 * else the image's own size), a date of 0 (`unix`, `snowflake`: the text is drawn) and
 * a wrap width of 0. Nulls never get here: the body layer drops them (src/http/body.ts).
 */
export function withoutUnsetValues (body: CustomBody): CustomBody {
  const positive = <T extends object>(o: T, keys: ReadonlyArray<keyof T>): T => {
    const out = { ...o }
    for (const k of keys) if (out[k] === 0) delete out[k]
    return out
  }
  return {
    ...body,
    base: body.base && positive(body.base, ['width', 'height']),
    images: body.images?.map((el) => positive(el, ['width', 'height', 'size', 'maxwidth', 'maxheight', 'radius'])),
    texts: body.texts?.map((t) => {
      const out = positive(t, ['unix', 'width'])
      if (out.snowflake !== undefined && /^\s*0*\s*$/.test(String(out.snowflake))) delete out.snowflake
      return out
    })
  }
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
    try {
      return formatDotNetDate(date, t.format ?? DEFAULT_DATE_FORMAT)
    } catch (err) {
      if (err instanceof DateFormatError) throw new AppError('VALIDATION', `Invalid "${field}.format": ${err.message}`, { details: { field: `${field}.format` } })
      throw err
    }
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
      // A negative size or radius has no picture (the canvas refuses a negative arc).
      if (v !== undefined && v < 0 && key !== 'round') limit(`"images[${i}].${key}" must not be negative, got ${v}`, `images[${i}].${key}`)
    }
    if (!img.skip) blurWithin(img.filter, `images[${i}].filter`)
  })
  const g = body.global ?? {}
  if (g.textSize !== undefined) textSizeWithin(g.textSize, 'global.textSize')
  if (g.textOutlineBlur !== undefined) outlineWithin(g.textOutlineBlur, MAX_BLUR_PX, 'global.textOutlineBlur')
  for (const key of ['textOutlineWidth', 'textOutineWidth'] as const) {
    if (g[key] !== undefined) outlineWithin(g[key], MAX_OUTLINE_WIDTH, `global.${key}`)
  }
  let characters = 0
  let lines = 0
  texts.forEach((t, i) => {
    if (t.size !== undefined) textSizeWithin(t.size, `texts[${i}].size`)
    for (const key of ['width', 'height'] as const) {
      const v = t[key]
      if (v !== undefined && (!Number.isFinite(v) || v < 0)) limit(`"texts[${i}].${key}" must not be negative, got ${v}`, `texts[${i}].${key}`)
    }
    if (t.outlinewidth !== undefined) outlineWithin(t.outlinewidth, MAX_OUTLINE_WIDTH, `texts[${i}].outlinewidth`)
    if (t.outlineblur !== undefined) outlineWithin(t.outlineblur, MAX_BLUR_PX, `texts[${i}].outlineblur`)
    if (t.skip) return
    for (const part of t.texts ?? [t.text ?? '']) {
      characters += part.length
      for (let at = part.indexOf('\n'); at >= 0; at = part.indexOf('\n', at + 1)) lines++
      lines++
    }
  })
  if (characters > MAX_DRAWN_CHARACTERS) limit(`The texts hold ${characters} characters together, at most ${MAX_DRAWN_CHARACTERS} per picture`, 'texts')
  if (lines > MAX_DRAWN_LINES) limit(`The texts hold ${lines} lines together, at most ${MAX_DRAWN_LINES} per picture`, 'texts')
}

function textSizeWithin (size: number, field: string): void {
  if (!Number.isFinite(size) || size <= 0 || size > MAX_TEXT_SIZE) limit(`"${field}" must be between 1 and ${MAX_TEXT_SIZE}, got ${size}`, field)
}

function outlineWithin (value: number, max: number, field: string): void {
  if (!Number.isFinite(value) || value < 0 || value > max) limit(`"${field}" must be between 0 and ${max}, got ${value}`, field)
}

function blurWithin (filter: string | undefined, field: string): void {
  if (filter === undefined) return
  for (const m of filter.matchAll(/blur\(\s*(-?\d+(?:\.\d+)?)/gi)) {
    const radius = Number(m[1])
    if (radius > MAX_BLUR_PX) limit(`"${field}" blurs by ${radius}px, at most ${MAX_BLUR_PX}px`, field)
  }
}

/**
 * Checks the whole description (limits, element types, colours, fonts, filters) and
 * fetches and decodes every URL it names, in parallel; the returned function draws.
 * Nothing that can wait is left for drawing, so that the render slot is spent on CPU.
 */
export async function prepareCustom ({ fonts, images: source }: TemplateDeps, sent: CustomBody): Promise<Draw> {
  const body = withoutUnsetValues(sent)
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
  const { width, height } = canvasSize(base, baseImage === undefined ? undefined : naturalSize(baseImage))
  let blurred = 0
  elements.forEach((el, i) => {
    const style = styles[i]
    if (style === undefined || !/blur/i.test(style.filter)) return
    const image = layerImages[i]
    const { w, h } = elementBox(el, style.type, image === undefined ? undefined : naturalSize(image))
    blurred += Math.min(w * h, width * height)
  })
  if (blurred > MAX_BLURRED_PIXELS) limit(`The layers blur ${Math.round(blurred)} pixels together, at most ${MAX_BLURRED_PIXELS} per picture: blur fewer or smaller layers`, 'images')
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

function canvasSize (base: Static<typeof BaseSchema>, image: { width: number, height: number } | undefined): { width: number, height: number } {
  return {
    width: side(base.width, 'base.width') ?? (image ? Math.min(MAX_SIDE, image.width) : 1024),
    height: side(base.height, 'base.height') ?? (image ? Math.min(MAX_SIDE, image.height) : 512)
  }
}

/**
 * The box each URL is drawn in, the largest where one URL is drawn several times, from
 * the images' sizes as sent (their headers): a larger image is decoded shrunk to it.
 */
export function customImageBoxes (sent: CustomBody, sizeOf: (url: string) => { width: number, height: number } | undefined): Map<string, { width: number, height: number }> {
  const body = withoutUnsetValues(sent)
  const boxes = new Map<string, { width: number, height: number }>()
  const grow = (url: string, width: number, height: number): void => {
    const key = url.trim()
    const box = boxes.get(key)
    // A side under a pixel (a 0 that means "not set" to some clients): no box, never shrunk.
    if (!(width >= 1 && height >= 1)) width = height = Infinity
    boxes.set(key, { width: Math.max(box?.width ?? 0, Math.ceil(width)), height: Math.max(box?.height ?? 0, Math.ceil(height)) })
  }
  const base = body.base ?? {}
  if (base.url) grow(base.url, ...Object.values(canvasSize(base, sizeOf(base.url))) as [number, number])
  for (const el of body.images ?? []) {
    if (el.skip || !el.url) continue
    const type = (el.type ?? 'url').toLowerCase()
    const { w, h } = elementBox(el, type, sizeOf(el.url))
    if (type === 'circle') {
      const r = el.radius ?? Math.min(w, h) / 2
      grow(el.url, r * 2, r * 2)
    } else grow(el.url, w, h)
  }
  return boxes
}

/** An element's drawn width and height, from its fields and its image's size as sent. */
function elementBox (el: ImageElement, type: string, image: { width: number, height: number } | undefined): { w: number, h: number } {
  let w = el.size ?? el.width ?? (type === 'circle' ? (el.radius ?? 50) * 2 : image?.width ?? 100)
  let h = el.size ?? el.height ?? (type === 'circle' ? (el.radius ?? 50) * 2 : image?.height ?? 100)
  if (image && el.size === undefined && el.width !== undefined && el.height === undefined) h = image.height * (w / image.width)
  if (image && el.size === undefined && el.height !== undefined && el.width === undefined) w = image.width * (h / image.height)
  const scale = Math.min(1, el.maxwidth ? el.maxwidth / w : 1, el.maxheight ? el.maxheight / h : 1)
  return { w: w * scale, h: h * scale }
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
  const { w, h } = elementBox(el, type, image === undefined ? undefined : naturalSize(image))
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
  // The C# client sends weight 500 beside every `bold`: bold still makes it bold.
  const weight = t.weight !== undefined ? String(Math.max(t.bold ? 700 : 100, Math.min(900, Math.round(t.weight / 100) * 100))) : t.bold ? 'bold' : 'normal'
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
  // A loop, not Math.max(...widths): a spread of thousands of lines overflowed the stack.
  let boxWidth = s.width
  if (boxWidth <= 0) for (const l of lines) boxWidth = Math.max(boxWidth, ctx.measureText(l).width)
  const left = s.align === 'center' ? x - boxWidth / 2 : s.align === 'right' ? x - boxWidth : x
  const boxHeight = s.height > 0 ? s.height : lines.length * s.lineHeight
  if (s.height > 0) { ctx.beginPath(); ctx.rect(left - 4, y, boxWidth + 8, s.height); ctx.clip() }
  if (s.back) { ctx.fillStyle = s.back; ctx.fillRect(left - 4, y - 2, boxWidth + 8, boxHeight + 4) }
  ctx.globalCompositeOperation = s.blend
  // Lines wholly below the canvas (or the clip) draw nothing: not drawing them bounds the
  // work by the canvas, whatever the wrapping made of the text.
  const bottom = s.height > 0 ? Math.min(ctx.canvas.height, y + s.height) : ctx.canvas.height
  lines.forEach((line, n) => {
    const ly = y + n * s.lineHeight
    if (ly - s.size > bottom) return
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
