// Reading the colour a client asks about: hex, rgb or name, in every form existing
// clients send (docs/compatibility.md, "Colours").
import { AppError } from '../errors.js'
import type { RgbValue } from './convert.js'
import { parseHexDigits } from './spelling.js'

/** Longest accepted name or seed: the longest name in the list is under 60 characters. */
export const MAX_NAME_LENGTH = 100
export const MAX_SEED_LENGTH = 100

export const EXAMPLES = {
  hex: 'hex=00ff00 (or hex=%2300ff00, hex=0f0, hex=00ff0080)',
  rgb: 'rgb=0,255,0 (or rgb=0, 255, 0 or rgb=rgb(0, 255, 0))',
  name: 'name=Dark Slate Gray (or name=darkslategray, name=dark-slate-grey)',
  seed: 'seed=my-palette-1'
} as const

export type ColorQuery =
  | { kind: 'hex', value: RgbValue, alpha: number }
  | { kind: 'rgb', value: RgbValue, alpha: number }
  | { kind: 'name', name: string }

const RGB = /^\s*(?:rgb\s*\(\s*(.*?)\s*\)|(.*?))\s*$/i
const CHANNEL = /^\d{1,3}$/

/**
 * `#` is optional: clients build URLs without encoding, so `hex=#00ff00` arrives empty
 * (the `#` starts the fragment) and a client that encodes sends `%23`. The CSS forms
 * #rgba and #rrggbbaa are accepted; the alpha is reported, the colour described opaque.
 */
export function parseHex (raw: string): { value: RgbValue, alpha: number } {
  // The digits are read by the API's colour parser (src/colors/spelling.ts); this
  // parameter keeps its own stricter rule (hex digits only) and messages.
  const parsed = parseHexDigits(raw.trim().replace(/^#/, ''))
  if (parsed === undefined) {
    throw new AppError('COLOR_HEX_INVALID', `Query parameter "hex" must be 3, 4, 6 or 8 hex digits, with or without a leading # (sent as %23), got "${raw.slice(0, 40)}". Example: ${EXAMPLES.hex}`, { details: { parameter: 'hex', example: EXAMPLES.hex } })
  }
  return { value: { r: parsed.r, g: parsed.g, b: parsed.b }, alpha: Math.round(parsed.alpha * 1000) / 1000 }
}

export function parseRgb (raw: string): RgbValue {
  const inner = RGB.exec(raw)!
  const parts = (inner[1] ?? inner[2] ?? '').split(',').map((p) => p.trim())
  if (parts.length !== 3 || !parts.every((p) => CHANNEL.test(p))) {
    throw new AppError('COLOR_RGB_INVALID', `Query parameter "rgb" must be three whole numbers 0..255 separated by commas, got "${raw.slice(0, 40)}". Example: ${EXAMPLES.rgb}`, { details: { parameter: 'rgb', example: EXAMPLES.rgb } })
  }
  const [r, g, b] = parts.map(Number) as [number, number, number]
  const bad = [r, g, b].find((x) => x > 255)
  if (bad !== undefined) {
    throw new AppError('COLOR_RGB_INVALID', `Query parameter "rgb": each of r, g and b must be between 0 and 255, got ${bad}. Example: ${EXAMPLES.rgb}`, { details: { parameter: 'rgb', example: EXAMPLES.rgb } })
  }
  return { r, g, b }
}

/** Exactly one of name, hex, rgb; each problem answered with the parameter and an example. */
export function parseColorQuery (query: { name?: string, hex?: string, rgb?: string }): ColorQuery {
  const given = (['name', 'hex', 'rgb'] as const).filter((k) => query[k] !== undefined)
  if (given.length === 0) {
    throw new AppError('COLOR_QUERY_MISSING', undefined, { details: { parameters: ['name', 'hex', 'rgb'], example: EXAMPLES.hex } })
  }
  if (given.length > 1) {
    throw new AppError('COLOR_QUERY_AMBIGUOUS', `Send exactly one of the query parameters name, hex and rgb; this request has ${given.join(' and ')}`, { details: { parameters: given, example: EXAMPLES.hex } })
  }
  const kind = given[0]!
  const raw = query[kind]!
  if (raw.trim() === '') {
    if (kind === 'hex') throw new AppError('COLOR_HEX_EMPTY', undefined, { details: { parameter: 'hex', example: EXAMPLES.hex } })
    const code = kind === 'rgb' ? 'COLOR_RGB_INVALID' : 'COLOR_NAME_INVALID'
    throw new AppError(code, `Query parameter "${kind}" is empty. Example: ${EXAMPLES[kind]}`, { details: { parameter: kind, example: EXAMPLES[kind] } })
  }
  if (kind === 'hex') return { kind, ...parseHex(raw) }
  if (kind === 'rgb') return { kind, value: parseRgb(raw), alpha: 1 }
  if (raw.length > MAX_NAME_LENGTH || /[\x00-\x1f\x7f]/.test(raw)) {
    throw new AppError('COLOR_NAME_INVALID', `Query parameter "name" must be a colour name of at most ${MAX_NAME_LENGTH} printable characters. Example: ${EXAMPLES.name}`, { details: { parameter: 'name', example: EXAMPLES.name } })
  }
  return { kind, name: raw }
}

export function parseSeed (raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined
  if (raw === '' || raw.length > MAX_SEED_LENGTH || /[\x00-\x1f\x7f]/.test(raw)) {
    throw new AppError('COLOR_SEED_INVALID', `Query parameter "seed" must be 1 to ${MAX_SEED_LENGTH} printable characters. Example: ${EXAMPLES.seed}`, { details: { parameter: 'seed', example: EXAMPLES.seed } })
  }
  return raw
}
