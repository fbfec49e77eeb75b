// Colours of the drawn images, read by the API's one colour parser (src/colors/spelling.ts,
// the table in docs/colors.md) and handed to the canvas as CSS.
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
