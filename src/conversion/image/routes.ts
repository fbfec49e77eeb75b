// POST (and GET, for clients that send GET with a body) /convert/image-png,
// /convert/image-jpg and /convert/image-webp: the image as the raw body or as a
// multipart form, the converted bytes back. Errors are the JSON envelope.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { ImageConfig } from '../../config.js'
import { AppError } from '../../errors.js'
import { parseBackground, WHITE } from './background.js'
import { type ConvertResult, createImageConverter } from './convert.js'
import { ACCEPTED_INPUTS, DEFAULT_QUALITY, OUTPUT_MIME, type OutputFormat } from './formats.js'
import type { Metrics } from '../../metrics/metrics.js'
import { createLimiter, type Ticket } from '../../work/limiter.js'
import { createMemoryBudget } from '../../work/memory-budget.js'
import { MAX_IMAGE_BYTES, readUpload, type Upload, type UploadPace } from './upload.js'

export interface ImageConversionOptions {
  image: ImageConfig
  /** Queue lengths and refusals, for Prometheus. */
  metrics: Metrics
  /** REQUEST_TIMEOUT_MS (0: none): a conversion never runs past its request's deadline. */
  requestTimeoutMs?: number
}

const ENDPOINTS: Array<{ url: string, format: OutputFormat, name: string }> = [
  { url: '/convert/image-png', format: 'png', name: 'PNG' },
  { url: '/convert/image-jpg', format: 'jpeg', name: 'JPEG' },
  { url: '/convert/image-webp', format: 'webp', name: 'WebP' }
]

const QuerySchema = Type.Object({
  quality: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, examples: [90], description: 'Output quality, 1 to 100 (default: JPEG and WebP 80; PNG lossless, below 100 quantises to a palette)' })),
  background: Type.Optional(Type.String({ maxLength: 64, examples: ['white'], description: 'JPEG only: the colour transparency is flattened onto, as a CSS name, rrggbb (with or without #) or r,g,b. Default white' }))
})

/** Units of a key's rate limit and quota one conversion costs. */
export const IMAGE_CONVERSION_COST = 5
/** Retry-After for a full queue: conversions of typical photos finish well within it. */
export const BUSY_RETRY_AFTER_SECONDS = 2

/**
 * A request's place in the limiter. It is given back when the answer has gone AND the
 * work for it (reading the upload, the libvips pipeline) has stopped, whichever comes
 * later: a 503 sent at the request's deadline does not free the place while libvips
 * still converts, so IMAGE_CONCURRENCY + IMAGE_QUEUE bounds the work actually running.
 */
interface Admission {
  ticket: Ticket
  key: number | undefined
  answered: boolean
  /** Work in progress for the request (the upload being read, the conversion). */
  busy: number
  released: boolean
  /** Aborted with the answer: an upload still arriving is no longer read (Node drops the rest). */
  answer: AbortController
}

const admissions = new WeakMap<FastifyRequest, Admission>()

/** The quality form field of a multipart upload, checked like the query parameter. */
function formQuality (raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined
  const value = raw.trim()
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 100) {
    throw new AppError('VALIDATION', `Invalid form field "quality": it must be an integer from 1 to 100, got "${raw.slice(0, 20)}"`)
  }
  return Number(value)
}

