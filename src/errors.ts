// The error catalogue: every failure the API can answer, with a stable code, the HTTP
// status (which clients also read as `code` in the envelope) and a default message a
// person can act on. Domain code throws AppError with a code from this table; the one
// error handler (src/http/error-handler.ts) turns it into the envelope. Every entry is
// exercised by test/foundation/error-catalogue.test.ts.

export const ERROR_CATALOGUE = {
  // Authentication: 401 for each way a key can be wrong, each with its own message
  // (as the hosted service does, ../shared/compat/existing-clients.md).
  AUTH_MISSING: { status: 401, message: 'Missing Authorization header: send your API key as "Authorization: <key>"' },
  AUTH_EMPTY: { status: 401, message: 'Empty Authorization header: send your API key as "Authorization: <key>"' },
  AUTH_UNKNOWN_KEY: { status: 401, message: 'Unknown API key: check the key, or ask the operator for a new one' },
  AUTH_KEY_DISABLED: { status: 401, message: 'This API key is disabled: ask the operator to enable it again' },
  AUTH_KEY_REVOKED: { status: 401, message: 'This API key has been revoked: ask the operator for a new one' },

  // Requests the server cannot read.
  VALIDATION: { status: 400, message: 'Invalid request' },
  MALFORMED_JSON: { status: 400, message: 'The request body is not valid JSON' },
  INVALID_UTF8: { status: 400, message: 'The request body is not valid UTF-8 text' },
  EMPTY_BODY: { status: 400, message: 'The request body is empty: this endpoint needs a body' },
  BAD_CONTENT_LENGTH: { status: 400, message: 'The Content-Length header does not match the body' },
  BODY_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'This endpoint cannot read the request body\'s content type' },
  BAD_REQUEST: { status: 400, message: 'Bad request' },

  // Image conversion (src/conversion/image/, docs/image-conversion.md).
  IMAGE_UNSUPPORTED_FORMAT: { status: 415, message: 'The body is not an image in a format this endpoint reads: send JPEG, PNG, WebP, GIF, AVIF or TIFF' },
  IMAGE_INVALID: { status: 400, message: 'The image could not be decoded: the file is truncated or corrupt' },
  IMAGE_TOO_MANY_PIXELS: { status: 400, message: 'The image declares more pixels than this server converts: send a smaller image' },
  IMAGE_TOO_MANY_FRAMES: { status: 400, message: 'The animation declares more frames than this server converts: send a shorter animation' },
  IMAGE_TIMEOUT: { status: 503, message: 'The conversion took too long and was stopped: send a smaller image, or try again later' },
  IMAGE_BUSY: { status: 503, message: 'Too many image conversions are running or waiting: retry after the number of seconds in Retry-After' },

  // Routing.
  NOT_FOUND: { status: 404, message: 'Not found: no such endpoint. See /docs for the list of endpoints' },

  // The specification's deliberate test error (GET /gen/html).
  TEST_ERROR: { status: 500, message: 'This is a test error: /gen/html always fails, so that client authors can exercise their error handling' },

  // Server side.
  TIMEOUT: { status: 503, message: 'The request took too long and was stopped: try again, or send a smaller request' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is not ready: try again shortly' },
  INTERNAL: { status: 500, message: 'Internal server error: the failure has been logged; quote the request id when reporting it' }
} as const satisfies Record<string, { status: number, message: string }>

export type ErrorCode = keyof typeof ERROR_CATALOGUE

/** A failure with a catalogue code. `message` overrides the catalogue's default text. */
export class AppError extends Error {
  readonly status: number
  /** Extra fields of the envelope, for errors that say more (a list of valid values, say). */
  readonly details: Record<string, unknown> | undefined
  /** Headers to send with the error (Retry-After on 503, for instance). */
  readonly headers: Record<string, string> | undefined

  constructor (
    readonly code: ErrorCode,
    message?: string,
    options: { status?: number, details?: Record<string, unknown>, headers?: Record<string, string>, cause?: unknown } = {}
  ) {
    super(message ?? ERROR_CATALOGUE[code].message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'AppError'
    this.status = options.status ?? ERROR_CATALOGUE[code].status
    this.details = options.details
    this.headers = options.headers
  }
}

export function isAppError (err: unknown): err is AppError {
  return err instanceof AppError
}
