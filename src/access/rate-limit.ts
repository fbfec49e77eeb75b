// Rate limits and quotas per key, and usage counting. Written here rather than with
// @fastify/rate-limit because that plugin counts every request as one unit (our image
// work costs more), knows no quotas, and sends either the X-RateLimit-* headers or the
// IETF draft ones, not both (clients read X-RateLimit-*, standard tooling the IETF
// RateLimit/RateLimit-Policy fields of draft-ietf-httpapi-ratelimit-headers-09).
//
// Identity: the authenticated key; on public routes, the client IP. Costs: route config
// `cost` (default 1). Usage: counted per key, UTC day and endpoint group (the route's
// first OpenAPI tag), after the answer is sent.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'
import { clientBucket } from '../http/client-address.js'
import type { CounterStore, WindowCount } from '../store/counters/interface.js'
import { periodEnd, periodStartDay, type UsageRecorder } from './usage-recorder.js'
import type { ApiKeyRecord } from '../store/interface.js'
import type { RoutePolicy } from '../http/route-config.js'
import type { CreditHold, CreditLedger } from './credits.js'
import { type AccessEvents, NO_ACCESS_EVENTS } from './events.js'

export interface RateLimitOptions {
  counters: CounterStore
  usage: UsageRecorder
  /** Defaults for keys without their own limit. */
  defaultMax: number
  defaultWindowMs: number
  /** Limit per client IP on public routes. */
  ipMax: number
  /** IPv6 clients share a bucket per prefix of this length (RATE_LIMIT_IPV6_PREFIX). */
  ipv6Prefix: number
  /** Called on each refusal (metrics). */
  onReject?: (reason: 'rate' | 'quota' | 'credits', route: string) => void
  /** Prepaid credits (src/access/credits.ts); none: no key is metered. */
  credits?: CreditLedger
  /** Told of a quota used up (quota.exhausted), once per key and period on this instance. */
  events?: AccessEvents
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Units of the rate limit and quota one request costs (default 1; 0: free, never refused). */
    cost?: number
    /** false: not limited (health checks). */
    rateLimit?: boolean
  }
  interface FastifyReply {
    /**
     * Units this answer costs when it is not the route's `cost`: set by a route that
     * served it without the work the cost pays for (a picture from the result cache: 1).
     */
    servedCost: number | null
  }
  interface FastifyRequest {
    /** The credits this request holds from admission to its answer (src/access/credits.ts). */
    creditHold: CreditHold | null
  }
}

/** Quota periods already announced used up here: one event per key and period, not one per refusal. */
const MAX_EXHAUSTED_NOTED = 10_000

export interface RateLimiter {
  /**
   * Counts the request against its key's (or address's) window and quota, sets the
   * headers, and throws RATE_LIMITED or QUOTA_EXCEEDED past them.
   */
  admit (request: FastifyRequest, reply: FastifyReply, route: RoutePolicy): Promise<void>
  /** Records the usage of an answered request (refused ones used nothing). */
  count (request: FastifyRequest, reply: FastifyReply, route: RoutePolicy): void
  /** Sets X-Credits-Remaining on the answer of a key with credits: what is left once this answer is billed. */
  creditsHeader (request: FastifyRequest, reply: FastifyReply, route: RoutePolicy): void
}

const seconds = (ms: number): number => Math.max(0, Math.ceil(ms / 1000))

/**
 * Units a request takes from its window when it is admitted: one at most. The rest of its
 * cost is taken once it has been served (a 2xx or 3xx), so that a request refused before
 * any work (a 400 for a mistyped parameter, a 503 busy refusal) costs one unit, not five.
 */
const admissionUnits = (route: RoutePolicy): number => Math.min(1, route.cost)

/**
 * Units of usage (what an operator bills) an answered request is charged: its cost when it
 * was served, one unit when it was refused for the caller's mistake (4xx), nothing for a
 * failure of ours (5xx, busy refusals included), a rate-limit or quota refusal (429) or
 * a refusal for want of credits (402: credits never go below zero).
 */
export function billedUnits (status: number, cost: number): number {
  if (status < 400) return cost
  if (status >= 500 || status === 429 || status === 402) return 0
  return Math.min(1, cost)
}

