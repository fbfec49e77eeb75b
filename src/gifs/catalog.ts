// The gif catalog as the API sees it: a uniformly random gif of a category, and the
// public URL of each gif. Takes plain values; throws AppError with catalogue codes.
import { AppError } from '../errors.js'
import type { GifCatalogStore, GifRecord } from '../store/interface.js'
import { GIF_TYPES, isGifType } from './types.js'
import { webpOffered } from './webp.js'

export const MAX_AMOUNT = 20
/** The path under PUBLIC_URL where gif files are served (src/gifs/routes.ts). */
export const FILES_PATH = '/files/gifs'
/** Ids `?exclude=` may name at most. */
export const MAX_EXCLUDE = 100
/** `?norepeat=N`: a key's last N picks of a category are remembered, N at most this. */
export const MAX_NOREPEAT = 50
/** A key's remembered picks are forgotten this long after its last pick with norepeat. */
export const NOREPEAT_MEMORY_MS = 24 * 60 * 60 * 1000

/** One gif as GET /sfw/gif answers it: snake_case on the wire, null for what is unknown. */
export interface GifAnswer {
  id: string
  file: string
  anime_name: string | null
  artist: string | null
  artist_url: string | null
  source_url: string | null
  width: number | null
  height: number | null
  frames: number | null
  bytes: number | null
  dominant_color: string | null
}

/** The formats a gif is answered in: its GIF, or an animated WebP made from it. */
export const GIF_FORMATS = ['gif', 'webp'] as const
export type GifFormat = typeof GIF_FORMATS[number]

export interface PickOptions {
  /** How many distinct gifs (1 to MAX_AMOUNT). */
  amount?: number
  /** Ids never to answer. */
  exclude?: readonly number[]
  /** Do not answer any of the last N gifs this viewer was shown in this category. */
  norepeat?: number
  /** Whose picks norepeat remembers (the key's id). */
  viewer?: string
  format?: GifFormat
}

/** Where a viewer's recent picks are remembered (the rate-limit counters: memory or Redis). */
export interface RecentPicks {
  remember (id: string, values: readonly number[], keep: number, ttlMs: number): Promise<void>
  recent (id: string, count: number): Promise<number[]>
}

export interface GifCatalog {
  /** `amount` distinct gifs of the category (fewer if it holds fewer), in random order. */
  random (type: string, options?: number | PickOptions): Promise<GifAnswer[]>
  /** The public URL of a gif: its external URL, or our file URL named by its hash. */
  fileUrl (gif: GifRecord, format?: GifFormat): string
}

export interface GifCatalogOptions {
  store: GifCatalogStore
  publicUrl: string
  /** A number in [0, 1); injectable so tests can fix the sequence. */
  random?: () => number
  /** Needed for norepeat; without it norepeat remembers nothing. */
  recent?: RecentPicks
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

/** A gif record as the API answers it. External entries added without sizes answer null for them. */
export function gifAnswer (gif: GifRecord, file: string): GifAnswer {
  const known = (n: number): number | null => gif.url !== null && n === 0 ? null : n
  return {
    id: String(gif.id),
    file,
    anime_name: gif.animeName ?? null,
    artist: gif.artist ?? null,
    artist_url: gif.artistUrl ?? null,
    source_url: gif.sourceUrl ?? null,
    width: known(gif.width),
    height: known(gif.height),
    frames: known(gif.frames),
    bytes: known(gif.size),
    dominant_color: gif.dominantColor ?? null
  }
}

function unknownType (rawType: string): AppError {
  return new AppError('GIF_UNKNOWN_TYPE', `Unknown gif type "${rawType.slice(0, 50)}": use one of ${GIF_TYPES.join(', ')}`, { details: { validTypes: [...GIF_TYPES] } })
}

export function createGifCatalog ({ store, publicUrl, random = Math.random, recent }: GifCatalogOptions): GifCatalog {
  const base = publicUrl.replace(/\/+$/, '')
  // A gif too large to convert within a request is answered as GIF whatever the format (src/gifs/webp.ts).
  const fileUrl = (gif: GifRecord, format: GifFormat = 'gif'): string =>
    gif.url ?? `${base}${FILES_PATH}/${gif.hash}.${format === 'webp' && webpOffered(gif) ? 'webp' : 'gif'}`

  /**
   * `k` distinct gifs none of whose ids is excluded, uniformly among the others and in
   * random order: the first k allowed entries of a random ordering of the category. At
   * most k + |excluded| positions are looked up, so the cost is bounded by the size of
   * the exclusion, never by the category's. `excluded(n)` is asked with the category's size.
   */
  const pickAllowed = async (type: string, k: number, excluded: (n: number) => ReadonlySet<number>): Promise<GifRecord[]> => {
    let skip: ReadonlySet<number> = new Set()
    const rows = await store.pick(type, (n) => {
      skip = excluded(n)
      return choosePositions(n, Math.min(n, k + skip.size), random)
    })
    return rows.filter((g) => !skip.has(g.id)).slice(0, k)
  }

  return {
    fileUrl,
    async random (rawType, options = {}) {
      const { amount = 1, exclude = [], norepeat = 0, viewer, format = 'gif' } = typeof options === 'number' ? { amount: options } : options
      const type = normaliseType(rawType)
      if (!isGifType(type)) throw unknownType(rawType)
      const k = Math.max(1, Math.min(MAX_AMOUNT, Math.floor(amount)))
      const memory = norepeat > 0 && viewer !== undefined && recent !== undefined ? `${viewer}:${type}` : undefined
      const history = memory === undefined ? [] : await recent!.recent(memory, Math.min(norepeat, MAX_NOREPEAT))
      let gifs: GifRecord[]
      if (exclude.length === 0 && history.length === 0) {
        // The plain pick: one position, or k distinct ones, in constant time.
        gifs = k === 1
          ? [await store.pickOne(type, random())].filter((g) => g !== undefined)
          : await store.pick(type, (n) => choosePositions(n, k, random))
      } else {
        const explicit = new Set(exclude)
        // The history gives way where the category is too small for it: the n - 1 most
        // recent are left out at most, so that a category of n gifs still answers.
        gifs = await pickAllowed(type, k, (n) => new Set([...explicit, ...history.slice(0, Math.max(0, n - 1))]))
        if (gifs.length === 0 && history.length > 0 && explicit.size > 0) gifs = await pickAllowed(type, k, () => explicit)
        if (gifs.length === 0 && explicit.size > 0 && (await store.categoryState(type)).count > 0) {
          throw new AppError('GIF_ALL_EXCLUDED', `Every gif of the category "${type}" is in exclude: exclude fewer ids`)
        }
      }
      if (gifs.length === 0) {
        throw new AppError('GIF_CATEGORY_EMPTY', `The gif category "${type}" has no gifs yet: the operator can add some with "npm run cli -- gifs import <folder>"`)
      }
      if (memory !== undefined) await recent!.remember(memory, gifs.map((g) => g.id).reverse(), MAX_NOREPEAT, NOREPEAT_MEMORY_MS)
      return gifs.map((g) => gifAnswer(g, fileUrl(g, format)))
    }
  }
}
