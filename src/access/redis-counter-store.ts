// Rate-limit counters in Redis, shared by every instance. One atomic script per hit:
// add the cost to the window's counter and give it an expiry the first time.
import { Redis } from 'ioredis'
import { type CounterStore, windowStart } from './counter-store.js'

const HIT_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
if count == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return count`

export async function createRedisCounterStore (url: string, prefix = 'uma:'): Promise<CounterStore> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: false, connectTimeout: 5000 })
  redis.defineCommand('umaHit', { numberOfKeys: 1, lua: HIT_SCRIPT })
  await redis.connect()
  return {
    kind: 'redis',
    async hit (id, cost, windowMs, now) {
      const start = windowStart(now, windowMs)
      const end = start + windowMs
      // The key expires a little after its window, so a late hit never resurrects it.
      const count = await (redis as unknown as { umaHit (key: string, cost: number, ttl: number): Promise<number> })
        .umaHit(`${prefix}rl:${id}:${start}`, cost, end - now + 1000)
      return { count, resetAt: end }
    },
    async close () {
      await redis.quit().catch(() => redis.disconnect())
    }
  }
}
