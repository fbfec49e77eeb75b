// Everything the API says about one sRGB colour, from its 8-bit channels. Colour-space
// conversions and WCAG figures come from culori; what culori does not name (CMYK, the
// complementary colour) is the textbook formula, cited where it is used.
import { converter, wcagLuminance, type Rgb } from 'culori'

export interface RgbValue { r: number, g: number, b: number }

/** What the answer says about a colour, before naming. */
export interface ColorFacts {
  hex: string
  rgb: string
  hsl: { h: number, s: number, l: number }
  hsv: { h: number, s: number, v: number }
  cmyk: { c: number, m: number, y: number, k: number }
  /** CIELAB under D65 (sRGB's white, no chromatic adaptation), as CIEDE2000 uses here. */
  lab: { l: number, a: number, b: number }
  luminance: number
  text: { color: 'black' | 'white', hex: '#000000' | '#ffffff', contrastWithBlack: number, contrastWithWhite: number }
  complementary: RgbValue & { hex: string }
}

const toLab65 = converter('lab65')
const toHsl = converter('hsl')
const toHsv = converter('hsv')

const round = (x: number, digits: number) => {
  const f = 10 ** digits
  const v = Math.round(x * f) / f
  return v === 0 ? 0 : v // no -0 in JSON answers
}

function culoriRgb ({ r, g, b }: RgbValue): Rgb {
  return { mode: 'rgb', r: r / 255, g: g / 255, b: b / 255 }
}

/** Lowercase #rrggbb: the form existing clients show (docs/compatibility.md, "Colours"). */
export function toHex ({ r, g, b }: RgbValue): string {
  return '#' + ((r << 16) | (g << 8) | b).toString(16).padStart(6, '0')
}

export function labOf (color: RgbValue): { l: number, a: number, b: number } {
  const lab = toLab65(culoriRgb(color))
  return { l: lab.l, a: lab.a, b: lab.b }
}

/**
 * The complementary colour: hue turned 180° at the same HSL saturation and lightness,
 * which for RGB is max + min − channel (the hue rotation swaps the channels around the
 * mid-range and keeps max and min); exact in integers, no rounding through HSL.
 */
export function complementOf ({ r, g, b }: RgbValue): RgbValue {
  const s = Math.max(r, g, b) + Math.min(r, g, b)
  return { r: s - r, g: s - g, b: s - b }
}

export function describe (color: RgbValue): ColorFacts {
  const c = culoriRgb(color)
  const hsl = toHsl(c)
  const hsv = toHsv(c)
  const lab = labOf(color)
  // CMYK without a profile: K = 1 − max(R', G', B'), C = (1 − R' − K) / (1 − K)...
  const max = Math.max(color.r, color.g, color.b) / 255
  const k = 1 - max
  const cmy = (v: number) => (max === 0 ? 0 : (max - v / 255) / max)
  // WCAG 2.x contrast ratio (L1 + 0.05) / (L2 + 0.05) against black (L = 0) and white (L = 1).
  const luminance = wcagLuminance(c)
  const contrastWithBlack = (luminance + 0.05) / 0.05
  const contrastWithWhite = 1.05 / (luminance + 0.05)
  // WCAG 2.x contrast ratio (1.4.3): the better text colour is the one with the higher
  // ratio; on an exact tie black, the conventional default.
  const black = contrastWithBlack >= contrastWithWhite
  const comp = complementOf(color)
  return {
    hex: toHex(color),
    rgb: `rgb(${color.r}, ${color.g}, ${color.b})`,
    hsl: { h: round(hsl.h ?? 0, 1), s: round(hsl.s * 100, 1), l: round(hsl.l * 100, 1) },
    hsv: { h: round(hsv.h ?? 0, 1), s: round(hsv.s * 100, 1), v: round(hsv.v * 100, 1) },
    cmyk: { c: round(cmy(color.r) * 100, 1), m: round(cmy(color.g) * 100, 1), y: round(cmy(color.b) * 100, 1), k: round(k * 100, 1) },
    lab: { l: round(lab.l, 2), a: round(lab.a, 2), b: round(lab.b, 2) },
    luminance: round(luminance, 4),
    text: {
      color: black ? 'black' : 'white',
      hex: black ? '#000000' : '#ffffff',
      contrastWithBlack: round(contrastWithBlack, 2),
      contrastWithWhite: round(contrastWithWhite, 2)
    },
    complementary: { ...comp, hex: toHex(comp) }
  }
}
