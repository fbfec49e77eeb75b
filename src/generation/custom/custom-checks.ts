// The checks of a /gen/custom description made before anything is fetched or drawn: the
// published limits and the budgets of one picture (docs/generation.md, "Budgets"), what
// the C# client's unset values mean, filters, opacity and the text of a date.
import { AppError } from '../../errors.js'
import { DEFAULT_DATE_FORMAT, MAX_BLUR_PX, MAX_DRAWN_CHARACTERS, MAX_DRAWN_LINES, MAX_IMAGES, MAX_OUTLINE_WIDTH, MAX_SIDE, MAX_TEXT_SIZE, MAX_TEXTS, MAX_URL_IMAGES, MIN_SIDE } from './custom-limits.js'
import type { CustomBody, TextElement } from './custom-schema.js'
import { DateFormatError, formatDotNetDate } from './date-format.js'
import { isFetchedUrl } from '../assets/asset-catalog.js'

const DISCORD_EPOCH = 1420070400000n

export function limit (message: string, field: string): never {
  throw new AppError('GEN_LIMIT_EXCEEDED', message, { details: { field } })
}

export function side (value: number | undefined, field: string): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isFinite(value) || value < MIN_SIDE || value > MAX_SIDE) limit(`"${field}" must be between ${MIN_SIDE} and ${MAX_SIDE}, got ${value}`, field)
  return Math.round(value)
}

const FILTERS: Record<string, string> = { grayscale: 'grayscale(1)', greyscale: 'grayscale(1)', sepia: 'sepia(1)', invert: 'invert(1)', blur: 'blur(4px)' }
const CSS_FILTER = /^(\s*(blur|brightness|contrast|grayscale|hue-rotate|invert|opacity|saturate|sepia)\(\s*-?\d+(\.\d+)?(px|deg|%)?\s*\))+\s*$/i
export const BLENDS = new Set(['source-over', 'multiply', 'screen', 'overlay', 'darken', 'lighten', 'color-dodge', 'color-burn', 'hard-light', 'soft-light', 'difference', 'exclusion', 'hue', 'saturation', 'color', 'luminosity', 'xor', 'lighter'])

export function filterOf (value: string | undefined, field: string): string {
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

export function textOf (t: TextElement, index: number): string {
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
  // Listed icons and banners named in `url` are the server's own: not fetched, not counted.
  const urls = images.filter((i) => !i.skip && typeof i.url === 'string' && isFetchedUrl(i.url)).length + (body.base?.url !== undefined && isFetchedUrl(body.base.url) ? 1 : 0)
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
