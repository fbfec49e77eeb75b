// Logging per request: one structured line per answered request, naming the key by its
// name, never the key.
//
// The line names the route's pattern ("/sfw/gif/:imageType"), never the URL as sent: query
// strings carry what users typed (usernames and avatar URLs of /gen/welcome, colours),
// which has no place in an operator's logs. An unmatched path is logged without its query.
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import type { RoutePolicy } from './route-config.js'

type Logger = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }

export function logRequest (request: FastifyRequest, reply: FastifyReply, route: RoutePolicy): void {
  // Through the server's logger with the id in the line, as request.log would write it.
  const log = request.server.log as Logger
  // Below info (LOG_LEVEL=warn and up), not even the line's object is built.
  if (log.isLevelEnabled?.('info') === false) return
  log.info({
    reqId: request.id,
    method: request.method,
    route: route.unknown ? undefined : route.url,
    path: route.unknown ? pathOf(request.url) : undefined,
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 100) / 100,
    key: request.apiKey?.name,
    ip: request.ip
  }, 'request')
}

function pathOf (url: string): string {
  const q = url.indexOf('?')
  return q === -1 ? url : url.slice(0, q)
}
