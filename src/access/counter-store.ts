// Where rate-limit counters live: in this process (one instance), or in Redis so that
// several instances enforce one limit per key together. Fixed windows aligned on the
// epoch: every instance computes the same window for the same instant.

export interface WindowCount {
  /** Units used in the current window, this hit included. */
  count: number
  /** When the window ends (epoch ms). */
  resetAt: number
}

export interface CounterStore {
  readonly kind: string
  /** Adds `cost` units to `id`'s current window of `windowMs` and returns the new count. */
  hit (id: string, cost: number, windowMs: number, now: number): Promise<WindowCount>
  close (): Promise<void>
}

export function windowStart (now: number, windowMs: number): number {
  return now - (now % windowMs)
}

/**
 * Opens the counters the configuration names: Redis when REDIS_URL is set (its client is
 * loaded only then: docs/memory.md, "Loaded only when needed"), else this process's
 * memory. The caller owns them and closes them after the app, as the store.
 */
export async function openCounterStore (config: { redisUrl: string | undefined, redisPrefix: string, rateLimitMaxTracked: number }): Promise<CounterStore> {
  if (config.redisUrl !== undefined) {
    return await (await import('./redis-counter-store.js')).createRedisCounterStore(config.redisUrl, config.redisPrefix)
  }
  // Imported here rather than at the top: both implementations import this file.
  return (await import('./memory-counter-store.js')).createMemoryCounterStore(config.rateLimitMaxTracked)
}
