// POST (and GET, for clients that send GET with a body) /convert/image-png,
// /convert/image-jpg (also as /convert/image-jpeg) and /convert/image-webp: the image as
// the raw body or as a multipart form, or fetched from `url=` (a bot converts a chat
// attachment without downloading it first), the converted bytes back. Errors are the JSON
// envelope. A fetched image is held to what an upload is: its bytes counted in the same
// budget (IMAGE_UPLOAD_MEMORY) before they are read, at most MAX_IMAGE_BYTES, then the
// same gate, lanes and memory.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { ImageConfig } from '../../config.js'
import { AppError, isAppError } from '../../errors.js'
import type { AllowList } from '../../remote-fetch/address.js'
import { createRemoteFetcher, type Resolver } from '../../remote-fetch/fetcher.js'
import { parseBackground, WHITE } from './background.js'
import { type ConversionWork, createImageConverter, type InspectedImage } from './convert.js'
import { ACCEPTED_INPUTS, DEFAULT_QUALITY, OUTPUT_MIME, type OutputFormat } from './formats.js'
import { type ByteBudget, type ByteHold, createByteBudget } from '../../work/byte-budget.js'
import type { CostPrior, Work } from '../../work/work.js'
import { MAX_IMAGE_BYTES, MULTIPART_OVERHEAD_BYTES, readUpload, type Upload, type UploadPace } from './upload.js'
import { type BodyBuffers, createBodyBuffers } from './body-buffers.js'

export interface ImageConversionOptions {
  image: ImageConfig
  /**
   * The heavy work's engine (src/work/work.ts): conversions take its libvips lanes
   * (IMAGE_CONCURRENCY) and their memory from IMAGE_MEMORY, beside the gifs' WebP
   * conversions and the pictures' decoding.
   */
  work: Pick<Work, 'run'>
  /**
   * IMAGE_UPLOAD_MEMORY (src/app.ts, createUploadBudget): the bytes uploads hold from their
   * headers until their conversion has stopped.
   */
  uploads: ByteBudget
  /** REQUEST_TIMEOUT_MS (0: none): a conversion never runs past its request's deadline. */
  requestTimeoutMs?: number
  /**
   * Fetching `url=` (src/remote-fetch/): REMOTE_FETCH_ALLOW and REMOTE_FETCH_TIMEOUT_MS, as
   * for the pictures' images; `resolve` points host names at loopback in tests.
   */
  remote?: { allow?: AllowList, timeoutMs?: number, resolve?: Resolver }
}

const ENDPOINTS: Array<{ url: string, format: OutputFormat, name: string, aliasOf?: string }> = [
  { url: '/convert/image-png', format: 'png', name: 'PNG' },
  { url: '/convert/image-jpg', format: 'jpeg', name: 'JPEG' },
  // The spelling people guess from the media type (image/jpeg), which answered 404. The
  // same route under a second path, left out of the OpenAPI document so that clients
  // generated from it get one method for JPEG (docs/image-conversion.md).
  { url: '/convert/image-jpeg', format: 'jpeg', name: 'JPEG', aliasOf: '/convert/image-jpg' },
  { url: '/convert/image-webp', format: 'webp', name: 'WebP' }
]

/** The longest `url=` taken: a Discord attachment URL with its signed query is about 250 characters. */
const MAX_URL_LENGTH = 2048

const QuerySchema = Type.Object({
  quality: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, examples: [90], description: 'Output quality, 1 to 100 (default: JPEG and WebP 80; PNG lossless, below 100 quantises to a palette)' })),
  background: Type.Optional(Type.String({ maxLength: 64, examples: ['white'], description: 'JPEG only: the colour transparency is flattened onto, as a CSS name, rrggbb (with or without #) or r,g,b. Default white' })),
  // No example: the docs page's "Try it out" fills examples in, and a url beside the chosen
  // file is refused (IMAGE_BODY_AND_URL).
  url: Type.Optional(Type.String({
    minLength: 1,
    maxLength: MAX_URL_LENGTH,
    description: 'Instead of a body: an http(s) URL the server fetches the image from (a public host, at most 15 MB, within REMOTE_FETCH_TIMEOUT_MS); a request with both a body and url is refused'
  }))
})

/** Units of a key's rate limit and quota one conversion costs. */
export const IMAGE_CONVERSION_COST = 5
/** Retry-After of an upload refused for lack of upload memory: about what the largest upload takes to arrive and convert. */
export const BUSY_RETRY_AFTER_SECONDS = 2

