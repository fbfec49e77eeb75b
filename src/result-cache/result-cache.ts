// The result cache: an answer keyed by its content address, kept on disk (disk-store.ts),
// made once for concurrent requests of one address (single-flight.ts). Between the end of
// a drawing and the end of its write, the answer is served from memory; an answer served
// from the disk is kept in memory too, within HOT_BYTES, so that a picture asked again and
// again is served without a trip to the disk. A picture drawn and never asked again never
// enters: a burst of new pictures leaves nothing in memory.
import path from 'node:path'
import type { ResultCacheObserver } from '../metrics/metrics.js'
import { createDiskStore, type DiskIo } from './disk-store.js'
import type { Made, ResultCache, StoredAnswer } from './interface.js'
import { createSingleFlight } from './single-flight.js'

/** The folder of DATA_DIR the entries live in. */
export const RESULT_CACHE_FOLDER = 'result-cache'
/**
 * Answers served from the disk, kept in memory too (the most recently used first): a
 * disk read waits for two of libuv's threads, which on a busy machine is most of a hit's
 * time (docs/performance.md, "The result cache"). About 40 welcome cards.
 */
export const HOT_BYTES = 8 * 1024 * 1024

export interface ResultCacheOptions {
  /** DATA_DIR: the entries go in its result-cache/ folder. */
  dataDir: string
  /** RESULT_CACHE_MAX_BYTES; 0 turns the cache off. */
  maxBytes: number
  /** Deadline of each disk call (RESULT_CACHE_DISK_TIMEOUT_MS). */
  diskTimeoutMs: number
  observer?: ResultCacheObserver
  warn?: (message: string) => void
  io?: DiskIo
  now?: () => number
}

export function createResultCache (options: ResultCacheOptions): ResultCache {
  const observer = options.observer
  let hits = 0
  let misses = 0
  if (options.maxBytes <= 0) {
    return {
      enabled: false,
      async answer (_address, signal, make) {
        signal.throwIfAborted()
        misses++
        observer?.miss()
        return { answer: (await make(signal)).answer, cache: 'miss' }
      },
      get stats () { return { hits, misses, bytes: 0, entries: 0, evictions: 0, errors: 0, damaged: 0 } },
      async close () {}
    }
  }
  const disk = createDiskStore({
    dir: path.join(options.dataDir, RESULT_CACHE_FOLDER),
    maxBytes: options.maxBytes,
    timeoutMs: options.diskTimeoutMs,
    io: options.io,
    now: options.now,
    warn: options.warn,
    onEvicted: () => observer?.evicted(),
    onHeld: (bytes, entries) => observer?.held(bytes, entries)
  })
  const flights = createSingleFlight<StoredAnswer>()
  /** Answers drawn whose write has not ended: served from here meanwhile. */
  const writing = new Map<string, StoredAnswer>()
  /** Answers served from the disk, least recently used first, within HOT_BYTES (verified when they were read). */
  const hot = new Map<string, StoredAnswer>()
  let hotBytes = 0

  function keepHot (address: string, answer: StoredAnswer): void {
    if (answer.bytes.length > HOT_BYTES / 8 || hot.has(address)) return
    hot.set(address, answer)
    hotBytes += answer.bytes.length
    for (const [oldest, kept] of hot) {
      if (hotBytes <= HOT_BYTES) break
      hot.delete(oldest)
      hotBytes -= kept.bytes.length
    }
  }

  function hit (answer: StoredAnswer): { answer: StoredAnswer, cache: 'hit' } {
    hits++
    observer?.hit()
    return { answer, cache: 'hit' }
  }

  async function make (address: string, signal: AbortSignal, work: (signal: AbortSignal) => Promise<Made>): Promise<StoredAnswer> {
    misses++
    observer?.miss()
    const made = await work(signal)
    if (made.cacheable) {
      writing.set(address, made.answer)
      void disk.put(address, made.answer).finally(() => writing.delete(address))
    }
    return made.answer
  }

  return {
    enabled: true,
    async answer (address, signal, work) {
      signal.throwIfAborted()
      const kept = hot.get(address) ?? writing.get(address)
      if (kept !== undefined) {
        if (hot.delete(address)) hot.set(address, kept)
        return hit(kept)
      }
      if (!flights.has(address)) {
        const stored = await disk.get(address)
        if (stored !== undefined) {
          keepHot(address, stored)
          return hit(stored)
        }
        const written = writing.get(address)
        if (written !== undefined) return hit(written)
      }
      const { value, started } = await flights.run(address, signal, async (workSignal) => await make(address, workSignal, work))
      return started ? { answer: value, cache: 'miss' } : hit(value)
    },
    get stats () {
      const { bytes, entries, evictions, errors, damaged } = disk.stats
      return { hits, misses, bytes, entries, evictions, errors, damaged }
    },
    async close () { await disk.close() }
  }
}
