import { LRUCache } from 'lru-cache'
import { type CounterStore, windowStart } from './interface.js'

/**
 * Identities (keys, client addresses or IPv6 prefixes) tracked at most: the default of
 * RATE_LIMIT_MAX_TRACKED. About 150 bytes each, so 100,000 hold ~15 MB. Past the bound
 * the least recently seen identity is forgotten (its window starts again when it
 * returns): within one window the store cannot grow with the number of clients.
 */
export const DEFAULT_MAX_TRACKED = 100_000

/**
 * Lists kept at most by remember() (a key and gif category each, up to 50 ids: about
 * 600 bytes, so 6 MB at the bound); past it the least recently used is forgotten.
 */
export const MAX_REMEMBERED_LISTS = 10_000

interface Window { start: number, end: number, count: number }

export interface MemoryCounterStore extends CounterStore {
  /** Identities held now (at most the bound). */
  readonly size: number
}

/**
 * An LRU cache of at most `entries` entries whose storage grows with what it holds:
 * lru-cache's `max` allocates its arrays for every entry up front (2.8 MB for 100,000,
 * held by a server with a handful of keys), while a `maxSize` counted one per entry
 * bounds the same number without that (lru-cache's README, "Storage Bounds Safety").
 */
function boundedCache<V extends {}> (entries: number): LRUCache<string, V> {
  return new LRUCache<string, V>({ maxSize: entries, sizeCalculation: () => 1 })
}

export function createMemoryCounterStore (maxTracked = DEFAULT_MAX_TRACKED): MemoryCounterStore {
  // Ended windows need no sweep: the next hit of that identity replaces its window, and
  // the LRU bound keeps the rest.
  const windows = boundedCache<Window>(maxTracked)
  const lists = boundedCache<number[]>(MAX_REMEMBERED_LISTS)

  return {
    kind: 'memory',
    get size () { return windows.size },
    state: () => 'ok',
    async hit (id, cost, windowMs, now) {
      const start = windowStart(now, windowMs)
      let w = windows.get(id)
      if (!w || w.start !== start) {
        w = { start, end: start + windowMs, count: 0 }
        windows.set(id, w)
      }
      w.count += cost
      return { count: w.count, resetAt: w.end }
    },
    async remember (id, values, keep, ttlMs) {
      const list = [...(lists.get(id) ?? []), ...values].slice(-keep)
      lists.set(id, list, { ttl: ttlMs })
    },
    async recent (id, count) {
      return count > 0 ? (lists.get(id) ?? []).slice(-count).reverse() : []
    },
    async close () {
      windows.clear()
      lists.clear()
    }
  }
}
