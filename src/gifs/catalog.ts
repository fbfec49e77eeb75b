// The gif catalog as the API sees it: a uniformly random gif of a category, and the
// public URL of each gif. Takes plain values; throws AppError with catalogue codes.
import { AppError } from '../errors.js'
import type { GifCatalogStore, GifRecord } from '../store/interface.js'
import { GIF_TYPES, isGifType } from './types.js'

export const MAX_AMOUNT = 20
/** The path under PUBLIC_URL where gif files are served (src/gifs/routes.ts). */
export const FILES_PATH = '/files/gifs'

export interface GifAnswer {
  id: string
  file: string
}

export interface GifCatalog {
  /** `amount` distinct gifs of the category (fewer if it holds fewer), in random order. */
  random (type: string, amount?: number): Promise<GifAnswer[]>
  /** The public URL of a gif: its external URL, or our file URL named by its hash. */
  fileUrl (gif: GifRecord): string
}

export interface GifCatalogOptions {
  store: GifCatalogStore
  publicUrl: string
  /** A number in [0, 1); injectable so tests can fix the sequence. */
  random?: () => number
}

/**
 * `k` distinct positions of 0..n-1, uniformly at random and in random order, in O(k):
 * the first k steps of a Fisher–Yates shuffle over a virtual array, with the swaps
 * kept in a map instead of an array of n elements.
 */
export function choosePositions (n: number, k: number, random: () => number): number[] {
  const count = Math.min(n, k)
  const swapped = new Map<number, number>()
  const out: number[] = []
  for (let i = 0; i < count; i++) {
    // min() guards against a random() that returns 1 through rounding.
    const j = Math.min(n - 1, i + Math.floor(random() * (n - i)))
    const atJ = swapped.get(j) ?? j
    swapped.set(j, swapped.get(i) ?? i)
    out.push(atJ)
  }
  return out
}

export function normaliseType (type: string): string {
  return type.trim().toLowerCase()
}

export function createGifCatalog ({ store, publicUrl, random = Math.random }: GifCatalogOptions): GifCatalog {
  const base = publicUrl.replace(/\/+$/, '')
  const fileUrl = (gif: GifRecord): string => gif.url ?? `${base}${FILES_PATH}/${gif.hash}.gif`
  return {
    fileUrl,
    async random (rawType, amount = 1) {
      const type = normaliseType(rawType)
      if (!isGifType(type)) {
        throw new AppError('GIF_UNKNOWN_TYPE', `Unknown gif type "${rawType.slice(0, 50)}": use one of ${GIF_TYPES.join(', ')}`, { details: { validTypes: [...GIF_TYPES] } })
      }
      const k = Math.max(1, Math.min(MAX_AMOUNT, Math.floor(amount)))
      const gifs = k === 1
        ? [await store.pickOne(type, random())].filter((g) => g !== undefined)
        : await store.pick(type, (n) => choosePositions(n, k, random))
      if (gifs.length === 0) {
        throw new AppError('GIF_CATEGORY_EMPTY', `The gif category "${type}" has no gifs yet: the operator can add some with "npm run cli -- gifs import <folder>"`)
      }
      return gifs.map((g) => ({ id: String(g.id), file: fileUrl(g) }))
    }
  }
}
