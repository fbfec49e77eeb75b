// A short-lived cache in front of a KeyStore's look-up by hash: every request
// authenticates, and a store round trip per request (an SQLite read transaction, a
// PostgreSQL query) was the largest cost of the shared request path. Changes made
// through this store drop the cached entry at once; changes made elsewhere (another
// instance, the CLI in another process) are seen within the TTL.
// When the store does not answer (StoreUnavailableError: PostgreSQL unreachable or
// stalling), a key looked up before keeps its last answer for KEY_STALE_MS past its TTL,
// so known keys keep working through a short outage; a key first seen during the outage
// is refused with the store's error (503).
import { type ApiKeyRecord, isStoreUnavailable, type KeyStore } from './interface.js'

/** Default time a looked-up key is trusted without asking the store again. */
export const DEFAULT_KEY_CACHE_TTL_MS = 1000
/**
 * How long past its TTL a cached answer is still used while the store is unavailable.
 * This is also how long a key revoked or disabled elsewhere just before or during an
 * outage may still pass on an instance that had it cached: at most TTL + KEY_STALE_MS
 * (61 s with the defaults) after the revocation reached the store.
 */
export const KEY_STALE_MS = 60_000
/** Entries kept at most; a flood of random keys cannot grow the cache beyond it. */
const MAX_ENTRIES = 10_000

export interface KeyCacheOptions {
  /** The clock entries expire by (tests set their own). */
  now?: () => number
  /** Overrides KEY_STALE_MS (0: never answer past the TTL). */
  staleMs?: number
}

export function withKeyCache (inner: KeyStore, ttlMs = DEFAULT_KEY_CACHE_TTL_MS, options: KeyCacheOptions = {}): KeyStore {
  if (ttlMs <= 0) return inner
  const clock = options.now ?? Date.now
  const staleMs = options.staleMs ?? KEY_STALE_MS
  // Misses are cached too (as null): unknown keys do not reach the store each time.
  const cache = new Map<string, { record: ApiKeyRecord | null, expires: number }>()
  // The same for the look-up by link id (GET /l/...): a key disabled or revoked is refused
  // on its links within the same TTL as on its requests.
  const byLinkId = new Map<string, { record: ApiKeyRecord | null, expires: number }>()
  // A rolled key is cached under both hashes: its old one answers the same record
  // (src/access/keys.ts refuses it once previousValidUntil has passed, by its clock).
  const forget = (record: ApiKeyRecord | undefined): void => {
    if (!record) return
    cache.delete(record.hash)
    if (record.previousHash !== null) cache.delete(record.previousHash)
    byLinkId.delete(record.linkId)
  }
  const changed = async (change: Promise<ApiKeyRecord | undefined>): Promise<ApiKeyRecord | undefined> => {
    const record = await change
    forget(record)
    return record
  }

  async function cached (map: typeof cache, id: string, load: (id: string) => Promise<ApiKeyRecord | undefined>): Promise<ApiKeyRecord | undefined> {
    const now = clock()
    const hit = map.get(id)
    if (hit !== undefined && hit.expires > now) return hit.record ?? undefined
    let record: ApiKeyRecord | undefined
    try {
      record = await load(id)
    } catch (err) {
      // The last answer stands while the store is out, within the bound; the entry keeps
      // its expiry, so the bound counts from the last answer the store gave.
      if (hit !== undefined && isStoreUnavailable(err) && clock() < hit.expires + staleMs) return hit.record ?? undefined
      throw err
    }
    if (map.size >= MAX_ENTRIES) map.clear()
    map.set(id, { record: record ?? null, expires: now + ttlMs })
    return record
  }

  return {
    findByHash: (hash) => cached(cache, hash, (h) => inner.findByHash(h)),
    findByLinkId: (linkId) => cached(byLinkId, linkId, (id) => inner.findByLinkId(id)),
    async rollLinkSeed (id) {
      const record = await inner.rollLinkSeed(id)
      forget(record)
      return record
    },
    async create (key) {
      cache.delete(key.hash)
      const record = await inner.create(key)
      forget(record)
      return record
    },
    findByName: (name) => inner.findByName(name),
    findById: (id) => inner.findById(id),
    list: (filter) => inner.list(filter),
    expiringBetween: (fromMs, toMs) => inner.expiringBetween(fromMs, toMs),
    update: (id, patch) => changed(inner.update(id, patch)),
    refill: (id, period) => changed(inner.refill(id, period)),
    async roll (id, next) {
      // The new hash may have been looked up (and cached as unknown) before.
      cache.delete(next.hash)
      return await changed(inner.roll(id, next))
    },
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
