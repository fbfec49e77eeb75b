// API-key authentication, the request path's first check on every route that does not
// declare itself public. Keys arrive bare ("Authorization: <key>", as every existing
// client sends them) or as "Bearer <key>" (docs/compatibility.md, "Keys").
import type { FastifyRequest } from 'fastify'
import type { KeyService } from './keys.js'

/** Sets request.apiKey, or throws the catalogue error saying why the key is refused. */
export async function authenticate (keys: KeyService, request: FastifyRequest): Promise<void> {
  request.apiKey = await keys.authenticate(request.headers.authorization)
}
