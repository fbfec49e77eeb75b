// POST /color/image (the picture's bytes as the body) and GET /color/image?url=… (fetched
// by the SSRF-safe image fetcher): the colours of a picture (picture-colors.ts). The story
// of a request, top to bottom: its upload bytes held in IMAGE_UPLOAD_MEMORY, the picture
// fetched or taken from the body, the source-image gate, one shrunk decode on a libvips
// lane with its memory, the colours worked out, named from the catalogue.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'
import { ok } from '../http/envelope.js'
import type { ImageFetcher } from '../remote-fetch/image-fetcher.js'
import type { ByteBudget, ByteHold } from '../work/byte-budget.js'
import type { CostPrior, Work } from '../work/work.js'
import type { ColorCatalog } from './catalog.js'
import { pictureColors } from './picture-colors.js'
import { checkPicture, decodeBytes, decodePicture, PICTURE_FORMATS, type PictureHeader } from './picture-pixels.js'
import { ColorImageAnswerSchema, ColorImageQuerySchema } from './schemas.js'

/** The largest body: far above an avatar or a chat attachment's picture, below an image conversion's 15 MB (a picture's colours need no more). */
export const COLOR_IMAGE_MAX_BYTES = 8 * 1024 * 1024
/**
 * Units of a key's rate limit one answer costs: a light image route. A shrunk decode of
 * one frame is a fraction of a conversion (IMAGE_CONVERSION_COST, 5), but more than a
 * colour looked up (1): the fetch, the gate and libvips' decode of up to 25 MP.
 */
export const COLOR_IMAGE_COST = 2
/** The kind of its libvips jobs, for the engine's estimates. */
export const COLOR_IMAGE_KIND = 'color-image'
/**
 * A job's time on one lane: the shrunk decode by source pixel, and the colour maths on
 * the 100×100 (palette, ThumbHash, names: about 5 ms, run in the job so that the engine
 * counts it). bench/color-image.bench.ts on the 2-core machine: a 1000×1000 PNG decodes
 * in about 7 ms, a 4000×3000 JPEG 19 ms (it shrinks while it loads), the same as PNG 38 ms.
 */
export const COLOR_IMAGE_PRIORS: Record<typeof COLOR_IMAGE_KIND, CostPrior> = {
  [COLOR_IMAGE_KIND]: { baseMs: 8, msPerUnit: 0.000004 }
}

export interface PictureColorOptions {
  catalog: ColorCatalog
  /** The heavy work's engine: the decode takes a libvips lane and its memory (IMAGE_MEMORY). */
  work: Pick<Work, 'run'>
  /** The app's image fetcher (src/app.ts): REMOTE_FETCH_ALLOW, its limits and its cache. */
  images: ImageFetcher
  /** IMAGE_UPLOAD_MEMORY, shared with the image conversions' uploads and downloads. */
  uploads: ByteBudget
}

/** The request's upload (or download) bytes, held until it has been answered. */
const holds = new WeakMap<FastifyRequest, ByteHold>()

function hasBody (request: FastifyRequest): boolean {
  const length = request.headers['content-length']
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length.trim() !== '0')
}

