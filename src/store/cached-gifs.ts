// The gif catalog's random pick, answered from memory: every GET /sfw/gif request
// picks one gif, and the store lookup (an SQLite join; a PostgreSQL round trip) cost as
// much as the rest of the request (docs/gifs.md, "Performance"). Each category's
// entries are kept by position (seq) as they are first picked, and trusted while the
// category's count and version (bumped by every add and remove, migration 4) are
// unchanged: the store is asked for those at most once per TTL per category. Changes
// made through this store drop the category at once; changes made elsewhere (another
// instance, the CLI in another process) are seen within the TTL.
// When the store does not answer (StoreUnavailableError), a category checked before is
// answered from the entries held for GIF_STALE_MS past its TTL: a position not held is
// replaced by a uniform pick among the held ones (a category is held once any of its
// positions was picked). A category never picked, or past the bound, fails with the
// store's error (503).
import { type GifCatalogStore, type GifRecord, isStoreUnavailable } from './interface.js'

/** Default time a category's cached entries are trusted without asking the store again. */
export const DEFAULT_GIF_CACHE_TTL_MS = 1000
/**
 * How long past its TTL a category's held entries still answer while the store is
 * unavailable. A gif removed elsewhere just before or during an outage may be picked
 * that long (TTL + GIF_STALE_MS, 61 s with the defaults); its file stays served by the
 * instances holding a copy (src/store/postgres/index.ts).
 */
export const GIF_STALE_MS = 60_000
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
  /** The same records, densely: what an outage picks from. */
  held: GifRecord[]
}

export interface GifCacheOptions {
  /** Overrides MAX_CACHED_GIFS (tests). */
  maxCached?: number
  /** The clock (tests). */
  now?: () => number
  /** Overrides GIF_STALE_MS (0: never answer past the TTL). */
  staleMs?: number
}

export function withGifCache (inner: GifCatalogStore, ttlMs = DEFAULT_GIF_CACHE_TTL_MS, options: GifCacheOptions = {}): GifCatalogStore {
  if (ttlMs <= 0) return inner
  const maxCached = options.maxCached ?? MAX_CACHED_GIFS
  const now = options.now ?? Date.now
  const staleMs = options.staleMs ?? GIF_STALE_MS
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
      const state: CategoryState = { count, version, checkedAt, entries: [], cached: 0, held: [] }
      states.set(category, state)
      return state
    }).finally(() => checks.delete(category))
    checks.set(category, pending)
    return pending
  }

  /** The category's state while the store is unavailable: held entries within the bound, or the store's error. */
  const stale = (category: string, err: unknown): CategoryState => {
    const state = states.get(category)
    if (state && state.held.length > 0 && isStoreUnavailable(err) && now() - state.checkedAt < ttlMs + staleMs) return state
    throw err
  }

  const current = async (category: string): Promise<CategoryState> => {
    const state = states.get(category)
    if (state && now() - state.checkedAt < ttlMs) return state
    try {
      return await (checks.get(category) ?? check(category))
    } catch (err) {
      return stale(category, err)
    }
  }

  /** A uniform pick among the held entries (the store being unavailable). */
  const fromHeld = (state: CategoryState, fraction: number): GifRecord =>
    state.held[Math.min(state.held.length - 1, Math.floor(fraction * state.held.length))]!

  return {
    async pickOne (category, fraction) {
      const state = await current(category)
      if (state.count === 0) return undefined
      const seq = Math.min(state.count - 1, Math.floor(fraction * state.count))
      const hit = state.entries[seq]
      if (hit) return hit
      let seen = 0
      let row: GifRecord | undefined
      try {
        [row] = await inner.pick(category, (n) => {
          seen = n
          return [Math.min(n - 1, Math.floor(fraction * n))]
        })
      } catch (err) {
        return fromHeld(stale(category, err), fraction)
      }
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
        state.held.push(row)
        state.cached++
        total++
      }
      return row
    },
    // Several positions (?amount=N, and picks with exclusions): from the held entries when
    // they hold every position chosen, else from the store, asked for the same positions
    // when its count is still the one they were chosen for (the answer is then held too).
    // While the store is unavailable: distinct picks among the held entries.
    async pick (category, choose) {
      const fromHeldOnly = (err: unknown): GifRecord[] => {
        const { held } = stale(category, err)
        return choose(held.length).map((i) => held[i]!).filter((g) => g !== undefined)
      }
      let state = states.get(category)
      if (!state || now() - state.checkedAt >= ttlMs) {
        try {
          state = await (checks.get(category) ?? check(category))
        } catch (err) {
          return fromHeldOnly(err)
        }
      }
      if (state.count === 0) return []
      const seqs = choose(state.count)
      const hits = seqs.map((seq) => state.entries[seq])
      if (hits.every((g) => g !== undefined)) return hits as GifRecord[]
      let seen = 0
      let rows: GifRecord[]
      try {
        rows = await inner.pick(category, (n) => {
          seen = n
          return n === state!.count ? seqs : choose(n)
        })
      } catch (err) {
        return fromHeldOnly(err)
      }
      const live = states.get(category) === state
      if (seen !== state.count) {
        if (live) drop(category)
      } else if (live && rows.length === seqs.length) {
        seqs.forEach((seq, i) => {
          if (total < maxCached && state.entries[seq] === undefined) {
            state.entries[seq] = rows[i]!
            state.held.push(rows[i]!)
            state.cached++
            total++
          }
        })
      }
      return rows
    },
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
    // Hiding, showing and new attribution change the category's positions or records:
    // dropped here at once, seen elsewhere through the version within the TTL.
    async hide (id) {
      const gif = await inner.hide(id)
      if (gif) drop(gif.category)
      return gif
    },
    async unhide (id) {
      const gif = await inner.unhide(id)
      if (gif) drop(gif.category)
      return gif
    },
    async setAttribution (id, fields) {
      const gif = await inner.setAttribution(id, fields)
      if (gif) drop(gif.category)
      return gif
    },
    report: (report) => inner.report(report),
    reports: (options) => inner.reports(options),
    dismissReport: (id, at) => inner.dismissReport(id, at),
    categoryState: (category) => inner.categoryState(category),
    get: (id) => inner.get(id),
    findByHash: (hash) => inner.findByHash(hash),
    has: (category, key) => inner.has(category, key),
    list: (options) => inner.list(options),
    counts: () => inner.counts(),
    hashes: () => inner.hashes()
  }
}
