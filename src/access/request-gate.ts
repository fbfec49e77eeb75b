// The request gate: the shared request path, in one place and in order, plain async
// steps in one onRequest hook, and one onResponse hook. Who may call and how much is
// access's (keys, limits, usage); the HTTP pieces it calls are http/'s.
//
// On the way in: request id header, in-flight gauge, the route's policy, its deadline,
// API key (unless the route is public or the management API's), rate limit and quota. On the way out: metrics,
// usage, the log line.
import type { FastifyInstance, FastifyReply } from 'fastify'
import fp from 'fastify-plugin'
import type { KeyService } from './keys.js'
import { AppError } from '../errors.js'
import { INTERNAL_CREDENTIAL_HEADER, type InternalCredential } from './internal-credential.js'
import type { Metrics } from '../metrics/metrics.js'
import { createDeadlines } from '../http/deadline.js'
import { createRateLimiter, type RateLimitOptions } from './rate-limit.js'
import { REQUEST_ID_HEADER } from '../http/request-id.js'
import { logRequest } from '../http/request-log.js'
import { policyOf } from '../http/route-config.js'
import type { RequestActivity } from '../runtime/garbage.js'

export interface RequestGateOptions {
  keys: KeyService
  /** NO_METRICS when METRICS_PORT is unset. */
  metrics: Metrics
  rateLimit: RateLimitOptions
  /** REQUEST_TIMEOUT_MS (0: none). */
  requestTimeoutMs: number
  /** Told of each request's start and end (the server's collection after requests, src/runtime/garbage.ts). */
  activity?: RequestActivity
  /** Trusts the replays of signed links (src/access/internal-credential.ts). */
  internal?: InternalCredential
}

declare module 'fastify' {
  interface FastifyReply {
    /**
     * An AbortSignal for this request's heavy work (src/http/deadline.ts): fires at the
     * request's deadline or when the client leaves. For heavy routes only: small
     * requests never pay for one.
     */
    workSignal (): AbortSignal
  }
}

export const requestGatePlugin = fp(async function requestGate (app: FastifyInstance, opts: RequestGateOptions) {
  app.decorateRequest('apiKey', null)
  app.decorateRequest('policy', null)
  app.decorateReply('servedCost', null)
  const limiter = createRateLimiter(opts.rateLimit)
  const { metrics } = opts
  const activity = opts.activity ?? { mark () {} }
  const deadlines = createDeadlines(opts.requestTimeoutMs)
  app.addHook('onClose', async () => deadlines.close())
  app.decorateReply('workSignal', function (this: FastifyReply) {
    return deadlines.signal(this)
  })

  app.addHook('onRequest', async function admit (request, reply) {
    reply.header(REQUEST_ID_HEADER, request.id)
    activity.mark()
    metrics.requestStarted()
    const route = request.policy = policyOf(request)
    // A link's replay runs as the link's key, and only on a route a link may name.
    const replayOf = opts.internal?.read(request.headers[INTERNAL_CREDENTIAL_HEADER])
    if (replayOf !== undefined && !route.linkable) {
      throw new AppError('LINK_NOT_LINKABLE', `${route.unknown ? `No ${request.method} endpoint has this path, so it` : route.url} cannot be linked: only the picture routes can (/gen/{template} and /gen/custom, in every output format, and /convert/image-png, -jpg and -webp with url=)`)
    }
    // Unknown paths answer 404 whatever the key: nothing to protect there.
    if (route.unknown) return
    deadlines.start(reply)
    if (replayOf !== undefined) request.apiKey = await opts.keys.authenticateHash(replayOf)
    // The management API takes operator tokens, never keys: its own gate (src/admin/gate.ts) follows.
    else if (!route.public && route.admin === undefined) request.apiKey = await opts.keys.authenticate(request.headers.authorization)
    await limiter.admit(request, reply, route)
  })

  app.addHook('onResponse', function finish (request, reply, done) {
    // A request refused before routing (a malformed URL) never passed onRequest.
    const route = request.policy ?? policyOf(request)
    deadlines.end(reply)
    activity.mark()
    // Labelled by route pattern, never the raw URL, whose values are unbounded.
    metrics.requestAnswered(request.method, route.url, reply.statusCode, reply.elapsedTime / 1000)
    limiter.count(request, reply, route)
    logRequest(request, reply, route)
    done()
  })
}, { name: 'request-gate' })
