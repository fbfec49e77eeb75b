// Colours of the drawn images, read by the API's one colour parser (src/colors/spelling.ts,
// the table in docs/colors.md) and handed to the canvas as CSS.
import { converter, formatHex } from 'culori'
import { parseColorSpelling } from '../../colors/spelling.js'
import { AppError } from '../../errors.js'

export interface Rgba { r: number, g: number, b: number, a: number }

/** Parses a colour; undefined when the text is none of the accepted spellings. Alpha 0..255. */
export function parseColor (text: string): Rgba | undefined {
  const c = parseColorSpelling(text)
  return c === undefined ? undefined : { r: c.r, g: c.g, b: c.b, a: Math.round(c.alpha * 255) }
}

export function cssColor (c: Rgba): string {
  return c.a === 255 ? `rgb(${c.r},${c.g},${c.b})` : `rgba(${c.r},${c.g},${c.b},${(c.a / 255).toFixed(3)})`
}

/** Parses `value` (or `fallback` when absent/empty) into a CSS colour, naming `field` when invalid. */
export function colorField (value: string | undefined, fallback: string, field: string): string {
  const text = value === undefined || value.trim() === '' ? fallback : value
  const parsed = parseColor(text)
  if (!parsed) throw new AppError('INVALID_COLOR', `Invalid colour in "${field}": "${text.slice(0, 40)}"; use a CSS colour name, #rrggbb, "r,g,b", "r,g,b,a" or a CSS colour such as rgb(0, 128, 255) (docs/colors.md lists every spelling)`, { details: { field } })
  return cssColor(parsed)
}

const toRgb = converter('rgb')
const toHsl = converter('hsl')

/** A CSS colour as #rrggbb with its HSL lightness within min..max (0..1): an accent kept readable on a dark or a light card. */
export function withLightness (color: string, min: number, max: number): string {
  const hsl = toHsl(color)
  if (hsl === undefined) return color
  return formatHex({ ...hsl, l: Math.min(max, Math.max(min, hsl.l)) })
}

/** Two CSS colours mixed in sRGB as #rrggbb: `t` 0 is `color`, 1 is `other`. */
export function mix (color: string, other: string, t: number): string {
  const x = toRgb(color)
  const y = toRgb(other)
  if (x === undefined || y === undefined) return color
  return formatHex({ mode: 'rgb', r: x.r + (y.r - x.r) * t, g: x.g + (y.g - x.g) * t, b: x.b + (y.b - x.b) * t })
}
