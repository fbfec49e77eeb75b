// API-key authentication, the request path's first check on every route that does not
// declare itself public. Keys arrive bare ("Authorization: <key>", as every existing
// client sends them) or as "Bearer <key>" (docs/compatibility.md, "Keys").
import type { FastifyRequest } from 'fastify'
import type { KeyService } from './keys.js'

/**
 * Sets request.apiKey or throws the catalogue error saying why the key is refused.
 * Returns a promise only when the key store must be asked (a key not seen lately).
 */
export function authenticate (keys: KeyService, request: FastifyRequest): void | Promise<void> {
  const found = keys.authenticate(request.headers.authorization)
  if (found instanceof Promise) return found.then((record) => { request.apiKey = record })
  request.apiKey = found
}
