// The one error handler: every failure, ours or Fastify's, leaves as the JSON envelope
// with the status from the error catalogue. 5xx answers never carry internals.
// Failures before any route runs come through the same table: Fastify's router errors
// (a malformed URL, an overlong path parameter) by `frameworkErrors`, and Node's HTTP
// parser errors (headers too large, a request not received in time, bytes that are not
// HTTP) by `clientErrorHandler`, which writes the envelope straight to the socket.
import { randomUUID } from 'node:crypto'
import type { Server } from 'node:http'
import type { Duplex } from 'node:stream'
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { AppError, ERROR_CATALOGUE, type ErrorCode, isAppError } from '../errors.js'
import { isStoreUnavailable } from '../store/interface.js'
import type { ErrorEnvelope } from './envelope.js'
import { REQUEST_ID_HEADER } from './request-id.js'
import { isHandedOver, type ParserError, readRawTarget } from './request-target.js'

// Fastify's own error codes, mapped onto our catalogue: those it can still raise here.
// Its JSON parser is replaced (src/http/body.ts) and its handlerTimeout unused
// (src/http/deadline.ts), so their errors never arise.
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_CONTENT_LENGTH',
  FST_ERR_NOT_FOUND: 'NOT_FOUND',
  // The URL itself is never echoed: it is whatever the client sent.
  FST_ERR_BAD_URL: 'MALFORMED_URL',
  FST_ERR_MAX_PARAM_LENGTH: 'URL_TOO_LONG',
  // A request stream that ends in a reset: the client went away mid-body. Only for the
  // request's own stream: a reset of another socket (the store's) must not read as the
  // client's (issue 25), see clientWentAway.
  ECONNRESET: 'CLIENT_CLOSED',
  ECONNABORTED: 'CLIENT_CLOSED',
  ERR_STREAM_PREMATURE_CLOSE: 'CLIENT_CLOSED'
}

interface AjvError { instancePath?: string, message?: string, keyword?: string, params?: Record<string, unknown> }

const CONTEXT_NAMES: Record<string, string> = {
  body: 'body field',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header'
}

