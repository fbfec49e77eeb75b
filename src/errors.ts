// The error catalogue: every failure the API can answer, with a stable code, the HTTP
// status (which clients also read as `code` in the envelope) and a default message a
// person can act on. Domain code throws AppError with a code from this table; the one
// error handler (src/http/error-handler.ts) turns it into the envelope. Every entry is
// exercised by test/unit/errors.test.ts (status and envelope), and by the
// feature tests that trigger it for real.

export const ERROR_CATALOGUE = {
  // Authentication: 401 for each way a key can be wrong, each with its own message
  // (as the hosted service does, docs/compatibility.md, "Errors").
  AUTH_MISSING: { status: 401, message: 'Missing Authorization header: send your API key as "Authorization: <key>"' },
  AUTH_EMPTY: { status: 401, message: 'Empty Authorization header: send your API key as "Authorization: <key>"' },
  AUTH_UNKNOWN_KEY: { status: 401, message: 'Unknown API key: check the key, or ask the operator for a new one' },
  AUTH_KEY_DISABLED: { status: 401, message: 'This API key is disabled: ask the operator to enable it again' },
  AUTH_KEY_REVOKED: { status: 401, message: 'This API key has been revoked: ask the operator for a new one' },
  AUTH_KEY_EXPIRED: { status: 401, message: 'This API key has expired: ask the operator to renew it' },
  AUTH_KEY_ROLLED: { status: 401, message: 'This API key was replaced by a new one (rolled) and its grace period is over: use the new key' },

  // Requests the server cannot read.
  VALIDATION: { status: 400, message: 'Invalid request' },
  MALFORMED_JSON: { status: 400, message: 'The request body is not valid JSON' },
  JSON_TOO_DEEP: { status: 400, message: 'The JSON body nests objects and arrays too deeply: send only the fields the endpoint documents (see /docs)' },
  INVALID_UTF8: { status: 400, message: 'The request body is not valid UTF-8 text' },
  EMPTY_BODY: { status: 400, message: 'The request body is empty: this endpoint needs a body' },
  BAD_CONTENT_LENGTH: { status: 400, message: 'The Content-Length header does not match the body' },
  BODY_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'This endpoint cannot read the request body\'s content type' },
  BAD_REQUEST: { status: 400, message: 'Bad request' },
  // Failures of the HTTP exchange itself, answered before any route runs
  // (src/http/error-handler.ts, clientErrorHandler and frameworkErrors).
  // Its answers name what is wrong (src/http/error-handler.ts, src/http/request-target.ts).
  MALFORMED_URL: { status: 400, message: 'The request URL is malformed: percent-encode any character a URL cannot hold as it is' },
  URL_TOO_LONG: { status: 414, message: 'A path segment of the URL is too long: check the URL, names here are short' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large: send fewer or shorter headers (at most 16 KB in all)' },
  MALFORMED_REQUEST: { status: 400, message: 'The request is not valid HTTP/1.1: check the request line, the headers and the body framing' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time: send the request line, headers and body without pausing' },
  UPLOAD_TOO_SLOW: { status: 408, message: 'The upload arrived too slowly and was stopped: send the body at a steady rate, or a smaller file' },
  CLIENT_CLOSED: { status: 400, message: 'The client closed the connection before the request was complete' },

  // Limits per key (src/access/rate-limit.ts).
  RATE_LIMITED: { status: 429, message: 'Too many requests: this key\'s rate limit is used up; retry after the number of seconds in Retry-After' },
  QUOTA_EXCEEDED: { status: 429, message: 'This key\'s quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota' },
  // Prepaid credits (src/access/credits.ts): refused before any work, nothing drawn.
  CREDITS_EXHAUSTED: { status: 402, message: 'This key\'s credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits' },
  // Image generation (src/generation/) and fetching images from URLs
  // (src/remote-fetch/). Every fetch failure is a 400 naming the URL's role.
  REMOTE_FETCH_REFUSED: { status: 400, message: 'The image URL was refused: only http(s) URLs of public hosts can be fetched' },
  REMOTE_FETCH_FAILED: { status: 400, message: 'The image URL could not be fetched: check that it is reachable from the internet' },
  REMOTE_FETCH_TOO_LARGE: { status: 400, message: 'The image at the URL is larger than the download limit: use a smaller image' },
  REMOTE_FETCH_TIMEOUT: { status: 400, message: 'The image URL took too long to answer: use a faster host' },
  REMOTE_IMAGE_INVALID: { status: 400, message: 'The URL did not answer with an image this server can read (PNG, JPEG, WebP, GIF or AVIF)' },
  TEMPLATE_NOT_FOUND: { status: 404, message: 'No such template: see /list/templates' },
  ASSET_NOT_FOUND: { status: 404, message: 'No such banner, icon or font: see /list/banners, /list/icons and /list/fonts' },
  UNKNOWN_ASSET: { status: 400, message: 'Unknown banner or icon name: use a name from /list/banners or /list/icons, or an image URL' },
  UNKNOWN_FONT: { status: 400, message: 'Unknown font: use a name from /list/fonts' },
  UNKNOWN_LOCALE: { status: 400, message: 'Unknown locale: use one of Discord\'s locales (en-US, fr, ja, pt-BR, …) or ar; the message lists them' },
  INVALID_COLOR: { status: 400, message: 'Invalid colour: use a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"' },
  GEN_LIMIT_EXCEEDED: { status: 400, message: 'The image description exceeds a limit of /gen/custom' },
  GEN_BUDGET_EXCEEDED: { status: 413, message: 'The picture needs more than one request\'s budget of image pixels: use smaller images, or draw them smaller' },
  RENDER_BUSY: { status: 503, message: 'The server is busy drawing other images: try again in a moment' },
  // Image conversion (src/conversion/image/, docs/image-conversion.md).
  IMAGE_UNSUPPORTED_FORMAT: { status: 415, message: 'The body is not an image in a format this endpoint reads: send JPEG, PNG, WebP, GIF, AVIF or TIFF' },
  IMAGE_INVALID: { status: 400, message: 'The image could not be decoded: the file is truncated or corrupt' },
  IMAGE_TOO_MANY_PIXELS: { status: 400, message: 'The image declares more pixels than this server converts: send a smaller image' },
  IMAGE_TOO_MANY_FRAMES: { status: 400, message: 'The animation declares more frames than this server converts: send a shorter animation' },
  IMAGE_TIMEOUT: { status: 503, message: 'The conversion took too long and was stopped: send a smaller image, or try again later' },
  IMAGE_BODY_AND_URL: { status: 400, message: 'Send the image either as the request body or as the url query parameter, not both' },
  IMAGE_BUSY: { status: 503, message: 'Too many image conversions are running or waiting: retry after the number of seconds in Retry-After' },

  // Signed links (src/links/, docs/links.md): GET /l/... needs no header, so its answers say what is wrong with the link.
  LINK_MALFORMED: { status: 400, message: 'This is not a link of this server: a link reads /l/{linkId}/{expires}/{signature}{target}, as POST /links or the signer of docs/links.md makes it' },
  LINK_TOO_LONG: { status: 414, message: 'The link is longer than this server serves: mint it with POST /links, which stores long requests and answers a short link' },
  LINK_INVALID: { status: 403, message: 'The link\'s signature does not match: it was changed after it was signed, or signed with a secret that was rolled since' },
  LINK_EXPIRED: { status: 410, message: 'The link has expired: ask its owner for a new one' },
  LINK_KEY_REFUSED: { status: 403, message: 'The key that made this link is disabled, revoked or expired: ask the link\'s owner for a new link' },
  LINK_NOT_FOUND: { status: 404, message: 'This minted link is not stored here: mint it again with POST /links' },
  LINK_BODY_INVALID: { status: 400, message: 'The link\'s body parameter must be base64url (no padding) of a JSON text in UTF-8' },
  LINK_NOT_LINKABLE: { status: 400, message: 'This path cannot be linked: only the picture routes can (/gen/{template}, /gen/custom, and the image conversions with url=)' },
  LINKS_NOT_CONFIGURED: { status: 503, message: 'Signed links are off: with DATABASE_URL every instance must share LINK_SIGNING_KEYS; the operator sets it (docs/links.md)' },

  // The management API (/admin/v1/, src/admin/, docs/admin-api.md): operator tokens, never API keys.
  ADMIN_AUTH_MISSING: { status: 401, message: 'Missing operator token: send "Authorization: Bearer umo_..." (npm run cli -- admin tokens create makes one)' },
  ADMIN_AUTH_INVALID: { status: 401, message: 'Invalid operator token: the management API takes operator tokens (umo_...), never API keys; check the token, or make one with "npm run cli -- admin tokens create"' },
  ADMIN_SCOPE: { status: 403, message: 'This operator token lacks the scope this endpoint needs: make a token with it (admin tokens create --scope ...)' },
  ADMIN_AUTH_LIMITED: { status: 429, message: 'Too many failed attempts with operator tokens from this address: retry after the number of seconds in Retry-After' },
  ADMIN_KEY_NOT_FOUND: { status: 404, message: 'No key has this id: ids come from GET /admin/v1/keys' },
  ADMIN_KEY_INVALID: { status: 400, message: 'The key cannot be changed so: see the message for what to send' },
  ADMIN_KEY_CONFLICT: { status: 409, message: 'Another key has this name: choose another name' },
  ADMIN_REPORT_NOT_FOUND: { status: 404, message: 'No gif report has this id: ids come from GET /admin/v1/gifs/reports' },
  IDEMPOTENCY_MISMATCH: { status: 409, message: 'This Idempotency-Key was used with another body: use a new key for a new request, or send the same body again' },
  IDEMPOTENCY_IN_PROGRESS: { status: 409, message: 'A request with this Idempotency-Key is still being answered: retry in a moment' },

  // Routing.
  NOT_FOUND: { status: 404, message: 'Not found: no such endpoint. See /docs for the list of endpoints' },

  // Colours (/color/random, /color/info: src/colors/). Every 400 names the parameter and
  // shows an accepted example (details: parameter, example).
  COLOR_QUERY_MISSING: { status: 400, message: 'Send one of the query parameters name, hex or rgb, for example /color/info?hex=00ff00' },
  COLOR_QUERY_AMBIGUOUS: { status: 400, message: 'Send exactly one of the query parameters name, hex and rgb' },
  COLOR_HEX_EMPTY: { status: 400, message: 'Query parameter "hex" is empty. If you sent hex=#00ff00, the # started the URL fragment and never reached the server: drop the # (hex=00ff00) or percent-encode it (hex=%2300ff00)' },
  COLOR_HEX_INVALID: { status: 400, message: 'Query parameter "hex" must be 3, 4, 6 or 8 hex digits, for example hex=00ff00' },
  COLOR_RGB_INVALID: { status: 400, message: 'Query parameter "rgb" must be three numbers 0..255 separated by commas, for example rgb=0,255,0' },
  COLOR_NAME_INVALID: { status: 400, message: 'Query parameter "name" must be a colour name, for example name=darkslategray' },
  COLOR_NAME_NOT_FOUND: { status: 404, message: 'No colour has this name: see suggestions for close spellings, or look the colour up by hex or rgb' },
  COLOR_SEED_INVALID: { status: 400, message: 'Query parameter "seed" must be 1 to 100 printable characters, for example seed=my-palette-1' },

  // The specification's deliberate test error (GET /gen/html).
  TEST_ERROR: { status: 500, message: 'This is a test error: /gen/html always fails, so that client authors can exercise their error handling' },

  // Gifs (src/gifs/): GET /sfw/gif/{imageType} and the public gif files.
  GIF_UNKNOWN_TYPE: { status: 400, message: 'Unknown gif type: see validTypes for the types this endpoint answers' },
  GIF_CATEGORY_EMPTY: { status: 404, message: 'This gif category has no gifs yet: the operator can add some with "npm run cli -- gifs import <folder>"' },
  GIF_FILE_NOT_FOUND: { status: 404, message: 'No such gif file: gif URLs come from GET /sfw/gif/{imageType}' },
  GIF_ALL_EXCLUDED: { status: 404, message: 'Every gif of this category is in exclude: exclude fewer ids' },
  GIF_NOT_FOUND: { status: 404, message: 'No gif has this id: ids come from GET /sfw/gif/{imageType}' },
  RANGE_NOT_SATISFIABLE: { status: 416, message: 'The requested byte range lies outside the file: see Content-Range for its size' },
  // Text conversion (src/conversion/text/): /convert/html-markdown and /convert/markdown-html.
  TEXT_INPUT_MISSING: { status: 400, message: 'Nothing to convert: send the text as the raw body, as a JSON string, or as JSON {"html": "..."} / {"markdown": "..."} (or {"body": "..."})' },
  TEXT_INPUT_NOT_STRING: { status: 400, message: 'The text to convert must be a JSON string' },
  TEXT_OUTPUT_TOO_LARGE: { status: 413, message: 'The converted text would be larger than this server answers for the input: send less text or less nesting' },
  TEXT_BUDGET_EXCEEDED: { status: 413, message: 'The text is longer than one request converts: split it into several requests' },

  // Server side.
  TIMEOUT: { status: 503, message: 'The request took too long and was stopped: try again, or send a smaller request' },
  WORK_BUSY: { status: 503, message: 'Too many heavy requests are running or waiting: retry after the number of seconds in Retry-After' },
  WORK_TOO_LARGE: { status: 413, message: 'The request needed more memory than one job may use and was stopped: send a smaller request' },
  // Not ready (/readyz), or a dependency a request needs does not answer: the rate-limit
  // counters with RATE_LIMIT_ON_STORE_ERROR=closed (sent with Retry-After).
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given' },
  // The store (PostgreSQL in scale-out mode) did not answer in time or cannot be reached
  // (src/store/postgres/guard.ts); sent with Retry-After. Never the client's fault.
  STORE_UNAVAILABLE: { status: 503, message: 'The service\'s database does not answer right now: retry after the number of seconds in Retry-After' },
  PLAYGROUND_NOT_BUILT: { status: 503, message: 'The playground page is not built: run "npm run build" (or "npm start", which builds) and restart the server' },
  CONSOLE_NOT_BUILT: { status: 503, message: 'The operator console page is not built: run "npm run build" (or "npm start", which builds) and restart the server' },
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
