// Logging per request: one structured line per answered request, naming the key by its
// name, never the key; and the per-request logger Fastify hands to handlers.
//
// The line names the route's pattern ("/sfw/gif/:imageType"), never the URL as sent: query
// strings carry what users typed (usernames and avatar URLs of /gen/welcome, colours),
// which has no place in an operator's logs. An unmatched path is logged without its query.
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import type { Bindings, ChildLoggerOptions } from 'pino'
import type { RoutePolicy } from './route-config.js'

type Logger = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }

export function logRequest (request: FastifyRequest, reply: FastifyReply, route: RoutePolicy): void {
  // Through the server's logger with the id in the line: the request's own child logger
  // is not made for it (see lazyChildLogger).
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

/**
 * Fastify's childLoggerFactory: the request's logger (request.log, bound to its id),
 * made on its first use rather than for every request. Making a pino child was a
 * measurable share of a small request, and most requests never log through it.
 */
export function lazyChildLogger (logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  // Its methods take what pino's take and hand it on unchanged.
  return new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger
}

type LogArgs = [unknown, ...unknown[]]
type LogAny = (...args: LogArgs) => void

class LazyChildLogger {
  #parent: FastifyBaseLogger
  #bindings: Bindings
  #options: ChildLoggerOptions
  #child: FastifyBaseLogger | undefined

  constructor (parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent
    this.#bindings = bindings
    this.#options = options
  }

  get #real (): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options)
    return this.#child
  }

  get level (): string { return this.#real.level }
  set level (level: string) { this.#real.level = level }
  fatal (...args: LogArgs): void { (this.#real.fatal as LogAny)(...args) }
  error (...args: LogArgs): void { (this.#real.error as LogAny)(...args) }
  warn (...args: LogArgs): void { (this.#real.warn as LogAny)(...args) }
  info (...args: LogArgs): void { (this.#real.info as LogAny)(...args) }
  debug (...args: LogArgs): void { (this.#real.debug as LogAny)(...args) }
  trace (...args: LogArgs): void { (this.#real.trace as LogAny)(...args) }
  silent (): void {}
  child (bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger { return this.#real.child(bindings, options) }
}
