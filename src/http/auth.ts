// API-key authentication for every route that does not declare itself public.
// Keys arrive bare ("Authorization: <key>", as every existing client sends them) or as
// "Bearer <key>" (../shared/compat/existing-clients.md).
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { KeyService } from '../keys/keys.js'

export const authPlugin = fp(async function auth (app: FastifyInstance, opts: { keys: KeyService }) {
  app.decorateRequest('apiKey', null)
  app.addHook('onRequest', async function authenticate (request) {
    // Unknown paths answer 404 whatever the key: nothing to protect there.
    if (request.is404 || request.routeOptions.config.public === true) return
    request.apiKey = await opts.keys.authenticate(request.headers.authorization)
  })
}, { name: 'auth' })