/** "query parameter "quality" must be <= 100": the field named, as clients need it. */
export function describeValidation (context: string | undefined, errors: AjvError[]): string {
  const first = errors[0]
  if (!first) return ERROR_CATALOGUE.VALIDATION.message
  let field = (first.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.')
  const params = first.params ?? {}
  if (first.keyword === 'required' && typeof params.missingProperty === 'string') {
    field = field ? `${field}.${params.missingProperty}` : params.missingProperty
    return `Missing ${CONTEXT_NAMES[context ?? ''] ?? 'field'} "${field}"`
  }
  if (first.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    field = field ? `${field}.${params.additionalProperty}` : params.additionalProperty
    return `Unknown ${CONTEXT_NAMES[context ?? ''] ?? 'field'} "${field}"`
  }
  let message = first.message ?? 'is invalid'
  if (first.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    message = `must be one of: ${params.allowedValues.join(', ')}`
  }
  // A union of literals (Type.Union of Type.Literal) fails as one `const` per branch, then
  // `anyOf`: the values of every branch, rather than "must be equal to constant".
  if (first.keyword === 'const') {
    const allowed = errors.filter((e) => e.keyword === 'const' && e.instancePath === first.instancePath).map((e) => (e.params as { allowedValue?: unknown } | undefined)?.allowedValue)
    if (allowed.length > 1) message = `must be one of: ${allowed.join(', ')}`
  }
  if (!field) return context === 'body' ? `Invalid request body: it ${message}` : `Invalid ${context ?? 'request'}: ${message}`
  return `Invalid ${CONTEXT_NAMES[context ?? ''] ?? 'field'} "${field}": it ${message}`
}

/** Turns any thrown value into an AppError; unknown errors become INTERNAL. */
export function toAppError (err: unknown): AppError {
  if (isAppError(err)) return err
  // Before the codes below: a store failure may carry ECONNRESET in its cause, never the client's.
  if (isStoreUnavailable(err)) return new AppError('STORE_UNAVAILABLE', undefined, { headers: { 'retry-after': String(err.retryAfterSeconds) }, cause: err })
  const e = err as FastifyError & { validation?: AjvError[], validationContext?: string }
  // Node's IncomingMessage fails with a bare "aborted" when the client disconnects mid-body.
  if (e?.message === 'aborted' && e.code === undefined) return new AppError('CLIENT_CLOSED', undefined, { cause: err })
  if (e && Array.isArray(e.validation)) {
    return new AppError('VALIDATION', describeValidation(e.validationContext, e.validation))
  }
  const mapped = e?.code ? FASTIFY_CODES[e.code] : undefined
  if (mapped) return new AppError(mapped, undefined, { cause: err })
  // Errors from plugins that carry a client status (4xx) keep it, with their message.
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500
  if (status >= 400 && status < 500) {
    const code: ErrorCode = status === 413 ? 'BODY_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST'
    return new AppError(code, e.message || undefined, { status, cause: err })
  }
  return new AppError('INTERNAL', undefined, { cause: err })
}

export function envelopeFor (error: AppError, requestId: string): ErrorEnvelope {
  return {
    ...error.details,
    success: false,
    code: error.status,
    message: error.message,
    error: error.code,
    requestId
  }
}

/** "2 KiB", "4 MiB", "1.5 MiB". */
export function sizeText (bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(2)} MiB` : `${+(bytes / 1024).toFixed(2)} KiB`
}

/**
 * A body over its route's limit, worded from that limit (the route's `bodyLimit`, else
 * BODY_LIMIT), whether the body announced its size or was cut off while streaming, with
 * the route's advice (`config.bodyTooLarge`) when it has some.
 */
function bodyTooLarge (request: FastifyRequest, err: unknown): AppError | undefined {
  if ((err as { code?: string } | undefined)?.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') return undefined
  const route = request.routeOptions
  const limit = route.bodyLimit
  if (typeof limit !== 'number') return undefined
  const advice = route.config?.bodyTooLarge
  const where = route.url === undefined ? 'this endpoint' : route.url
  return new AppError('BODY_TOO_LARGE', `The request body is too large: ${where} accepts at most ${sizeText(limit)} (${limit} bytes) per request${advice === undefined ? '' : `: ${advice}`}`, { details: { limit }, cause: err })
}

/**
 * Whether the client really left: its request did not arrive whole, or its socket is
 * gone. A reset is CLIENT_CLOSED only then; the same code raised by another connection
 * (a dependency's socket, reset by its server) while the client is still there is a
 * failure of ours (issue 25: a PostgreSQL reset was answered 400 CLIENT_CLOSED).
 */
function clientWentAway (request: FastifyRequest): boolean {
  const raw = request.raw
  // Not raw.destroyed: a request stream is destroyed once its body has been read.
  return raw.complete === false || raw.aborted === true || raw.socket?.destroyed === true
}

/**
 * A failure the client caused though its status is 5xx: the request's deadline
 * (REQUEST_TIMEOUT_MS, 503 TIMEOUT) passed while its body was still arriving, too slowly.
 * Logged at debug like the client's other mistakes (docs/operations.md, "Connections"):
 * a slow JSON body was once logged as a server error with a stack (issue 35).
 */
function causedByClient (request: FastifyRequest, error: AppError): boolean {
  return error.code === 'TIMEOUT' && request.raw.complete === false
}

export function sendError (request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  let error = bodyTooLarge(request, err) ?? toAppError(err)
  if (error.code === 'CLIENT_CLOSED' && !isAppError(err) && !clientWentAway(request)) error = new AppError('INTERNAL', undefined, { cause: err })
  if (error.code === 'CLIENT_CLOSED') {
    // Nobody reads this answer; a disconnect is the client's choice, not a failure of ours.
    request.log.debug({ code: error.code, message: error.message }, 'client closed the connection')
  } else if (causedByClient(request, error)) {
    request.log.debug({ code: error.code, message: error.message }, 'request stopped: its body was still arriving at the deadline')
  } else if (error.code === 'STORE_UNAVAILABLE') {
    // A dependency failing, said once per request without a stack: the cause names how.
    const problem = error.cause as (Error & { cause?: { message?: string } }) | undefined
    request.log.warn({ code: error.code, problem: problem?.message, cause: problem?.cause?.message }, 'request refused: store unavailable')
  } else if (error.status === 503 && error.headers?.['retry-after'] !== undefined) {
    // Load shed on purpose (src/work/scheduler.ts, the upload budget): no failure, no stack.
    request.log.warn({ code: error.code, message: error.message }, 'request refused: busy')
  } else if (error.status >= 500 && error.code !== 'TEST_ERROR') {
    request.log.error({ err: error.cause ?? error, code: error.code }, 'request failed')
  }
  // Answers from frameworkErrors never passed the onRequest step that sets it.
  reply.header(REQUEST_ID_HEADER, request.id)
  if (error.headers) reply.headers(error.headers)
  // An error replaces whatever the route meant to send: image bytes become JSON.
  reply.removeHeader('content-length')
  reply.removeHeader('content-disposition')
  return reply.code(error.status).type('application/json; charset=utf-8').send(envelopeFor(error, request.id))
}

/**
 * What is wrong with a path the router could not decode (FST_ERR_BAD_URL), without
 * echoing it: a "%" that starts no escape, or escapes whose bytes are not UTF-8. (In the
 * query, such a "%" is kept as written: docs/compatibility.md, "URLs".)
 */
export function describeBadPath (url: string): string {
  const path = url.split('?')[0]!
  const stray = /%(?![0-9a-fA-F]{2})/.exec(path)
  if (stray) return `The request path has a "%" not followed by two hex digits (byte ${stray.index + 1} of the path): write a literal "%" as %25`
  return 'The request path has percent-escapes whose bytes are not UTF-8 text (such as %FF, or %C3 without the byte that completes it): percent-encode the text as UTF-8 (é as %C3%A9)'
}

/** Fastify's `frameworkErrors`: router failures (bad URL, overlong parameter) as the envelope. */
export function frameworkErrorHandler (err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  sendError(request, reply, err.code === 'FST_ERR_BAD_URL' ? new AppError('MALFORMED_URL', describeBadPath(request.raw.url ?? ''), { cause: err }) : err)
}

/** Node's HTTP parser error codes, mapped onto the catalogue; anything else is MALFORMED_REQUEST. */
const CLIENT_ERROR_CODES: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: 'HEADERS_TOO_LARGE',
  ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  HPE_INVALID_URL: 'MALFORMED_URL'
}

/**
 * Fastify's `clientErrorHandler` (Node's `clientError` event): the parser failed before
 * a request existed, so the envelope is written to the socket by hand and the
 * connection closed, as Node's own handler does. Logged at debug: these are the
 * client's mistakes or its disconnects, never ours. A URL with raw UTF-8 bytes is read
 * percent-encoded instead (src/http/request-target.ts).
 */
export function clientErrorHandler (this: { log: FastifyBaseLogger, server: Server }, err: Error & { code?: string }, socket: Duplex): void {
  // A connection handed to a new parser: the old parser's errors are no one's.
  if (isHandedOver(socket)) return
  const answered = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true
  if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable || answered) {
    socket.destroy()
    return
  }
  let message: string | undefined
  if (err.code === 'HPE_INVALID_URL') {
    // Node hands over the bytes read as a Buffer (Fastify's type says otherwise).
    const outcome = readRawTarget(this.server, socket, err as ParserError, (on, refusal) => writeEnvelope(this.log, on, new AppError('MALFORMED_URL', refusal), err.code))
    if (outcome.taken) {
      this.log.debug({ cause: err.code }, 'raw bytes in the URL: read percent-encoded')
      return
    }
    message = outcome.message
  }
  writeEnvelope(this.log, socket, new AppError(CLIENT_ERROR_CODES[err.code ?? ''] ?? 'MALFORMED_REQUEST', message), err.code)
}

/** The envelope of a refusal before any request, written to the socket, which is then closed. */
function writeEnvelope (log: FastifyBaseLogger, socket: Duplex, error: AppError, cause: string | undefined): void {
  if (socket.destroyed || !socket.writable) return
  const requestId = randomUUID()
  log.debug({ code: error.code, cause, requestId }, 'client error')
  const body = JSON.stringify(envelopeFor(error, requestId))
  socket.end(`HTTP/1.1 ${error.status} ${STATUS_TEXT[error.status] ?? 'Error'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `${REQUEST_ID_HEADER}: ${requestId}\r\n` +
    'Connection: close\r\n\r\n' + body)
  // end() flushes, then closes; a client that never reads must not hold the socket.
  setTimeout(() => socket.destroy(), 1000).unref()
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 414: 'URI Too Long', 431: 'Request Header Fields Too Large' }

