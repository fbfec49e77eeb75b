// The `background` parameter: the colour transparency is flattened onto for JPEG, read
// by the API's one colour parser (src/colors/spelling.ts, the table in docs/colors.md).
import { parseColorSpelling } from '../../colors/spelling.js'
import { AppError } from '../../errors.js'

export interface Rgba { r: number, g: number, b: number, alpha: number }

export const WHITE: Readonly<Rgba> = Object.freeze({ r: 255, g: 255, b: 255, alpha: 1 })

export function parseBackground (raw: string): Rgba {
  const colour = parseColorSpelling(raw)
  if (colour === undefined) {
    throw new AppError('VALIDATION',
      `Invalid query parameter "background": "${raw.slice(0, 40)}" is not a colour; use a CSS name (white), rrggbb (with or without #), r,g,b or a CSS colour such as rgb(0, 128, 255) (docs/colors.md lists every spelling)`)
  }
  return colour
}
