// POST (and GET, for clients that send GET with a body) /convert/image-png,
// /convert/image-jpg and /convert/image-webp: the image as the raw body or as a
// multipart form, the converted bytes back. Errors are the JSON envelope.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { ImageConfig } from '../../config.js'
import { AppError } from '../../errors.js'
import { parseBackground, WHITE } from './background.js'
import { createImageConverter } from './convert.js'
import { ACCEPTED_INPUTS, DEFAULT_QUALITY, OUTPUT_MIME, type OutputFormat } from './formats.js'
import type { Metrics } from '../../metrics/metrics.js'
import { createLimiter, observeWith, type Ticket } from '../../work/limiter.js'
import { MAX_IMAGE_BYTES, readUpload, type Upload } from './upload.js'

export interface ImageConversionOptions {
  image: ImageConfig
  /** Queue lengths and refusals, for Prometheus. */
  metrics?: Metrics
}

const ENDPOINTS: Array<{ url: string, format: OutputFormat, name: string }> = [
  { url: '/convert/image-png', format: 'png', name: 'PNG' },
  { url: '/convert/image-jpg', format: 'jpeg', name: 'JPEG' },
  { url: '/convert/image-webp', format: 'webp', name: 'WebP' }
]

const QuerySchema = Type.Object({
  quality: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Output quality, 1 to 100 (default: JPEG and WebP 80; PNG lossless, below 100 quantises to a palette)' })),
  background: Type.Optional(Type.String({ maxLength: 64, description: 'JPEG only: the colour transparency is flattened onto, as a CSS name, rrggbb (with or without #) or r,g,b. Default white' }))
})

/** Units of a key's rate limit and quota one conversion costs. */
export const IMAGE_CONVERSION_COST = 5
/** Retry-After for a full queue: conversions of typical photos finish well within it. */
export const BUSY_RETRY_AFTER_SECONDS = 2

const tickets = new WeakMap<FastifyRequest, Ticket>()

function releaseTicket (request: FastifyRequest): void {
  tickets.get(request)?.release()
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

export const imageConversionRoutes: FastifyPluginAsyncTypebox<ImageConversionOptions> = async (app, { image, metrics }) => {
  const converter = createImageConverter(image)
  const limiter = createLimiter({
    concurrency: image.concurrency,
    queue: image.queue,
    busyCode: 'IMAGE_BUSY',
    retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS,
    observer: metrics === undefined ? undefined : observeWith(metrics, 'image-conversion')
  })

  // Admission before the body is read: a refused upload costs no memory. Runs after
  // authentication (an onRequest hook), so requests without a key take no place.
  app.addHook('preParsing', function admit (request, _reply, payload, done) {
    try {
      tickets.set(request, limiter.admit())
    } catch (err) {
      done(err as Error)
      return
    }
    done(null, payload)
  })
  app.addHook('onResponse', function released (request, _reply, done) { releaseTicket(request); done() })
  app.addHook('onRequestAbort', function aborted (request, done) { releaseTicket(request); done() })

  // Any content type: the bytes are recognised by their content, not their label.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', function parseUpload (request, payload, done) {
    readUpload(request.headers, payload).then((upload) => done(null, upload), (err: Error) => done(err))
  })

  for (const endpoint of ENDPOINTS) {
    app.route({
      method: ['GET', 'POST'],
      url: endpoint.url,
      bodyLimit: MAX_IMAGE_BYTES,
      config: {
        body: 'raw',
        // Conversion is CPU work: it costs more of a key's rate limit (README, "costs").
        cost: IMAGE_CONVERSION_COST,
        errors: ['EMPTY_BODY', 'BAD_CONTENT_LENGTH', 'BAD_REQUEST', 'IMAGE_UNSUPPORTED_FORMAT', 'IMAGE_INVALID',
          'IMAGE_TOO_MANY_PIXELS', 'IMAGE_TOO_MANY_FRAMES', 'IMAGE_TIMEOUT', 'IMAGE_BUSY']
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
        const ticket = tickets.get(request)!
        const result = await ticket.run(() => converter.convert(upload.bytes, { format: endpoint.format, quality, background }))
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
