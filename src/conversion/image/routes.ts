// POST (and GET, for clients that send GET with a body) /convert/image-png,
// /convert/image-jpg (also as /convert/image-jpeg) and /convert/image-webp: the image as
// the raw body or as a multipart form, the converted bytes back. Errors are the JSON envelope.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { ImageConfig } from '../../config.js'
import { AppError } from '../../errors.js'
import { parseBackground, WHITE } from './background.js'
import { type ConversionWork, createImageConverter } from './convert.js'
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

const QuerySchema = Type.Object({
  quality: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, examples: [90], description: 'Output quality, 1 to 100 (default: JPEG and WebP 80; PNG lossless, below 100 quantises to a palette)' })),
  background: Type.Optional(Type.String({ maxLength: 64, examples: ['white'], description: 'JPEG only: the colour transparency is flattened onto, as a CSS name, rrggbb (with or without #) or r,g,b. Default white' }))
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

export const imageConversionRoutes: FastifyPluginAsyncTypebox<ImageConversionOptions> = async (app, { image, work, uploads, requestTimeoutMs = 0 }) => {
  const converter = createImageConverter(image)
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
  // reserve nothing.
  app.addHook('preParsing', function admit (request, _reply, payload, done) {
    const answer = new AbortController()
    let hold: ByteHold
    try {
      hold = uploads.reserve(request.apiKey?.id, uploadBytes(request, bodies), (err) => answer.abort(err))
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
        errors: ['EMPTY_BODY', 'BAD_CONTENT_LENGTH', 'BAD_REQUEST', 'IMAGE_UNSUPPORTED_FORMAT', 'IMAGE_INVALID',
          'IMAGE_TOO_MANY_PIXELS', 'IMAGE_TOO_MANY_FRAMES', 'IMAGE_TIMEOUT', 'IMAGE_BUSY', 'UPLOAD_TOO_SLOW']
      },
      schema: {
        tags: ['conversion'],
        summary: `Convert an image to ${endpoint.name}`,
        description: `Send the image (${ACCEPTED_INPUTS.join(', ')}; at most 15 MB) as the raw request body with any content type, ` +
          'or as multipart/form-data in a part named "file" (or the only file part; the form may also carry "quality" and "background"). ' +
          `Answers the ${endpoint.name} bytes (Content-Type ${OUTPUT_MIME[endpoint.format]}) with X-Image-Width, X-Image-Height and X-Image-Frames headers; ` +
          (endpoint.format === 'webp' ? 'an animated GIF or WebP stays animated. ' : 'an animation is answered with its first frame. ') +
          'EXIF orientation is applied, metadata removed, colours converted to sRGB. Errors are the JSON envelope.',
        querystring: QuerySchema,
        ...(endpoint.aliasOf === undefined ? {} : { hide: true })
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
            // Inspect: the format and the header, checked before any decoding.
            const source = await converter.inspect(upload.bytes)
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
              return await converter.encode(upload.bytes, source, { ...asked, timeoutMs: timeoutMs === undefined ? undefined : Math.max(1, timeoutMs - (performance.now() - from)) })
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