export function notFound (request: FastifyRequest): AppError {
  return new AppError('NOT_FOUND', `Not found: ${request.method} ${request.url.split('?')[0]} is not an endpoint of this API. See /docs for the list`)
}

export const errorHandlerPlugin = fp(async function errorHandler (app: FastifyInstance) {
  app.setErrorHandler(function (err, request, reply) {
    return sendError(request, reply, err)
  })
  // Reached only if a request to an unknown path got past notFoundPlugin's step.
  app.setNotFoundHandler(function (request, reply) {
    return sendError(request, reply, notFound(request))
  })
}, { name: 'error-handler' })

/**
 * How much of the body sent to an unknown path is read and dropped after the 404, so
 * that a client which sends its whole body before reading the answer (most do) reads the
 * 404 rather than a connection reset (nginx's "lingering close"). A longer body, declared
 * or streamed, closes the connection instead.
 */
export const NOT_FOUND_DISCARD_BYTES = 16 * 1024 * 1024

/**
 * A request to a path no route serves is answered 404 at the onRequest step, before its
 * body is read: a body limit belongs to a route, and Fastify's not-found handler runs
 * after the body has been parsed within BODY_LIMIT, so a 2 MB body to an unknown path
 * was answered 413 "at most 1 MiB", a small one 404. Nothing of the body is kept: what
 * arrives after the answer is dropped as it comes (up to NOT_FOUND_DISCARD_BYTES, so the
 * connection stays usable), or the connection is closed. Registered after the request gate
 * plugin (src/app.ts), whose step counts the request in and leaves unknown paths alone;
 * a known route pays one property check.
 */
export const notFoundPlugin = fp(async function notFoundEarly (app: FastifyInstance) {
  app.addHook('onRequest', function unknownPath (request, reply, done) {
    if (!request.is404) {
      done()
      return
    }
    const raw = request.raw
    if (!raw.complete) {
      const declared = Number(raw.headers['content-length'])
      if (declared > NOT_FOUND_DISCARD_BYTES) {
        reply.header('connection', 'close')
      } else {
        let dropped = 0
        raw.on('data', (chunk: Buffer) => {
          dropped += chunk.length
          if (dropped > NOT_FOUND_DISCARD_BYTES) raw.socket.destroy()
        })
        raw.on('error', () => {})
      }
    }
    sendError(request, reply, notFound(request))
  })
}, { name: 'not-found', dependencies: ['request-gate'] })
