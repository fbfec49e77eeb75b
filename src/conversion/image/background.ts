// The `background` parameter: the colour transparency is flattened onto for JPEG.
// Accepts what clients send for colours elsewhere in the API
// (../shared/compat/existing-clients.md, "Colours everywhere"): a CSS colour name,
// #rrggbb (also without "#", which clients lose to the URL fragment), r,g,b or r,g,b,a.
import ColourModule from '@img/colour'
import { AppError } from '../../errors.js'

export interface Rgba { r: number, g: number, b: number, alpha: number }

export const WHITE: Readonly<Rgba> = Object.freeze({ r: 255, g: 255, b: 255, alpha: 1 })

// The package's types declare an ES default export; at run time (CommonJS) the module is the function.
const Color = ((ColourModule as unknown as { default?: unknown }).default ?? ColourModule) as unknown as typeof ColourModule.default

const RGB_LIST = /^\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*(\d{1,3})\s*)?$/
const BARE_HEX = /^[0-9a-f]{3}(?:[0-9a-f]{3})?$/i

export function parseBackground (raw: string): Rgba {
  const invalid = () => new AppError('VALIDATION',
    `Invalid query parameter "background": "${raw.slice(0, 40)}" is not a colour; use a CSS name (white), rrggbb or r,g,b`)
  const list = RGB_LIST.exec(raw)
  if (list) {
    const [r, g, b, a] = list.slice(1).map((v) => v === undefined ? undefined : Number(v))
    if ([r, g, b, a ?? 255].some((v) => v! > 255)) throw invalid()
    return { r: r!, g: g!, b: b!, alpha: a === undefined ? 1 : a / 255 }
  }
  const text = raw.trim()
  try {
    const colour = Color(BARE_HEX.test(text) ? `#${text}` : text)
    const [r, g, b] = colour.rgb().array()
    return { r: Math.round(r!), g: Math.round(g!), b: Math.round(b!), alpha: colour.alpha() }
  } catch {
    throw invalid()
  }
}
