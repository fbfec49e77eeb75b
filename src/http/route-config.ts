// What a route declares about itself, read by the shared mechanisms of src/http/.
import type { ErrorCode } from '../errors.js'
import type { ApiKeyRecord } from '../store/interface.js'

/**
 * How the shared body mechanism reads a route's body (src/http/body.ts):
 * - 'json': parsed as JSON whatever the declared content type (clients send
 *   text/plain, none, or application/json: ../shared/compat/existing-clients.md);
 *   an empty body reads as {}; object keys are matched case-insensitively against
 *   the route's body schema.
 * - 'json-or-text': JSON when the body parses as JSON, else the body as a string.
 * - 'raw': the route reads the bytes itself (the route's plugin installs its parser).
 */
export type BodyMode = 'json' | 'json-or-text' | 'raw'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No API key needed (health, docs, public files). */
    public?: boolean
    body?: BodyMode
    /**
     * Catalogue codes this route can answer beyond the shared ones (validation, auth,
     * body limits, 500): documented in the OpenAPI document with the envelope.
     */
    errors?: ErrorCode[]
  }
  interface FastifyRequest {
    /** The key that authenticated the request; null on public routes. */
    apiKey: ApiKeyRecord | null
  }
}
