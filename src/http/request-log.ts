// One structured log line per request, naming the key by its name, never the key.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

export const requestLogPlugin = fp(async function requestLog (app: FastifyInstance) {
  app.addHook('onResponse', async function logRequest (request, reply) {
    request.log.info({
      method: request.method,
      url: request.url,
      route: request.routeOptions.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
      key: request.apiKey?.name,
      ip: request.ip
    }, 'request')
  })
}, { name: 'request-log' })