export const pictureColorRoutes: FastifyPluginAsyncTypebox<PictureColorOptions> = async (app, { catalog, work, images, uploads }) => {
  const nameOf = (color: { r: number, g: number, b: number }): string => catalog.nearest(color).color.name

  // Reserved before the body is read, pinned at once (never shed: nothing here stops a
  // body half read), given back with the answer. A busy budget answers 503 IMAGE_BUSY.
  app.addHook('preParsing', function hold (request, _reply, payload, done) {
    let bytes = 0
    if (hasBody(request)) {
      const declared = Number(request.headers['content-length'])
      bytes = Number.isInteger(declared) && declared >= 0 ? Math.min(declared, COLOR_IMAGE_MAX_BYTES) : COLOR_IMAGE_MAX_BYTES
    }
    try {
      const held = uploads.reserve(request.apiKey?.id, bytes, () => {})
      held.pin()
      holds.set(request, held)
    } catch (err) {
      done(err as Error)
      return
    }
    done(null, payload)
  })
  const release = (request: FastifyRequest): void => holds.get(request)?.release()
  app.addHook('onResponse', function released (request, _reply, done) { release(request); done() })
  app.addHook('onRequestAbort', function aborted (request, done) { release(request); done() })

  app.route({
    method: ['GET', 'POST'],
    url: '/color/image',
    bodyLimit: COLOR_IMAGE_MAX_BYTES,
    config: {
      body: 'raw',
      multipart: false,
      cost: COLOR_IMAGE_COST,
      bodyTooLarge: 'send a smaller picture (at most 8 MB), or its address as the url query parameter',
      errors: ['EMPTY_BODY', 'IMAGE_BODY_AND_URL', 'IMAGE_UNSUPPORTED_FORMAT', 'IMAGE_INVALID', 'IMAGE_TOO_MANY_PIXELS', 'IMAGE_TIMEOUT', 'IMAGE_BUSY',
        'REMOTE_FETCH_REFUSED', 'REMOTE_FETCH_FAILED', 'REMOTE_FETCH_TOO_LARGE', 'REMOTE_FETCH_TIMEOUT', 'REMOTE_IMAGE_INVALID']
    },
    schema: {
      tags: ['colors'],
      summary: 'The colours of a picture: dominant, a palette of up to 8 with their shares, the average, a ThumbHash placeholder, a readable text colour',
      description: `Send the picture (${PICTURE_FORMATS}; at most 8 MB and 25 megapixels; an animation's first frame) as the raw request body with any content type, ` +
        'or give its address in `url` and no body (GET /color/image?url=…, an avatar URL): the server fetches it from a public host. ' +
        'The picture is decoded shrunk to fit 100×100; pixels less than half opaque are not counted. ' +
        'Each colour carries `int`, the number a Discord embed\'s `color` field takes, and its nearest name. Errors are the JSON envelope.',
      querystring: ColorImageQuerySchema,
      response: { 200: ColorImageAnswerSchema }
    },
    handler: async function colorsOfPicture (request, reply) {
      const body = request.body as Buffer | undefined
      const url = request.query.url
      const sent = body !== undefined && body.length > 0
      if (url !== undefined && sent) {
        throw new AppError('IMAGE_BODY_AND_URL', 'Send the picture either as the request body or as the url query parameter, not both: drop the body to read the picture at the URL, or drop url to read the body')
      }
      if (url === undefined && !sent) {
        throw new AppError('EMPTY_BODY', 'The request body is empty: send the picture\'s bytes as the body (POST /color/image), or give its address as the url query parameter (GET /color/image?url=…)')
      }
      // Fires when the request is answered or its client has gone: the download and the wait for a lane stop.
      const answered = new AbortController()
      reply.raw.once('close', () => answered.abort(new AppError('TIMEOUT')))
      const signal = answered.signal
      const held = holds.get(request)!
      let bytes: Buffer
      let header: PictureHeader
      if (url !== undefined) {
        // The fetcher's gate (image-fetcher.ts) is the same sniff, header and 25 MP check.
        const image = await images.fetchImage(url, 'url', { bytes: { reserve: (n) => held.grow(n), giveBack: (n) => held.shrink(n) }, signal })
        bytes = image.bytes
        header = { width: image.width, height: image.height }
      } else {
        bytes = body!
        header = await checkPicture(bytes)
      }
      const colors = await work.run('libvips', { kind: COLOR_IMAGE_KIND, units: header.width * header.height }, { signal, busy: 'IMAGE_BUSY', owner: request.apiKey?.id, elapsedMs: reply.elapsedTime }, async (lane) => {
        await lane.reserve(decodeBytes(header), signal)
        return pictureColors(await decodePicture(bytes, header), nameOf)
      })
      return ok(colors)
    }
  })
}