/**
 * Running time of one conversion on one lane, by encoder, per pixel processed (2-core
 * machine, photographic noise, the worst case: bench/bursts.bench.ts prints the figures
 * observed). An 800×600 photo to WebP about 130 ms, to JPEG 17 ms.
 */
export const IMAGE_PRIORS: Record<ConversionWork['encoder'], CostPrior> = {
  webp: { baseMs: 2, msPerUnit: 0.00023 },
  jpeg: { baseMs: 2, msPerUnit: 0.000035 },
  png: { baseMs: 2, msPerUnit: 0.0001 },
  'png-palette': { baseMs: 2, msPerUnit: 0.00016 }
}

/**
 * A request's upload bytes and its work. They are given back when the answer has gone
 * AND the work for it (reading the upload, the libvips pipeline) has stopped, whichever
 * comes later: a 503 sent at the request's deadline does not free the lane while libvips
 * still converts, so IMAGE_CONCURRENCY bounds the work actually running.
 */
interface Admission {
  hold: ByteHold
  answered: boolean
  /** Work in progress for the request (the upload being read, the conversion). */
  busy: number
  released: boolean
  /** Aborted with the answer, or to shed the upload: an upload still arriving is no longer read (Node drops the rest). */
  answer: AbortController
  /** Gives the upload's buffer back for reuse, with the rest (body-buffers.ts). */
  recycle?: () => void
}

/** Why an admission's signal fires when its request has been answered: an upload still arriving then fails with CLIENT_CLOSED (upload.ts). */
const ANSWERED = Object.freeze({ answered: true })

const admissions = new WeakMap<FastifyRequest, Admission>()

/** The request asks for its image from `url=` (read before validation: the raw query). */
function wantsUrl (request: FastifyRequest): boolean {
  return (request.query as Record<string, unknown> | undefined)?.url !== undefined
}

/** The request carries a body (a length above zero, or a chunked one). */
function hasBody (request: FastifyRequest): boolean {
  const length = request.headers['content-length']
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length.trim() !== '0')
}

function bodyAndUrl (): AppError {
  return new AppError('IMAGE_BODY_AND_URL', 'Send the image either as the request body or as the url query parameter, not both: drop the body to convert the image at the URL, or drop url to convert the body')
}

/** The quality form field of a multipart upload, checked like the query parameter. */
function formQuality (raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined
  const value = raw.trim()
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 100) {
    throw new AppError('VALIDATION', `Invalid form field "quality": it must be an integer from 1 to 100, got "${raw.slice(0, 20)}"`)
  }
  return Number(value)
}

/** The bytes an upload is held to: its declared length, or the largest a body may be. */
function uploadBytes (request: FastifyRequest, buffers: BodyBuffers): number {
  const declared = Number(request.headers['content-length'])
  const largest = MAX_IMAGE_BYTES + MULTIPART_OVERHEAD_BYTES
  return request.headers['content-length'] !== undefined && Number.isInteger(declared) && declared >= 0 ? Math.min(buffers.capacityFor(declared), largest) : largest
}

/** The budget of upload bytes (IMAGE_UPLOAD_MEMORY), made once by the composition root (src/app.ts). */
export function createUploadBudget (image: Pick<ImageConfig, 'uploadMemoryBytes'>): ByteBudget {
  return createByteBudget({ limitBytes: image.uploadMemoryBytes, busyCode: 'IMAGE_BUSY', retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS, setting: 'IMAGE_UPLOAD_MEMORY', what: 'uploads', detail: 'uploadMemoryBytes' })
}

