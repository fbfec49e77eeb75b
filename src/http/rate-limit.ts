// Rate limits and quotas per key, and usage counting. Written here rather than with
// @fastify/rate-limit because that plugin counts every request as one unit (our image
// work costs more), knows no quotas, and sends either the X-RateLimit-* headers or the
// IETF draft ones, not both (clients read X-RateLimit-*, standard tooling the IETF
// RateLimit/RateLimit-Policy fields of draft-ietf-httpapi-ratelimit-headers-09).
//
// Identity: the authenticated key; on public routes, the client IP. Costs: route config
// `cost` (default 1). Usage: counted per key, UTC day and endpoint group (the route's
// first OpenAPI tag), after the answer is sent.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { AppError } from '../errors.js'
import type { CounterStore } from '../limits/counter-store.js'
import { periodEnd, type UsageRecorder } from '../limits/usage-recorder.js'

export interface RateLimitOptions {
  counters: CounterStore
  usage: UsageRecorder
  /** Defaults for keys without their own limit. */
  defaultMax: number
  defaultWindowMs: number
  /** Limit per client IP on public routes. */
  ipMax: number
  /** Called on each refusal (metrics). */
  onReject?: (reason: 'rate' | 'quota', route: string) => void
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Units of the rate limit and quota one request costs (default 1; 0: free, never refused). */
    cost?: number
    /** false: not limited (health checks). */
    rateLimit?: boolean
  }
}

const seconds = (ms: number): number => Math.max(0, Math.ceil(ms / 1000))

function setHeaders (reply: FastifyReply, policy: string, max: number, windowMs: number, remaining: number, resetMs: number): void {
  const reset = seconds(resetMs)
  reply.header('x-ratelimit-limit', max)
  reply.header('x-ratelimit-remaining', remaining)
  reply.header('x-ratelimit-reset', reset)
  reply.header('ratelimit-policy', `"${policy}";q=${max};w=${seconds(windowMs)}`)
  reply.header('ratelimit', `"${policy}";r=${remaining};t=${reset}`)
}

export function endpointGroup (request: FastifyRequest): string {
  const tags = request.routeOptions.schema?.tags
  if (tags && tags.length > 0) return tags[0]!
  return request.routeOptions.url?.split('/')[1] || 'other'
}

export const rateLimitPlugin = fp(async function rateLimit (app: FastifyInstance, opts: RateLimitOptions) {
  app.addHook('onRequest', async function limit (request, reply) {
    const config = request.routeOptions.config
    if (request.is404 || config.rateLimit === false) return
    const cost = config.cost ?? 1
    const now = Date.now()
    const key = request.apiKey
    const max = key ? key.limits.rateMax ?? opts.defaultMax : opts.ipMax
    const windowMs = key ? key.limits.rateWindowMs ?? opts.defaultWindowMs : opts.defaultWindowMs
    const id = key ? `k${key.id}` : `ip${request.ip}`

    const { count, resetAt } = await opts.counters.hit(id, cost, windowMs, now)
    setHeaders(reply, key ? 'key' : 'ip', max, windowMs, Math.max(0, max - count), resetAt - now)
    // A free route (cost 0, such as /me) shows the state but is never refused.
    if (cost > 0 && count > max) {
      opts.onReject?.('rate', request.routeOptions.url ?? '')
      throw new AppError('RATE_LIMITED', `Too many requests: this ${key ? 'key' : 'address'} may use ${max} units per ${seconds(windowMs)} s and this request costs ${cost}; retry in ${seconds(resetAt - now)} s`, {
        headers: { 'retry-after': String(seconds(resetAt - now)) }
      })
    }

    if (key?.limits.quotaMax != null && key.limits.quotaPeriod != null && cost > 0) {
      const period = key.limits.quotaPeriod
      const used = await opts.usage.quotaUsed(key.id, period, now)
      const end = periodEnd(period, now)
      reply.header('x-quota-limit', key.limits.quotaMax)
      reply.header('x-quota-remaining', Math.max(0, key.limits.quotaMax - used - cost))
      reply.header('x-quota-reset', seconds(end - now))
      if (used + cost > key.limits.quotaMax) {
        opts.onReject?.('quota', request.routeOptions.url ?? '')
        throw new AppError('QUOTA_EXCEEDED', `This key's quota of ${key.limits.quotaMax} units per ${period} is used up (this request costs ${cost}); it renews in ${seconds(end - now)} s`, {
          headers: { 'retry-after': String(seconds(end - now)) }
        })
      }
    }
  })

  app.addHook('onResponse', async function count (request, reply) {
    const key = request.apiKey
    if (!key || request.is404) return
    // Refused requests used nothing.
    if (reply.statusCode === 429) return
    opts.usage.record(key.id, endpointGroup(request), request.routeOptions.config.cost ?? 1, Date.now())
  })
}, { name: 'rate-limit', dependencies: ['auth'] })
