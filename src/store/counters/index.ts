// Opens the counters the configuration names (interface.ts says what they are). Each
// backend is imported only when chosen: the Redis client loads only with REDIS_URL.
import type { CounterLog, CounterStore, OnStoreError } from './interface.js'

/**
 * Opens the counters the configuration names: Redis when REDIS_URL is set (its client is
 * loaded only then: docs/memory.md, "Loaded only when needed"), else this process's
 * memory. The caller owns them and closes them after the app, as the store. Redis that
 * does not answer at start does not stop it: the counters start degraded
 * (redis.ts).
 */
export async function openCounterStore (
  config: { redisUrl: string | undefined, redisPrefix: string, rateLimitMaxTracked: number, rateLimitOnStoreError: OnStoreError },
  log?: CounterLog
): Promise<CounterStore> {
  if (config.redisUrl !== undefined) {
    return await (await import('./redis.js')).createRedisCounterStore(config.redisUrl, config.redisPrefix, {
      onStoreError: config.rateLimitOnStoreError,
      maxTracked: config.rateLimitMaxTracked,
      log
    })
  }
  return (await import('./memory.js')).createMemoryCounterStore(config.rateLimitMaxTracked)
}