export const imageConversionRoutes: FastifyPluginAsyncTypebox<ImageConversionOptions> = async (app, { image, work, uploads, requestTimeoutMs = 0, remote = {} }) => {
  const converter = createImageConverter(image)
  // The same bound as an upload's body: a URL answering more is stopped at that byte.
  const fetcher = createRemoteFetcher({ allow: remote.allow, timeoutMs: remote.timeoutMs, resolve: remote.resolve, maxBytes: MAX_IMAGE_BYTES })
  const pace: UploadPace = { timeoutMs: image.uploadTimeoutMs, minBytesPerSecond: image.uploadMinBytesPerSecond, graceMs: image.uploadGraceMs }
  // Upload bodies reuse their buffers (body-buffers.ts): given back with the admission.
  const bodies = createBodyBuffers()
  const releaseIfDone = (admission: Admission): void => {
    if (admission.released || !admission.answered || admission.busy > 0) return
    admission.released = true
    admission.hold.release()
    admission.recycle?.()
  }
  const answered = (request: FastifyRequest): void => {
    const admission = admissions.get(request)
    if (admission === undefined) return
    admission.answered = true
    // A reason made once: abort() with none builds a DOMException and its stack for each request.
    admission.answer.abort(ANSWERED)
    releaseIfDone(admission)
  }
  /** Runs `work` as part of the request's admission: its bytes are held until the work settles. */
  const holding = async <T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> => {
    const admission = admissions.get(request)!
    admission.busy++
    try {
      return await work()
    } finally {
      admission.busy--
      releaseIfDone(admission)
    }
  }

  // The upload's bytes are reserved before the body is read: a refused upload costs no
  // memory. Runs after authentication (an onRequest hook), so requests without a key
  // reserve nothing. A request for a URL reserves nothing yet: its download's bytes are
  // reserved from the same budget once the answer's headers have come, before its body is
  // read (download, below).
  app.addHook('preParsing', function admit (request, _reply, payload, done) {
    const answer = new AbortController()
    const fromUrl = wantsUrl(request)
    // Refused before the body is read.
    if (fromUrl && hasBody(request)) {
      done(bodyAndUrl())
      return
    }
    let hold: ByteHold
    try {
      hold = uploads.reserve(request.apiKey?.id, fromUrl ? 0 : uploadBytes(request, bodies), (err) => answer.abort(err))
    } catch (err) {
      done(err as Error)
      return
    }
    admissions.set(request, { hold, answered: false, busy: 0, released: false, answer })
    done(null, payload)
  })
  app.addHook('onResponse', function released (request, _reply, done) { answered(request); done() })
  app.addHook('onRequestAbort', function aborted (request, done) { answered(request); done() })

  // Any content type: the bytes are recognised by their content, not their label.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', function parseUpload (request, payload, done) {
    const admission = admissions.get(request)!
    holding(request, () => readUpload(request.headers, payload, pace, admission.answer.signal, bodies).then((upload) => {
      admission.recycle = upload.recycle
      return upload
    })).then((upload) => done(null, upload), (err: Error) => done(err))
  })

  /** The image at `url`, its bytes held by the request's admission (what an upload's would be). */
  async function download (url: string, admission: Admission): Promise<Buffer> {
    const { bytes } = await fetcher.fetch(url, 'url', {
      bytes: { reserve: (n) => admission.hold.grow(n), giveBack: (n) => admission.hold.shrink(n) },
      signal: admission.answer.signal
    })
    return bytes
  }

  /** converter.inspect, with what a URL answered told as the URL's failure rather than the body's. */
  async function inspect (input: Buffer, url: string | undefined): Promise<InspectedImage> {
    try {
      return await converter.inspect(input)
    } catch (err) {
      if (url === undefined || !isAppError(err) || err.code !== 'IMAGE_UNSUPPORTED_FORMAT') throw err
      const shown = url.length > 200 ? `${url.slice(0, 197)}...` : url
      throw new AppError('REMOTE_IMAGE_INVALID', `url: the URL ${shown} did not answer with an image this endpoint reads: it must answer ${ACCEPTED_INPUTS.join(', ')}`, {
        details: { ...err.details, url },
        cause: err
      })
    }
  }

  for (const endpoint of ENDPOINTS) {
    app.route({
      method: ['GET', 'POST'],
      url: endpoint.url,
      bodyLimit: MAX_IMAGE_BYTES,
      config: {
        body: 'raw',
        images: [OUTPUT_MIME[endpoint.format]],
        // Conversion is CPU work: it costs more of a key's rate limit (docs/keys.md, "Rate limits, quotas and costs").
        cost: IMAGE_CONVERSION_COST,
        // A signed link names a GET with `url=` (docs/links.md): an attachment converted for an embed.
        linkable: true,
        errors: ['EMPTY_BODY', 'BAD_CONTENT_LENGTH', 'BAD_REQUEST', 'IMAGE_UNSUPPORTED_FORMAT', 'IMAGE_INVALID',
          'IMAGE_TOO_MANY_PIXELS', 'IMAGE_TOO_MANY_FRAMES', 'IMAGE_TIMEOUT', 'IMAGE_BUSY', 'UPLOAD_TOO_SLOW', 'IMAGE_BODY_AND_URL',
          'REMOTE_FETCH_REFUSED', 'REMOTE_FETCH_FAILED', 'REMOTE_FETCH_TOO_LARGE', 'REMOTE_FETCH_TIMEOUT', 'REMOTE_IMAGE_INVALID']
      },
      schema: {
        tags: ['conversion'],
        summary: `Convert an image to ${endpoint.name}`,
        description: `Send the image (${ACCEPTED_INPUTS.join(', ')}; at most 15 MB) as the raw request body with any content type, ` +
          'or as multipart/form-data in a part named "file" (or the only file part; the form may also carry "quality" and "background"), ' +
          'or give its address in `url` and no body (GET /convert/image-…?url=…): the server fetches it from a public host, at most 15 MB. ' +
          `Answers the ${endpoint.name} bytes (Content-Type ${OUTPUT_MIME[endpoint.format]}) with X-Image-Width, X-Image-Height and X-Image-Frames headers; ` +
          (endpoint.format === 'webp' ? 'an animated GIF or WebP stays animated. ' : 'an animation is answered with its first frame. ') +
          'EXIF orientation is applied, metadata removed, colours converted to sRGB. Errors are the JSON envelope.',
        querystring: QuerySchema,
        ...(endpoint.aliasOf === undefined ? {} : { hide: true })
      },
      handler: async function convertImage (request, reply) {
        const upload = request.body as Upload | undefined
        const url = request.query.url
        const sent = upload !== undefined && upload.bytes.length > 0
        if (url !== undefined && sent) throw bodyAndUrl()
        if (url === undefined && !sent) {
          throw new AppError('EMPTY_BODY', 'The request body is empty: send the image as the body, or as the "file" part of a multipart form, or give its address as the url query parameter')
        }
        const quality = request.query.quality ?? formQuality(upload?.fields.quality)
        const backgroundRaw = request.query.background ?? upload?.fields.background
        const background = backgroundRaw === undefined ? WHITE : parseBackground(backgroundRaw)
        const admission = admissions.get(request)!
        // Answered while the upload arrived (its deadline, the client gone): its buffer may
        // already serve another upload, so it is not read again.
        if (admission.answered) return reply
        const signal = admission.answer.signal
        const from = performance.now()
        const elapsedMs = reply.elapsedTime
        const timeoutMs = requestTimeoutMs > 0 ? requestTimeoutMs - elapsedMs : undefined
        const asked = { format: endpoint.format, quality, background }
        let result
        try {
          result = await holding(request, async () => {
            if (timeoutMs !== undefined && timeoutMs <= 0) throw new AppError('TIMEOUT')
            // Fetch (url=): through the SSRF-safe fetcher, its bytes counted in the request's hold before they are read.
            const input = url === undefined ? upload!.bytes : await download(url, admission)
            // Inspect: the format and the header, checked before any decoding.
            const source = await inspect(input, url)
            const planned = converter.plan(source, asked)
            // Admit: by its estimated time against what is left of the deadline, then
            // served in fair order between keys on a libvips lane (src/work/scheduler.ts).
            return await work.run('libvips', { kind: planned.encoder, units: planned.pixels }, { signal, busy: 'IMAGE_BUSY', owner: request.apiKey?.id, elapsedMs }, async (lane) => {
              // Answered meanwhile (the request's deadline passed while it waited): no work for nobody.
              if (admission.answered || reply.raw.destroyed) throw new AppError('TIMEOUT')
              admission.hold.pin()
              // Reserve: its memory from IMAGE_MEMORY, waited for until the request is answered.
              try {
                await lane.reserve(planned.bytes, signal)
              } catch (err) {
                throw new AppError('TIMEOUT', 'The conversion waited for memory until the request was answered', { cause: err })
              }
              // Encode, within what is left of the deadline: time spent waiting for a lane and for memory is gone from it.
              return await converter.encode(input, source, { ...asked, timeoutMs: timeoutMs === undefined ? undefined : Math.max(1, timeoutMs - (performance.now() - from)) })
            })
          })
        } catch (err) {
          if (reply.sent) return reply
          throw err
        }
        // The deadline answered 503 while libvips worked: that answer stands.
        if (reply.sent) return reply
        return reply
          .header('content-type', OUTPUT_MIME[endpoint.format])
          .header('content-length', result.data.length)
          .header('x-image-width', result.width)
          .header('x-image-height', result.height)
          .header('x-image-frames', result.frames)
          .header('x-image-quality', quality ?? DEFAULT_QUALITY[endpoint.format] ?? 100)
          .send(result.data)
      }
    })
  }
}
