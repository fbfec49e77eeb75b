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
  // request.log carries the request's id (reqId) already. Below info (LOG_LEVEL=warn and
  // up), not even the line's object is built.
  const log = request.log as Logger
  // (Without a logger, Fastify's stand-in has no isLevelEnabled.)
  if (log.isLevelEnabled?.('info') === false) return
  const ms = Math.round(reply.elapsedTime * 100) / 100
  if (route.unknown) {
    log.info({ method: request.method, path: pathOf(request.url), status: reply.statusCode, ms, key: request.apiKey?.name, ip: request.ip }, 'request')
  } else {
    log.info({ method: request.method, route: route.url, status: reply.statusCode, ms, key: request.apiKey?.name, ip: request.ip }, 'request')
  }
}

function pathOf (url: string): string {
  const q = url.indexOf('?')
  return q === -1 ? url : url.slice(0, q)
}
