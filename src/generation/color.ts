// Colours as clients send them (../shared/compat/existing-clients.md, "Colours
// everywhere"): a CSS colour name, #rgb, #rrggbb, #rrggbbaa, "r,g,b" or "r,g,b,a"
// with components 0..255 (alpha too), with or without spaces after the commas.
import colorNames from 'color-name'
import { AppError } from '../errors.js'

export interface Rgba { r: number, g: number, b: number, a: number }

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i
const LIST = /^\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*(\d{1,3}(?:\.\d+)?)\s*)?$/

/** Parses a colour; undefined when the text is none of the accepted forms. */
export function parseColor (text: string): Rgba | undefined {
  const value = text.trim()
  const list = LIST.exec(value)
  if (list) {
    const [r, g, b] = [Number(list[1]), Number(list[2]), Number(list[3])]
    let a = list[4] === undefined ? 255 : Number(list[4])
    // "r,g,b,0.5": a fraction is read as CSS alpha, a whole number as 0..255.
    if (list[4] !== undefined && list[4].includes('.') && a <= 1) a = Math.round(a * 255)
    if ([r, g, b, a].some((n) => n > 255)) return undefined
    return { r, g, b, a }
  }
  if (value.toLowerCase() === 'transparent') return { r: 0, g: 0, b: 0, a: 0 }
  const named = (colorNames as Record<string, [number, number, number]>)[value.toLowerCase().replace(/\s+/g, '')]
  if (named) return { r: named[0], g: named[1], b: named[2], a: 255 }
  const hex = HEX.exec(value)
  if (!hex) return undefined
  let digits = hex[1]!
  if (digits.length === 3) digits = digits.split('').map((d) => d + d).join('')
  const n = (i: number) => parseInt(digits.slice(i, i + 2), 16)
  return { r: n(0), g: n(2), b: n(4), a: digits.length === 8 ? n(6) : 255 }
}

export function cssColor (c: Rgba): string {
  return c.a === 255 ? `rgb(${c.r},${c.g},${c.b})` : `rgba(${c.r},${c.g},${c.b},${(c.a / 255).toFixed(3)})`
}

/** Parses `value` (or `fallback` when absent/empty) into a CSS colour, naming `field` when invalid. */
export function colorField (value: string | undefined, fallback: string, field: string): string {
  const text = value === undefined || value.trim() === '' ? fallback : value
  const parsed = parseColor(text)
  if (!parsed) throw new AppError('INVALID_COLOR', `Invalid colour in "${field}": "${text.slice(0, 40)}"; use a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"`, { details: { field } })
  return cssColor(parsed)
}
