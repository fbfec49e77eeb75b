// One structured log line per request, naming the key by its name, never the key.
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import type { RoutePolicy } from './route-config.js'

export function logRequest (request: FastifyRequest, reply: FastifyReply, route: RoutePolicy): void {
  const log = request.log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }
  // Below info (LOG_LEVEL=warn and up), not even the line's object is built.
  if (log.isLevelEnabled?.('info') === false) return
  log.info({
    method: request.method,
    url: request.url,
    route: route.unknown ? undefined : route.url,
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 100) / 100,
    key: request.apiKey?.name,
    ip: request.ip
  }, 'request')
}
