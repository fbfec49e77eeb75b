// Counters shared by requests: rate-limit windows and what `norepeat` remembers of a
// key's gif picks. They live in this process (one instance: memory.ts), or in Redis so
// that several instances enforce one limit per key together (redis.ts); index.ts opens
// the one the configuration names. Fixed windows aligned on the epoch: every instance
// computes the same window for the same instant.

export interface WindowCount {
  /** Units used in the current window, this hit included. */
  count: number
  /** When the window ends (epoch ms). */
  resetAt: number
}

/**
 * ok: the counters are where the configuration puts them. degraded: their shared store
 * (Redis) does not answer, and this instance counts alone (or refuses, with
 * RATE_LIMIT_ON_STORE_ERROR=closed) until it answers again.
 */
export type CounterState = 'ok' | 'degraded'

/** What the counters do when their shared store fails (RATE_LIMIT_ON_STORE_ERROR). */
export type OnStoreError = 'open' | 'closed'

export interface CounterStore {
  readonly kind: string
  /** Adds `cost` units to `id`'s current window of `windowMs` and returns the new count. */
  hit (id: string, cost: number, windowMs: number, now: number): Promise<WindowCount>
  /**
   * Remembers `values` under `id` (the last one newest), keeping the newest `keep`; the
   * list is forgotten `ttlMs` after its last change. What GET /sfw/gif's `norepeat`
   * remembers of a key's picks (src/gifs/catalog.ts): shared by every instance with Redis.
   */
  remember (id: string, values: readonly number[], keep: number, ttlMs: number): Promise<void>
  /** The newest `count` values remembered under `id`, newest first. */
  recent (id: string, count: number): Promise<number[]>
  /** For readiness and metrics: whether the counters are shared as configured right now. */
  state (): CounterState
  close (): Promise<void>
}

/** Where the counters say that their store failed or came back (pino's signature). */
export interface CounterLog {
  warn (fields: Record<string, unknown>, message: string): void
  info (fields: Record<string, unknown>, message: string): void
}

export function windowStart (now: number, windowMs: number): number {
  return now - (now % windowMs)
}
