// Every PostgreSQL call of the store passes here (src/store/postgres/index.ts): a bound
// on the calls waiting for a pool connection (a bulkhead), a short-circuit while the
// server is known to be unreachable, and one typed error for "the store did not answer".
// The per-call deadlines themselves are the pool's options (database.ts). Shapes from
// Facebook's "Fail at Scale" (fail fast rather than queue behind a dead dependency) and
// the usual circuit breaker: after a connection-level failure, calls fail at once for
// OPEN_MS, then one call probes the server while the others keep failing fast.
import { StoreUnavailableError } from '../interface.js'

/**
 * Calls waiting for one of the pool's connections at most; past it a call fails at once.
 * Ten connections answer hundreds of lookups a second; fifty waiting is already more than
 * a connect timeout's worth of queueing, and waiting calls each hold a request (and its
 * socket) under MAX_CONNECTIONS: unbounded, a stalled server filled that cap. Counted
 * here as calls in flight beyond the pool's size, rather than by pg.Pool's waitingCount,
 * which also counts, in a burst, calls about to get a connection being opened.
 */
export const MAX_WAITING_FOR_CONNECTION = 50
/** After a connection-level failure (refused, reset, timed out), calls fail fast this long. */
export const OPEN_MS = 1000
/** Retry-After of a STORE_UNAVAILABLE answer: the open period and one probe's connect. */
export const STORE_RETRY_AFTER_S = 2

// Network failures of the socket to the server (Node's codes).
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH', 'ENETDOWN'])
// node-postgres' own failures, which carry no code: its connect and read timeouts, a
// connection lost mid-query, a pool closed at shutdown.
const CLIENT_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|Query read timeout|not queryable|Cannot use a pool after calling end|Connection ended unexpectedly/i
// SQLSTATEs of a server that answers but will not do the work now: statement or lock
// timeout, idle-in-transaction timeout, shutting down or starting, too many connections.
const BUSY_STATES = new Set(['57014', '55P03', '25P03'])
const UNAVAILABLE_CLASSES = ['08', '53', '57P']

export type Failure = 'connection' | 'busy' | undefined

/** What kind of unavailability an error is: 'connection' (the server cannot be reached), 'busy' (it answered: not now), or undefined (any other error). */
export function classifyFailure (err: unknown): Failure {
  const e = err as { code?: unknown, message?: unknown } | null
  const code = typeof e?.code === 'string' ? e.code : undefined
  if (code !== undefined && NETWORK_CODES.has(code)) return 'connection'
  if (code !== undefined && BUSY_STATES.has(code)) return 'busy'
  if (code !== undefined && /^[0-9A-Z]{5}$/.test(code)) return UNAVAILABLE_CLASSES.some((c) => code.startsWith(c)) ? 'connection' : undefined
  if (typeof e?.message === 'string' && CLIENT_MESSAGES.test(e.message)) return 'connection'
  return undefined
}

export interface StoreGuardOptions {
  /** The pool's size, calls that can run at once (database.ts POOL_SIZE, which index.ts passes; 10 otherwise). */
  connections?: number
  maxWaiting?: number
  openMs?: number
  now?: () => number
}

export interface StoreGuard {
  /** Runs one store call under the bulkhead and the short-circuit; unavailability becomes StoreUnavailableError. */
  run<T> (call: () => Promise<T>): Promise<T>
  /** The same object with every method run through `run`. */
  wrap<T extends object> (target: T): T
  /** 'closed' (calls go through), 'open' (they fail fast), 'probing' (one is trying). */
  readonly state: 'closed' | 'open' | 'probing'
}

export function createStoreGuard (options: StoreGuardOptions = {}): StoreGuard {
  const maxWaiting = options.maxWaiting ?? MAX_WAITING_FOR_CONNECTION
  const maxInFlight = (options.connections ?? 10) + maxWaiting
  let inFlight = 0
  const openMs = options.openMs ?? OPEN_MS
  const now = options.now ?? Date.now
  /** 0: closed; otherwise calls fail fast until then, and the first one after probes. */
  let openUntil = 0
  let probing = false

  const unavailable = (message: string, cause?: unknown): StoreUnavailableError =>
    new StoreUnavailableError(message, STORE_RETRY_AFTER_S, { cause })

  async function run<T> (call: () => Promise<T>): Promise<T> {
    let probe = false
    if (openUntil !== 0) {
      if (now() < openUntil || probing) throw unavailable('PostgreSQL failed a moment ago: not asked again yet')
      probing = probe = true
    }
    if (inFlight >= maxInFlight) {
      if (probe) probing = false
      throw unavailable(`PostgreSQL is slow: ${maxWaiting} calls already wait for a connection`)
    }
    inFlight++
    try {
      const result = await call()
      if (probe) openUntil = 0
      return result
    } catch (err) {
      const failure = classifyFailure(err)
      if (failure === 'connection') openUntil = now() + openMs
      else if (probe) openUntil = 0
      if (failure === undefined) throw err
      throw unavailable(failure === 'busy' ? 'PostgreSQL did not finish the call in time' : 'PostgreSQL cannot be reached', err)
    } finally {
      inFlight--
      if (probe) probing = false
    }
  }

  return {
    run,
    wrap<T extends object> (target: T): T {
      const wrapped: Record<string, unknown> = {}
      for (const [name, value] of Object.entries(target)) {
        wrapped[name] = typeof value === 'function' ? (...args: unknown[]) => run(() => value.apply(target, args)) : value
      }
      return wrapped as T
    },
    get state () {
      return openUntil === 0 ? 'closed' : probing ? 'probing' : 'open'
    }
  }
}
