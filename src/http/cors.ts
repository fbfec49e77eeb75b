// Cross-origin requests from browsers, through @fastify/cors.
//
// - The API answers browsers of the origins in CORS_ORIGINS (off by default: a key sent
//   from a web page is a key anyone reading the page can take, so an operator opts in).
// - Routes that declare `anyOrigin` (the gif files /sfw/gif hands out, asset previews)
//   are readable from any origin, as the hosted service's public file host serves them:
//   chat clients and web pages put those URLs straight into <img> and fetch(). The
//   feature says so on its route; this file knows no paths.
//
// Preflights (OPTIONS) are answered in the onRequest hook, before the key and the rate
// limit (src/access/request-gate.ts): a browser sends no Authorization header with them, and
// they cost nothing.
import cors, { type FastifyCorsOptions } from '@fastify/cors'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { REQUEST_ID_HEADER } from './request-id.js'

/** What a script may read of an answer: the limit state it must respect, the request id for a report, image facts. */
export const EXPOSED_HEADERS = [
  'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit', 'RateLimit-Policy',
  'X-Quota-Limit', 'X-Quota-Remaining', 'X-Quota-Reset', 'X-Credits-Remaining', 'Retry-After', REQUEST_ID_HEADER,
  'X-Image-Width', 'X-Image-Height', 'X-Image-Frames', 'X-Image-Quality'
] as const

/** Browsers cache a preflight answer this long (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_S = 600

export interface CorsOptions {
  /** CORS_ORIGINS: ['*'] any; [] off. */
  origins: string[]
}

export const corsPlugin = fp(async function corsSetup (app: FastifyInstance, opts: CorsOptions) {
  const apiOn = opts.origins.length > 0
  const api: FastifyCorsOptions = {
    origin: !apiOn ? false : opts.origins.includes('*') ? '*' : opts.origins,
    methods: ['GET', 'HEAD', 'POST'],
    allowedHeaders: ['Authorization', 'Content-Type', REQUEST_ID_HEADER],
    exposedHeaders: [...EXPOSED_HEADERS],
    maxAge: PREFLIGHT_MAX_AGE_S,
    // An OPTIONS without Origin is not a browser's preflight: answered like any OPTIONS
    // (204 with the methods) rather than with a bare text 400 outside the envelope.
    strictPreflight: false
  }
  const files: FastifyCorsOptions = {
    origin: '*',
    methods: ['GET', 'HEAD'],
    allowedHeaders: ['Range', 'If-None-Match', 'If-Modified-Since'],
    exposedHeaders: ['Content-Length', 'Content-Range', 'Accept-Ranges', 'ETag', REQUEST_ID_HEADER],
    maxAge: PREFLIGHT_MAX_AGE_S,
    strictPreflight: false
  }

  // Each route carries its own options (@fastify/cors reads the route's `config.cors`),
  // decided once when the route is added rather than per request: `anyOrigin` routes get
  // the open ones, the API CORS_ORIGINS' or, when that is empty, none at all (the hook
  // returns at once). A delegator choosing by URL made @fastify/cors rebuild its options
  // on every request, the largest cost of our own in a profile of the shared path
  // (docs/performance.md, "The shared request path").
  const preflighted = new Set<string>()
  app.addHook('onRoute', function (route) {
    const config = (route.config ?? {}) as Record<string, unknown>
    if (route.method === 'OPTIONS' && route.url === '*') {
      // The preflight route @fastify/cors adds (OPTIONS *) is public and free: without
      // this, src/access/request-gate.ts would ask it for a key a browser never sends there.
      route.config = { ...config, public: true, rateLimit: false } as typeof route.config
    } else if (config.cors === undefined && config.anyOrigin === true) {
      route.config = { ...config, cors: files } as typeof route.config
      // Its preflight, with the same open options (OPTIONS * answers with the API's):
      // added once per path, when the first of its methods is (GET, then Fastify's HEAD).
      const url = route.url ?? ''
      if (!preflighted.has(url)) {
        preflighted.add(url)
        this.options(url, { schema: { hide: true }, config: { public: true, rateLimit: false, cors: files } as Record<string, unknown> }, async (_request, reply) => await reply.send())
      }
    } else if (config.cors === undefined && !apiOn) {
      route.config = { ...config, cors: false } as typeof route.config
    }
  })

  await app.register(cors, { hideOptionsRoute: true, ...api })
}, { name: 'cors' })