export function createRateLimiter (opts: RateLimitOptions): RateLimiter {
  const events = opts.events ?? NO_ACCESS_EVENTS
  const exhaustedNoted = new Set<string>()
  /** Sets the window's headers; throws RATE_LIMITED past the limit. */
  function checkRate (reply: FastifyReply, route: RoutePolicy, key: ApiKeyRecord | null, max: number, windowMs: number, now: number, { count, resetAt }: WindowCount): void {
    const reset = seconds(resetAt - now)
    const policy = key ? 'key' : 'ip'
    // The window holds this request's admission unit; the rest of its cost is charged once it is served.
    const rest = route.cost - admissionUnits(route)
    const remaining = Math.max(0, max - count - rest)
    reply.header('x-ratelimit-limit', max)
    reply.header('x-ratelimit-remaining', remaining)
    reply.header('x-ratelimit-reset', reset)
    reply.header('ratelimit-policy', `"${policy}";q=${max};w=${seconds(windowMs)}`)
    reply.header('ratelimit', `"${policy}";r=${remaining};t=${reset}`)
    // A free route (cost 0, such as /me) shows the state but is never refused.
    if (route.cost > 0 && count + rest > max) {
      opts.onReject?.('rate', route.url)
      throw new AppError('RATE_LIMITED', `Too many requests: this ${key ? 'key' : 'address'} may use ${max} units per ${seconds(windowMs)} s and this request costs ${route.cost}; retry in ${reset} s`, {
        headers: { 'retry-after': String(reset) }
      })
    }
  }

  /** Sets the quota's headers; throws QUOTA_EXCEEDED when this request does not fit. */
  function checkQuota (reply: FastifyReply, route: RoutePolicy, key: ApiKeyRecord, now: number, used: number): void {
    const quotaMax = key.limits.quotaMax!
    const period = key.limits.quotaPeriod!
    const end = periodEnd(period, now)
    reply.header('x-quota-limit', quotaMax)
    reply.header('x-quota-remaining', Math.max(0, quotaMax - used - route.cost))
    reply.header('x-quota-reset', seconds(end - now))
    if (used + route.cost > quotaMax) {
      opts.onReject?.('quota', route.url)
      const periodStart = periodStartDay(period, now)
      const noted = `${key.id}|${periodStart}`
      if (!exhaustedNoted.has(noted)) {
        if (exhaustedNoted.size >= MAX_EXHAUSTED_NOTED) exhaustedNoted.clear()
        exhaustedNoted.add(noted)
        events.emit({ type: 'quota.exhausted', key, period, periodStart })
      }
      throw new AppError('QUOTA_EXCEEDED', `This key's quota of ${quotaMax} units per ${period} is used up (this request costs ${route.cost}); it renews in ${seconds(end - now)} s`, {
        headers: { 'retry-after': String(seconds(end - now)) }
      })
    }
  }

  return {
    async admit (request, reply, route) {
      if (route.unknown || !route.rateLimited) return
      const now = Date.now()
      const key = request.apiKey
      const max = key ? key.limits.rateMax ?? opts.defaultMax : opts.ipMax
      const windowMs = key ? key.limits.rateWindowMs ?? opts.defaultWindowMs : opts.defaultWindowMs
      const hit = await opts.counters.hit(key ? `k${key.id}` : `ip${clientBucket(request.ip, opts.ipv6Prefix)}`, admissionUnits(route), windowMs, now)
      checkRate(reply, route, key, max, windowMs, now, hit)
      if (key?.limits.quotaMax != null && key.limits.quotaPeriod != null && route.cost > 0) {
        checkQuota(reply, route, key, now, await opts.usage.quotaUsed(key.id, key.limits.quotaPeriod, now))
      }
      // Last: the credits are reserved only for a request every other limit lets through.
      if (key?.credits != null && opts.credits !== undefined && route.cost > 0) {
        try {
          request.creditHold = await opts.credits.reserve(key, route.cost, now)
        } catch (err) {
          if ((err as AppError).code === 'CREDITS_EXHAUSTED') opts.onReject?.('credits', route.url)
          throw err
        }
        const hold = request.creditHold
        // A request whose answer is never finished (the client left mid-answer) is never
        // counted: its hold ends with the connection.
        if (hold !== null) reply.raw.once('close', () => { if (!reply.raw.writableFinished) opts.credits!.settle(hold, 0) })
      }
    },
    count (request, reply, route) {
      if (route.unknown) return
      const key = request.apiKey
      const now = Date.now()
      const cost = reply.servedCost ?? route.cost
      const rest = cost - admissionUnits(route)
      if (route.rateLimited && rest > 0 && reply.statusCode < 400) {
        // Served: the rest of its cost joins the window (never refused now: the work is done).
        const windowMs = key ? key.limits.rateWindowMs ?? opts.defaultWindowMs : opts.defaultWindowMs
        opts.counters.hit(key ? `k${key.id}` : `ip${clientBucket(request.ip, opts.ipv6Prefix)}`, rest, windowMs, now).catch(() => {})
      }
      if (!key) return
      const units = billedUnits(reply.statusCode, cost)
      if (units > 0) opts.usage.record(key.id, route.group, units, now)
      // Right after the record: the units move from the hold to the unwritten usage at once.
      if (request.creditHold !== null) opts.credits!.settle(request.creditHold, units)
    },
    creditsHeader (request, reply, route) {
      const key = request.apiKey
      if (key === null || key.credits === null || opts.credits === undefined || route.unknown || reply.hasHeader('x-credits-remaining')) return
      const known = opts.credits.known(key.id)
      if (known === null) return
      const hold = request.creditHold
      // While the hold is open, what is left excludes it; once answered, the hold becomes what is billed.
      const after = hold?.open === true ? known + hold.units - billedUnits(reply.statusCode, reply.servedCost ?? route.cost) : known
      reply.header('x-credits-remaining', Math.max(0, after))
    }
  }
}
