// What a feature sees of the result cache: one call that answers an address from the
// cache, from a drawing another request started, or by drawing it (src/result-cache/
// result-cache.ts). Tests drive it through this interface with a store of their own.
import type { StoredAnswer } from './entry-format.js'

export type { StoredAnswer } from './entry-format.js'

/** Where an answer came from: `miss` when this request's own work made it. */
export type CacheOutcome = 'hit' | 'miss'

export interface Made {
  answer: StoredAnswer
  /** False for an answer that must not be kept (a remote image failed and was left out). */
  cacheable: boolean
}

export interface ResultCacheStats {
  hits: number
  misses: number
  bytes: number
  entries: number
  evictions: number
  errors: number
  damaged: number
}

export interface ResultCache {
  /** False when RESULT_CACHE_MAX_BYTES is 0: every answer is made, none is kept or shared. */
  readonly enabled: boolean
  /**
   * The answer for `address`: from the cache, from the work another request started for
   * it, or made by `make` (called with the work's signal, which fires once every request
   * waiting for it has left). Rejects with `signal`'s reason when it fires first, and
   * with the work's error when it fails. Cache failures are never thrown: they are misses.
   */
  answer (address: string, signal: AbortSignal, make: (signal: AbortSignal) => Promise<Made>): Promise<{ answer: StoredAnswer, cache: CacheOutcome }>
  readonly stats: ResultCacheStats
  close (): Promise<void>
}
