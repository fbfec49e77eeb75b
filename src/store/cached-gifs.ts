// The gif catalog's random pick, answered from memory: every GET /sfw/gif request
// picks one gif, and the store lookup (an SQLite join; a PostgreSQL round trip) cost as
// much as the rest of the request (docs/gifs.md, "Performance"). Each category's
// entries are kept by position (seq) as they are first picked, and trusted while the
// category's count and version (bumped by every add and remove, migration 4) are
// unchanged: the store is asked for those at most once per TTL per category. Changes
// made through this store drop the category at once; changes made elsewhere (another
// instance, the CLI in another process) are seen within the TTL.
import type { GifCatalogStore, GifRecord } from './interface.js'

/** Default time a category's cached entries are trusted without asking the store again. */
export const DEFAULT_GIF_CACHE_TTL_MS = 1000
/**
 * Records kept at most, over all categories; past it, picks are answered by the store
 * (uncached) until a change drops some category. What the bound costs in memory, and
 * which catalogs reach it: docs/memory.md, "Caches".
 */
export const MAX_CACHED_GIFS = 200_000

interface CategoryState {
  count: number
  version: number
  /** When the store was asked (before its answer: the answer is at least that fresh). */
  checkedAt: number
  /** seq → record, filled as positions are picked. */
  entries: GifRecord[]
  cached: number
}

export interface GifCacheOptions {
  /** Overrides MAX_CACHED_GIFS (tests). */
  maxCached?: number
  /** The clock (tests). */
  now?: () => number
}

export function withGifCache (inner: GifCatalogStore, ttlMs = DEFAULT_GIF_CACHE_TTL_MS, options: GifCacheOptions = {}): GifCatalogStore {
  if (ttlMs <= 0) return inner
  const maxCached = options.maxCached ?? MAX_CACHED_GIFS
  const now = options.now ?? Date.now
  // Categories are the 27 gif types (the catalog refuses others before the store).
  const states = new Map<string, CategoryState>()
  // One check per category in flight: concurrent picks share it.
  const checks = new Map<string, Promise<CategoryState>>()
  let total = 0

  const drop = (category: string): void => {
    const state = states.get(category)
    if (state) total -= state.cached
    states.delete(category)
  }

  const check = (category: string): Promise<CategoryState> => {
    const checkedAt = now()
    const pending = inner.categoryState(category).then(({ count, version }): CategoryState => {
      const old = states.get(category)
      if (old && old.count === count && old.version === version) {
        old.checkedAt = checkedAt
        return old
      }
      if (old) total -= old.cached
      const state = { count, version, checkedAt, entries: [], cached: 0 }
      states.set(category, state)
      return state
    }).finally(() => checks.delete(category))
    checks.set(category, pending)
    return pending
  }

  const current = (category: string): CategoryState | Promise<CategoryState> => {
    const state = states.get(category)
    if (state && now() - state.checkedAt < ttlMs) return state
    return checks.get(category) ?? check(category)
  }

  return {
    async pickOne (category, fraction) {
      const state = await current(category)
      if (state.count === 0) return undefined
      const seq = Math.min(state.count - 1, Math.floor(fraction * state.count))
      const hit = state.entries[seq]
      if (hit) return hit
      let seen = 0
      const [row] = await inner.pick(category, (n) => {
        seen = n
        return [Math.min(n - 1, Math.floor(fraction * n))]
      })
      // Only into the state still in use: one dropped meanwhile no longer counts in total.
      const live = states.get(category) === state
      // The count moved since the check (a change made elsewhere, or a check that began
      // before a change made here): the row is still a uniform pick from the store's
      // current snapshot, but the cached positions are stale.
      if (seen !== state.count) {
        if (live) drop(category)
        return row
      }
      if (row && live && total < maxCached && state.entries[seq] === undefined) {
        state.entries[seq] = row
        state.cached++
        total++
      }
      return row
    },
    // Several distinct gifs (?amount=N) are rare: straight to the store.
    pick: (category, choose) => inner.pick(category, choose),
    async add (gifs) {
      const added = await inner.add(gifs)
      for (const category of new Set(gifs.map((g) => g.category))) drop(category)
      return added
    },
    async remove (id) {
      const removed = await inner.remove(id)
      if (removed) drop(removed.category)
      return removed
    },
    async removeMany (ids) {
      const removed = await inner.removeMany(ids)
      for (const category of new Set(removed.map((g) => g.category))) drop(category)
      return removed
    },
    categoryState: (category) => inner.categoryState(category),
    get: (id) => inner.get(id),
    findByHash: (hash) => inner.findByHash(hash),
    has: (category, key) => inner.has(category, key),
    list: (options) => inner.list(options),
    counts: () => inner.counts(),
    hashes: () => inner.hashes()
  }
}
