// Rate-limit counters in Redis, shared by every instance. One atomic script per hit:
// add the cost to the window's counter and give it an expiry the first time.
//
// A deadline and a fallback on every call (docs/operations-faults.md): a hit waits for
// Redis COMMAND_TIMEOUT_MS at most; when Redis fails, times out or is not connected, the
// hit is counted by this instance alone (RATE_LIMIT_ON_STORE_ERROR=open, the default, as
// fastify-rate-limit's skipOnError but still limiting) or refused with a 503
// (RATE_LIMIT_ON_STORE_ERROR=closed). The client keeps reconnecting, and the first probe
// Redis answers puts the counters back in Redis, without a restart. One line is logged
// when an outage starts and one when it ends.
import { Redis, type RedisOptions } from 'ioredis'
import { AppError } from '../../errors.js'
import { type CounterLog, type CounterState, type CounterStore, type OnStoreError, type WindowCount, windowStart } from './interface.js'
import { createMemoryCounterStore, DEFAULT_MAX_TRACKED } from './memory.js'

/** Longest a hit waits for Redis before it is counted locally: well under a request's budget. */
export const COMMAND_TIMEOUT_MS = 250
/** Longest a TCP connection to Redis takes to open before it is tried again. */
export const CONNECT_TIMEOUT_MS = 1000
/** Reconnection attempts back off up to this delay between two, and never stop. */
export const RECONNECT_MAX_DELAY_MS = 1000
/** While degraded, Redis is tried again this often (and on each new connection). */
export const PROBE_INTERVAL_MS = 1000
/** TCP keep-alive probes on an idle connection after this long. */
export const KEEP_ALIVE_MS = 10_000
/** Retry-After of a request refused because the counters cannot be reached (closed mode). */
export const STORE_ERROR_RETRY_AFTER_S = 5

