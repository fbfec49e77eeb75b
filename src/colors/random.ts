// Random colours, uniform over the 2^24 colours of the 8-bit sRGB cube. Unseeded:
// crypto.randomInt. Seeded (reproducible): the seed's UTF-8 bytes hashed with 32-bit
// FNV-1a, one step of mulberry32 (Tommy Ettinger's public-domain generator) on that
// state, and the top 24 of its 32 output bits as 0xRRGGBB. Documented in docs/colors.md:
// changing it changes every seeded colour users may have stored.
import { randomInt } from 'node:crypto'
import type { RgbValue } from './convert.js'

const CUBE = 0x1000000

export function fnv1a32 (text: string): number {
  let h = 0x811c9dc5
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= byte
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h >>> 0
}

/** First output of mulberry32 seeded with `state`. */
export function mulberry32 (state: number): number {
  let t = (state + 0x6d2b79f5) >>> 0
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return (t ^ (t >>> 14)) >>> 0
}

export function randomColor (seed?: string): RgbValue {
  const v = seed === undefined ? randomInt(CUBE) : mulberry32(fnv1a32(seed)) >>> 8
  return { r: v >>> 16, g: (v >>> 8) & 255, b: v & 255 }
}
