import { LRUCache } from 'lru-cache'
import { type CounterStore, windowStart } from './counter-store.js'

/**
 * Identities (keys, client addresses or IPv6 prefixes) tracked at most: the default of
 * RATE_LIMIT_MAX_TRACKED. About 150 bytes each, so 100,000 hold ~15 MB. Past the bound
 * the least recently seen identity is forgotten (its window starts again when it
 * returns): within one window the store cannot grow with the number of clients.
 */
export const DEFAULT_MAX_TRACKED = 100_000

interface Window { start: number, end: number, count: number }

export interface MemoryCounterStore extends CounterStore {
  /** Identities held now (at most the bound). */
  readonly size: number
}

export function createMemoryCounterStore (maxTracked = DEFAULT_MAX_TRACKED): MemoryCounterStore {
  // Ended windows need no sweep: the next hit of that identity replaces its window, and
  // the LRU bound keeps the rest.
  const windows = new LRUCache<string, Window>({ max: maxTracked })

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
    async close () {
      windows.clear()
    }
  }
}
