// The colours of a picture, from its pixels (already decoded small: picture-pixels.ts):
// a palette of up to eight colours with the share of the picture each covers, the
// dominant one (the largest share), the average colour, a ThumbHash placeholder and the
// text colour readable on the dominant one. Plain values in, plain values out.
//
// The palette is MMCQ (modified median cut, Bloomberg 2008) from the `quantize` package,
// the one colorthief uses: it splits the colour cube into at most eight boxes by pixel
// count and volume. Each colour given here is the mean of the real pixels in its box and
// its share is the box's pixel count over the counted pixels: quantize's own colours are
// the centres of its 5-bit histogram cells (pure red comes out as #fc0404), and the
// boxes it adds when a picture has fewer colours than asked hold no pixel (it gives them
// an invented colour), so empty boxes are dropped.
//
// Counted pixels: those at least half opaque (alpha ≥ 128), as colorthief does; a picture
// with none (wholly transparent) is counted whole, by its colour channels.
import quantize from 'quantize'
import { rgbaToThumbHash } from 'thumbhash'
import { describe, toHex, type RgbValue } from './convert.js'

/** Colours in a palette at most. */
export const MAX_PALETTE = 8
/** The longest side thumbhash takes (it refuses larger). */
export const MAX_THUMBHASH_SIDE = 100
/** Alpha from which a pixel counts. */
const OPAQUE = 128

/** RGBA pixels, row by row. */
export interface Pixels {
  width: number
  height: number
  /** width × height × 4 bytes. */
  rgba: Uint8Array
}

export interface PictureColor extends RgbValue {
  hex: string
  rgb: string
  /** The colour as the integer 0xRRGGBB: what Discord's embed `color` field takes. */
  int: number
  /** The nearest named colour in the catalogue. */
  name: string
}

export interface PictureColors {
  dominant: PictureColor & { share: number }
  palette: Array<PictureColor & { share: number }>
  average: PictureColor
  placeholder: { thumbhash: string }
  textColor: { color: 'black' | 'white', hex: '#000000' | '#ffffff', contrast: number }
  /** Pixels counted for the palette and the average, of the decoded (small) picture. */
  pixels: number
}

const round = (x: number, digits: number): number => {
  const f = 10 ** digits
  return Math.round(x * f) / f
}

/** The palette of `pixels`, largest share first, and their average colour: plain colours. */
export interface Palette {
  palette: Array<{ color: RgbValue, share: number }>
  average: RgbValue
  /** Pixels counted (see the top of this file). */
  pixels: number
}

/** The palette and average of `pixels` (the MMCQ boxes' own pixels' means), without names. */
export function paletteOf (pixels: Pixels): Palette {
  const { width, height, rgba } = pixels
  if (width < 1 || height < 1 || rgba.length !== width * height * 4) throw new Error(`pictureColors: ${width}×${height} needs ${width * height * 4} bytes, got ${rgba.length}`)
  const all = width * height
  let opaque = 0
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i]! >= OPAQUE) opaque++
  const counts = (i: number): boolean => opaque === 0 || rgba[4 * i + 3]! >= OPAQUE
  const rgb: Array<[number, number, number]> = []
  let sr = 0
  let sg = 0
  let sb = 0
  for (let i = 0; i < all; i++) {
    if (!counts(i)) continue
    const r = rgba[4 * i]!
    const g = rgba[4 * i + 1]!
    const b = rgba[4 * i + 2]!
    rgb.push([r, g, b])
    sr += r
    sg += g
    sb += b
  }
  const n = rgb.length

  // Each pixel to the box that holds it; the boxes partition the cube.
  const map = quantize(rgb, MAX_PALETTE)
  const boxes = map === false ? [] : map.vboxes.map((v) => v.vbox)
  const sums = boxes.map(() => ({ r: 0, g: 0, b: 0, n: 0 }))
  for (const p of rgb) {
    let k = boxes.findIndex((box) => box.contains(p))
    // quantize returns no map when every pixel is one colour; a pixel outside every box cannot happen, but would count with the first.
    if (k < 0) k = 0
    const s = sums[k] ?? (sums[k] = { r: 0, g: 0, b: 0, n: 0 })
    s.r += p[0]
    s.g += p[1]
    s.b += p[2]
    s.n++
  }
  const merged = new Map<string, { color: RgbValue, n: number }>()
  for (const s of sums) {
    if (s.n === 0) continue
    const color = { r: Math.round(s.r / s.n), g: Math.round(s.g / s.n), b: Math.round(s.b / s.n) }
    const key = toHex(color)
    const seen = merged.get(key)
    if (seen === undefined) merged.set(key, { color, n: s.n })
    else seen.n += s.n
  }
  const palette = [...merged.values()]
    .sort((a, b) => b.n - a.n || toHex(a.color).localeCompare(toHex(b.color)))
    .map(({ color, n: count }) => ({ color, share: round(count / n, 4) }))
  return { palette, average: { r: Math.round(sr / n), g: Math.round(sg / n), b: Math.round(sb / n) }, pixels: n }
}

/** The colours of `pixels`; `name` gives a colour's nearest name (the catalogue's). */
export function pictureColors (pixels: Pixels, name: (color: RgbValue) => string): PictureColors {
  const colorOf = (c: RgbValue): PictureColor => {
    const hex = toHex(c)
    return { r: c.r, g: c.g, b: c.b, hex, rgb: `rgb(${c.r}, ${c.g}, ${c.b})`, int: (c.r << 16) | (c.g << 8) | c.b, name: name(c) }
  }
  const found = paletteOf(pixels)
  const palette = found.palette.map(({ color, share }) => ({ ...colorOf(color), share }))
  const dominant = palette[0]!
  const average = colorOf(found.average)

  const text = describe(dominant).text
  const contrast = text.color === 'black' ? text.contrastWithBlack : text.contrastWithWhite
  const placeholder = Buffer.from(rgbaToThumbHash(pixels.width, pixels.height, pixels.rgba)).toString('base64')
  return { dominant, palette, average, placeholder: { thumbhash: placeholder }, textColor: { color: text.color, hex: text.hex, contrast }, pixels: found.pixels }
}
