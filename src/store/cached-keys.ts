// A short-lived cache in front of a KeyStore's look-up by hash: every request
// authenticates, and a store round trip per request (an SQLite read transaction, a
// PostgreSQL query) was the largest cost of the shared request path. Changes made
// through this store drop the cached entry at once; changes made elsewhere (another
// instance, the CLI in another process) are seen within the TTL.
import type { ApiKeyRecord, KeyStore } from './interface.js'

/** Default time a looked-up key is trusted without asking the store again. */
export const DEFAULT_KEY_CACHE_TTL_MS = 1000
/** Entries kept at most; a flood of random keys cannot grow the cache beyond it. */
const MAX_ENTRIES = 10_000

export interface KeyCacheOptions {
  /** The clock entries expire by (tests set their own). */
  now?: () => number
}

export function withKeyCache (inner: KeyStore, ttlMs = DEFAULT_KEY_CACHE_TTL_MS, options: KeyCacheOptions = {}): KeyStore {
  if (ttlMs <= 0) return inner
  const clock = options.now ?? Date.now
  // Misses are cached too (as null): unknown keys do not reach the store each time.
  const cache = new Map<string, { record: ApiKeyRecord | null, expires: number }>()
  const forget = (record: ApiKeyRecord | undefined): void => { if (record) cache.delete(record.hash) }

  return {
    async findByHash (hash) {
      const now = clock()
      const hit = cache.get(hash)
      if (hit !== undefined && hit.expires > now) return hit.record ?? undefined
      const record = await inner.findByHash(hash)
      if (cache.size >= MAX_ENTRIES) cache.clear()
      cache.set(hash, { record: record ?? null, expires: now + ttlMs })
      return record
    },
    async create (key) {
      cache.delete(key.hash)
      const record = await inner.create(key)
      cache.delete(key.hash)
      return record
    },
    findByName: (name) => inner.findByName(name),
    list: () => inner.list(),
    async setStatus (name, status) {
      const record = await inner.setStatus(name, status)
      forget(record)
      return record
    },
    async setLimits (name, limits) {
      const record = await inner.setLimits(name, limits)
      forget(record)
      return record
    },
    async rename (name, newName) {
      const record = await inner.rename(name, newName)
      forget(record)
      return record
    },
    count: () => inner.count()
  }
}
