// What a route declares about itself, read by the shared mechanisms of src/http/.
import type { FastifyRequest } from 'fastify'
import type { ErrorCode } from '../errors.js'
import type { AdminScope, ApiKeyRecord } from '../store/interface.js'

/**
 * How the shared body mechanism reads a route's body (src/http/body.ts):
 * - 'json': parsed as JSON whatever the declared content type (clients send
 *   text/plain, none, or application/json: docs/compatibility.md, "Bodies");
 *   an empty body reads as {}; object keys are matched case-insensitively against
 *   the route's body schema.
 * - 'json-with-nulls': as 'json', but a null member is kept: where null means "remove
 *   this setting" (the management API's PATCH), not "not sent".
 * - 'json-or-text': JSON when the body parses as JSON, else the body as a string.
 * - 'raw': the route reads the bytes itself (the route's plugin installs its parser):
 *   an upload, documented as raw bytes or a multipart form with the file in `file`
 *   and the route's query parameters as further form fields.
 */
export type BodyMode = 'json' | 'json-with-nulls' | 'json-or-text' | 'raw'

/** What a route of the management API asks of its caller (config `admin`). */
export type AdminAccess = 'page' | 'token' | AdminScope

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No API key needed (health, docs, public files). */
    public?: boolean
    /**
     * Readable by scripts of any origin whatever CORS_ORIGINS says, preflight included
     * (src/http/cors.ts): files whose URLs are handed out to be embedded (gif files,
     * asset previews).
     */
    anyOrigin?: boolean
    body?: BodyMode
    /** A 'raw' route that reads the body as the file's bytes only, never as a multipart form: documented without one. */
    multipart?: false
    /**
     * Catalogue codes this route can answer beyond the shared ones (validation, auth,
     * body limits, 500): documented in the OpenAPI document with the envelope.
     */
    errors?: ErrorCode[]
    /**
     * A success answers image bytes of these media types (not JSON): documented as
     * binary content in the OpenAPI document.
     */
    images?: readonly string[]
    /**
     * The image answers go through the result cache (src/result-cache/): documented with
     * their X-Cache and ETag headers and a 304 for If-None-Match.
     */
    cached?: boolean
    /** Advice added to the 413 of a body over this route's limit (src/http/error-handler.ts). */
    bodyTooLarge?: string
    /**
     * A signed link may name this route (POST /links, GET /l/...: docs/links.md): it draws
     * the same bytes for the same request, whoever asks and whenever. Every other route is
     * refused as a link's target (LINK_NOT_LINKABLE).
     */
    linkable?: boolean
    /**
     * A route of the management API (src/admin/, docs/admin-api.md): never an API key. The
     * request gate asks for none; the admin gate answers 404 while no operator token exists,
     * then asks for a token ('token': any; a scope: a token holding it). 'page': no token,
     * only the 404 (the console's page, the admin OpenAPI document).
     */
    admin?: AdminAccess
  }
  interface FastifyRequest {
    /** The key that authenticated the request; null on public routes. */
    apiKey: ApiKeyRecord | null
  }
}

/**
 * A route's declarations as the request path reads them, worked out once per route
 * (request.routeOptions builds a fresh object on every access) and kept on the request.
 */
export interface RoutePolicy {
  /** The route's pattern ("/sfw/gif/:type"); "unknown" for unmatched paths. */
  url: string
  /** No route matched: nothing to authenticate, limit or count. */
  unknown: boolean
  public: boolean
  /** Units of the rate limit and quota one request costs. */
  cost: number
  rateLimited: boolean
  /** A link may name this route (config `linkable`). */
  linkable: boolean
  /** A route of the management API (config `admin`): no API key; the admin gate decides. */
  admin: AdminAccess | undefined
  /** Usage is counted per endpoint group: the route's first OpenAPI tag, else its first path segment. */
  group: string
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the first onRequest step (src/access/request-gate.ts). */
    policy: RoutePolicy | null
  }
}

export const UNKNOWN_ROUTE: RoutePolicy = Object.freeze({ url: 'unknown', unknown: true, public: true, cost: 0, rateLimited: false, linkable: false, admin: undefined, group: 'other' })

const policies = new WeakMap<object, RoutePolicy>()

export function policyOf (request: FastifyRequest): RoutePolicy {
  if (request.is404) return UNKNOWN_ROUTE
  const options = request.routeOptions
  let policy = policies.get(options.config)
  if (policy === undefined) {
    const url = options.url ?? 'unknown'
    policy = Object.freeze({
      url,
      unknown: false,
      public: options.config.public === true,
      cost: options.config.cost ?? 1,
      rateLimited: options.config.rateLimit !== false,
      linkable: options.config.linkable === true,
      admin: options.config.admin,
      group: options.schema?.tags?.[0] ?? (url.split('/')[1] || 'other')
    })
    policies.set(options.config, policy)
  }
  return policy
}
