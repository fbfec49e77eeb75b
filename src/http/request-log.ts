// Logging per request: one structured line per answered request, naming the key by its
// name, never the key.
//
// The line names the route's pattern ("/sfw/gif/:imageType"), never the URL as sent: query
// strings carry what users typed (usernames and avatar URLs of /gen/welcome, colours),
// which has no place in an operator's logs. An unmatched path is logged without its query.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { RoutePolicy } from './route-config.js'

export function logRequest (request: FastifyRequest, reply: FastifyReply, route: RoutePolicy): void {
  // request.log is the child logger Fastify makes for every request: it carries the
  // request's id (reqId). Below info (LOG_LEVEL=warn and up) its info() does nothing.
  request.log.info({
    method: request.method,
    // The route's pattern, or for an unmatched path the path without its query.
    [route.unknown ? 'path' : 'route']: route.unknown ? pathOf(request.url) : route.url,
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