export const imageConversionRoutes: FastifyPluginAsyncTypebox<ImageConversionOptions> = async (app, { image, metrics, requestTimeoutMs = 0 }) => {
  const converter = createImageConverter({ ...image, memory: createMemoryBudget(image.memoryBytes) })
  const pace: UploadPace = { timeoutMs: image.uploadTimeoutMs, minBytesPerSecond: image.uploadMinBytesPerSecond, graceMs: image.uploadGraceMs }
  // Places held per key: one key never takes more than IMAGE_MAX_PER_KEY of them.
  const perKey = new Map<number, number>()
  const releaseIfDone = (admission: Admission): void => {
    if (admission.released || !admission.answered || admission.busy > 0) return
    admission.released = true
    admission.ticket.release()
    if (admission.key !== undefined) {
      const held = (perKey.get(admission.key) ?? 1) - 1
      if (held <= 0) perKey.delete(admission.key)
      else perKey.set(admission.key, held)
    }
  }
  const answered = (request: FastifyRequest): void => {
    const admission = admissions.get(request)
    if (admission === undefined) return
    admission.answered = true
    admission.answer.abort()
    releaseIfDone(admission)
  }
  /** Runs `work` as part of the request's admission: its place is held until the work settles. */
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
  const limiter = createLimiter({
    concurrency: image.concurrency,
    queue: image.queue,
    busyCode: 'IMAGE_BUSY',
    retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS,
    observer: metrics.queue('image-conversion')
  })

  // Admission before the body is read: a refused upload costs no memory. Runs after
  // authentication (an onRequest hook), so requests without a key take no place.
  app.addHook('preParsing', function admit (request, _reply, payload, done) {
    const key = request.apiKey?.id
    const held = key === undefined ? 0 : perKey.get(key) ?? 0
    if (held >= image.maxPerKey) {
      done(new AppError('IMAGE_KEY_BUSY', `This key already has ${held} image conversions uploading, waiting or running, its most at once (of ${image.concurrency + image.queue} places in all): wait for one to finish, then retry`, {
        headers: { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
        details: { retryAfter: BUSY_RETRY_AFTER_SECONDS, maxPerKey: image.maxPerKey }
      }))
      return
    }
    let ticket: Ticket
    try {
      ticket = limiter.admit(undefined, key)
    } catch (err) {
      done(err as Error)
      return
    }
    if (key !== undefined) perKey.set(key, held + 1)
    admissions.set(request, { ticket, key, answered: false, busy: 0, released: false, answer: new AbortController() })
    done(null, payload)
  })
  app.addHook('onResponse', function released (request, _reply, done) { answered(request); done() })
  app.addHook('onRequestAbort', function aborted (request, done) { answered(request); done() })

  // Any content type: the bytes are recognised by their content, not their label.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', function parseUpload (request, payload, done) {
    holding(request, () => readUpload(request.headers, payload, pace, admissions.get(request)!.answer.signal)).then((upload) => done(null, upload), (err: Error) => done(err))
  })

  for (const endpoint of ENDPOINTS) {
    app.route({
      method: ['GET', 'POST'],
      url: endpoint.url,
      bodyLimit: MAX_IMAGE_BYTES,
      config: {
        body: 'raw',
        images: [OUTPUT_MIME[endpoint.format]],
        // Conversion is CPU work: it costs more of a key's rate limit (README, "costs").
        cost: IMAGE_CONVERSION_COST,
        errors: ['EMPTY_BODY', 'BAD_CONTENT_LENGTH', 'BAD_REQUEST', 'IMAGE_UNSUPPORTED_FORMAT', 'IMAGE_INVALID',
          'IMAGE_TOO_MANY_PIXELS', 'IMAGE_TOO_MANY_FRAMES', 'IMAGE_TIMEOUT', 'IMAGE_BUSY', 'IMAGE_KEY_BUSY', 'UPLOAD_TOO_SLOW']
      },
      schema: {
        tags: ['conversion'],
        summary: `Convert an image to ${endpoint.name}`,
        description: `Send the image (${ACCEPTED_INPUTS.join(', ')}; at most 15 MB) as the raw request body with any content type, ` +
          'or as multipart/form-data in a part named "file" (or the only file part; the form may also carry "quality" and "background"). ' +
          `Answers the ${endpoint.name} bytes (Content-Type ${OUTPUT_MIME[endpoint.format]}) with X-Image-Width, X-Image-Height and X-Image-Frames headers; ` +
          (endpoint.format === 'webp' ? 'an animated GIF or WebP stays animated. ' : 'an animation is answered with its first frame. ') +
          'EXIF orientation is applied, metadata removed, colours converted to sRGB. Errors are the JSON envelope.',
        querystring: QuerySchema
      },
      handler: async function convertImage (request, reply) {
        const upload = request.body as Upload | undefined
        if (upload === undefined || upload.bytes.length === 0) {
          throw new AppError('EMPTY_BODY', 'The request body is empty: send the image as the body, or as the "file" part of a multipart form')
        }
        const quality = request.query.quality ?? formQuality(upload.fields.quality)
        const backgroundRaw = request.query.background ?? upload.fields.background
        const background = backgroundRaw === undefined ? WHITE : parseBackground(backgroundRaw)
        const admission = admissions.get(request)!
        let result: ConvertResult
        try {
          result = await holding(request, () => admission.ticket.run(async () => {
            // Answered meanwhile (the request's deadline passed while it waited): no work for nobody.
            if (admission.answered || reply.raw.destroyed) throw new AppError('TIMEOUT')
            const timeoutMs = requestTimeoutMs > 0 ? requestTimeoutMs - reply.elapsedTime : undefined
            if (timeoutMs !== undefined && timeoutMs <= 0) throw new AppError('TIMEOUT')
            return await converter.convert(upload.bytes, { format: endpoint.format, quality, background, timeoutMs, signal: admission.answer.signal })
          }))
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