const HIT_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
if count == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return count`

// A list of recent values (newest at the head), trimmed and given its expiry in one step.
const REMEMBER_SCRIPT = `
for i = 1, #ARGV - 2 do redis.call('LPUSH', KEYS[1], ARGV[i]) end
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[#ARGV - 1]) - 1)
redis.call('PEXPIRE', KEYS[1], ARGV[#ARGV])
return 1`

export interface RedisCounterOptions {
  /** RATE_LIMIT_ON_STORE_ERROR: count locally (open, default) or refuse (closed) while Redis fails. */
  onStoreError?: OnStoreError
  /** Bound of the local counters used while Redis fails (RATE_LIMIT_MAX_TRACKED). */
  maxTracked?: number
  log?: CounterLog
  /** Tests shorten or lengthen the deadlines. */
  commandTimeoutMs?: number
  connectTimeoutMs?: number
}

export async function createRedisCounterStore (url: string, prefix = 'uma:', options: RedisCounterOptions = {}): Promise<CounterStore> {
  const onStoreError = options.onStoreError ?? 'open'
  const commandTimeout = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS
  const connectTimeout = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS
  const log = options.log
  // Logged without the URL's credentials.
  const where = redisAddress(url)
  const redisOptions: RedisOptions = {
    lazyConnect: true,
    commandTimeout,
    connectTimeout,
    // Our probe replaces ioredis's ready check (INFO), which has no deadline: a
    // connection accepted by a black hole would wait for its answer forever.
    enableReadyCheck: false,
    keepAlive: KEEP_ALIVE_MS,
    // Never queue a hit while disconnected: it is counted locally at once instead.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // A hit that timed out was counted locally: sending it again after a reconnection
    // would count it twice.
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, RECONNECT_MAX_DELAY_MS)
  }
  const redis = new Redis(url, redisOptions)
  redis.defineCommand('umaHit', { numberOfKeys: 1, lua: HIT_SCRIPT })
  redis.defineCommand('umaRemember', { numberOfKeys: 1, lua: REMEMBER_SCRIPT })
  const umaRemember = (key: string, ...args: Array<string | number>): Promise<number> =>
    (redis as unknown as { umaRemember (key: string, ...args: Array<string | number>): Promise<number> }).umaRemember(key, ...args)
  const umaHit = (key: string, cost: number, ttl: number): Promise<number> =>
    (redis as unknown as { umaHit (key: string, cost: number, ttl: number): Promise<number> }).umaHit(key, cost, ttl)

  // The fallback: this instance's own counters, used only while Redis fails.
  const local = createMemoryCounterStore(options.maxTracked ?? DEFAULT_MAX_TRACKED)
  let state: CounterState = 'ok'
  let closing = false

  function degrade (err: unknown): void {
    if (state === 'degraded' || closing) return
    state = 'degraded'
    log?.warn({ redis: where, err: reason(err), onStoreError },
      onStoreError === 'open'
        ? `Redis at ${where} does not answer (${reason(err)}): rate limits are counted by this instance alone until it does`
        : `Redis at ${where} does not answer (${reason(err)}): rate-limited requests are refused with 503 until it does (RATE_LIMIT_ON_STORE_ERROR=closed)`)
  }
  function recover (): void {
    if (state === 'ok' || closing) return
    state = 'ok'
    log?.info({ redis: where }, `Redis at ${where} answers again: rate limits are shared again`)
  }
  /**
   * A call that failed. One that timed out leaves its connection suspect: a black-holed
   * path (packets dropped, no RST) would hold it for the kernel's retransmission timeout
   * (~15 min), and a reply lost on it would pair every later reply with the wrong command.
   * So it is dropped and opened again (retryStrategy paces the attempts).
   */
  function failed (err: unknown): void {
    degrade(err)
    if (err instanceof Error && /timed out/i.test(err.message) && redis.status === 'ready' && !closing) redis.disconnect(true)
  }
  /**
   * While degraded, hits never wait for Redis: a probe (the hit script, cost 0, on a key
   * of its own) tries it on each new connection and every PROBE_INTERVAL_MS, and its
   * first answer puts the counters back in Redis.
   */
  let probing = false
  function probe (): void {
    if (state === 'ok' || closing || probing || redis.status !== 'ready') return
    probing = true
    umaHit(`${prefix}rl:probe`, 0, PROBE_INTERVAL_MS * 10)
      .then(recover, failed)
      .finally(() => { probing = false })
  }
  const prober = setInterval(probe, PROBE_INTERVAL_MS)
  prober.unref()

  // Without a listener ioredis prints "[ioredis] Unhandled error event" and a stack for
  // every failed reconnection. A connection error is an outage until Redis answers again.
  redis.on('error', degrade)
  redis.on('ready', probe)

  /** What a hit does while Redis cannot count it. */
  async function fallback (id: string, cost: number, windowMs: number, now: number): Promise<WindowCount> {
    // A free request (cost 0: /me) is never refused; it shows this instance's own count.
    if (onStoreError === 'closed' && cost > 0) {
      throw new AppError('SERVICE_UNAVAILABLE', 'Rate limits cannot be checked right now (their store does not answer): retry after the number of seconds in Retry-After', {
        headers: { 'retry-after': String(STORE_ERROR_RETRY_AFTER_S) }
      })
    }
    return await local.hit(id, cost, windowMs, now)
  }

  // Start: wait for Redis about as long as one connection attempt and one command.
  // Unreachable, the server starts anyway, degraded, and the client keeps trying in the
  // background.
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer)
      redis.off('ready', done)
      redis.off('error', done)
      resolve()
    }
    const timer = setTimeout(done, connectTimeout)
    redis.once('ready', done)
    redis.once('error', done)
    // Its failure is the 'error' event's; retryStrategy keeps reconnecting after it.
    redis.connect().catch(() => {})
  })
  if (redis.status === 'ready') {
    await umaHit(`${prefix}rl:probe`, 0, PROBE_INTERVAL_MS * 10).catch(failed)
  } else {
    degrade(new Error(`not connected within ${connectTimeout} ms`))
  }

  return {
    kind: 'redis',
    state: () => state,
    async hit (id, cost, windowMs, now) {
      // Degraded or not connected: counted at once, without waiting for Redis.
      if (state === 'degraded' || redis.status !== 'ready') {
        degrade(new Error(`connection ${redis.status}`))
        return await fallback(id, cost, windowMs, now)
      }
      const start = windowStart(now, windowMs)
      const end = start + windowMs
      let count: number
      try {
        // The key expires a little after its window, so a late hit never resurrects it.
        count = await umaHit(`${prefix}rl:${id}:${start}`, cost, end - now + 1000)
      } catch (err) {
        failed(err)
        return await fallback(id, cost, windowMs, now)
      }
      return { count, resetAt: end }
    },
    // Recent picks (norepeat): with the same deadline; while Redis fails they are kept by
    // this instance alone, never refused whatever RATE_LIMIT_ON_STORE_ERROR says (a repeat
    // is no reason to fail a pick). What an instance remembered alone is not merged back.
    async remember (id, values, keep, ttlMs) {
      if (values.length === 0) return
      if (state === 'degraded' || redis.status !== 'ready') {
        degrade(new Error(`connection ${redis.status}`))
        return await local.remember(id, values, keep, ttlMs)
      }
      try {
        await umaRemember(`${prefix}np:${id}`, ...values, keep, ttlMs)
      } catch (err) {
        failed(err)
        await local.remember(id, values, keep, ttlMs)
      }
    },
    async recent (id, count) {
      if (count <= 0) return []
      if (state === 'degraded' || redis.status !== 'ready') {
        degrade(new Error(`connection ${redis.status}`))
        return await local.recent(id, count)
      }
      try {
        return (await redis.lrange(`${prefix}np:${id}`, 0, count - 1)).map(Number)
      } catch (err) {
        failed(err)
        return await local.recent(id, count)
      }
    },
    async close () {
      closing = true
      clearInterval(prober)
      if (redis.status === 'ready') {
        // QUIT is bounded by commandTimeout too; a stalled Redis never holds the shutdown.
        await redis.quit().catch(() => {})
      }
      redis.disconnect()
      await local.close()
    }
  }
}

/** host:port of a Redis URL, without its credentials. */
function redisAddress (url: string): string {
  try {
    const u = new URL(url)
    return `${u.hostname}:${u.port || '6379'}`
  } catch {
    return 'REDIS_URL'
  }
}

function reason (err: unknown): string {
  if (err instanceof Error) return (err as NodeJS.ErrnoException).code ?? err.message
  return String(err)
}
