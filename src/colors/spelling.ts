// The one colour parser of the API: every place that reads a colour (a /gen/custom or
// template colour, a conversion's `background`) reads it here, so a spelling drawn in one
// place is accepted in all of them. CSS Color 4 syntax is culori's parser; the spellings
// existing clients send beside it (docs/compatibility.md, "Colours"; docs/colors.md)
// are ours: "r,g,b" and "r,g,b,a" lists, hex without "#" (clients lose it
// to the URL fragment), names in any case and with spaces ("Dark Slate Gray").
// docs/colors.md, "Colour spellings", is the table of what is accepted; a test reads it.
import { colorsNamed, converter, parse } from 'culori'

/** sRGB channels 0..255 (whole numbers) and alpha 0..1. */
export interface ColorValue { r: number, g: number, b: number, alpha: number }

/** Longer texts are no colour spelling: the longest CSS function form fits well within it. */
export const MAX_COLOR_LENGTH = 100

const LIST = /^(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*(\d{1,3}(?:\.\d+)?|\.\d+)\s*)?$/
const HEX_DIGITS = /^(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i
const NAME = /^[a-z][a-z ]*$/i
const toRgb = converter('rgb')

/** 3, 4, 6 or 8 hex digits (no "#") → channels and alpha; undefined when not hex digits. */
export function parseHexDigits (digits: string): ColorValue | undefined {
  if (!HEX_DIGITS.test(digits)) return undefined
  const full = digits.length <= 4 ? [...digits].map((c) => c + c).join('') : digits
  const n = (i: number): number => parseInt(full.slice(i, i + 2), 16)
  return { r: n(0), g: n(2), b: n(4), alpha: full.length === 8 ? n(6) / 255 : 1 }
}

/** Parses a colour in any accepted spelling; undefined when it is none of them. */
export function parseColorSpelling (text: string): ColorValue | undefined {
  const value = text.trim()
  if (value === '' || value.length > MAX_COLOR_LENGTH) return undefined

  const list = LIST.exec(value)
  if (list) {
    const [r, g, b] = [Number(list[1]), Number(list[2]), Number(list[3])]
    if ([r, g, b].some((c) => c > 255)) return undefined
    if (list[4] === undefined) return { r, g, b, alpha: 1 }
    // A fraction ("0.5", "1.0") is CSS alpha 0..1; a whole number is 0..255, as the
    // hosted service's docs write it ("0,0,0,80").
    const a = Number(list[4])
    if (list[4].includes('.')) return a <= 1 ? { r, g, b, alpha: a } : undefined
    return a <= 255 ? { r, g, b, alpha: a / 255 } : undefined
  }

  if (NAME.test(value)) {
    const key = value.toLowerCase().replace(/ +/g, '')
    if (key === 'transparent') return { r: 0, g: 0, b: 0, alpha: 0 }
    // Own keys only: "constructor" or "__proto__" are no colours.
    if (Object.hasOwn(colorsNamed, key)) return parseHexDigits((colorsNamed as Record<string, number>)[key]!.toString(16).padStart(6, '0'))
  }

  const hex = parseHexDigits(value.replace(/^#/, ''))
  if (hex) return hex
  if (/^[a-z]/i.test(value) && !value.includes('(')) return undefined // a word that is no colour name

  const parsed = parse(value)
  if (parsed === undefined) return undefined
  const rgb = toRgb(parsed)
  // Wider-gamut colours (lab(), oklch()) are clamped into sRGB, what the canvas draws.
  const channel = (c: number | undefined): number => Math.round(Math.min(1, Math.max(0, Number.isFinite(c) ? c! : 0)) * 255)
  const alpha = rgb.alpha === undefined || !Number.isFinite(rgb.alpha) ? 1 : Math.min(1, Math.max(0, rgb.alpha))
  return { r: channel(rgb.r), g: channel(rgb.g), b: channel(rgb.b), alpha }
}
