// HTTP for image generation: /gen/{template}, /gen/custom, the four /list endpoints and
// public previews of banners and icons. Fields come from the query string and from a
// JSON body (GET or POST, any content type: ../shared/compat/existing-clients.md);
// the body wins where both give a field, and keys are matched case-insensitively.
import path from 'node:path'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Config } from '../config.js'
import { AppError } from '../errors.js'
import { Envelope, ok } from '../http/envelope.js'
import { createRemoteFetcher, type Resolver } from '../remote-fetch/fetcher.js'
import { createImageFetcher } from '../remote-fetch/image-fetcher.js'
import { createAssetRegistry } from './assets.js'
import { CUSTOM_BODY_LIMIT, CustomBodySchema, prepareCustom } from './custom.js'
import { CONTENT_TYPES, encode, type OutputFormat, parseFormat } from './draw.js'
import { createFontRegistry } from './fonts.js'
import { createImageSource } from './image-source.js'
import type { Metrics } from '../metrics/metrics.js'
import { createLimiter, observeWith } from '../work/limiter.js'
import { createCanvasPool } from './canvas-pool.js'
import { type Draw, MAX_FIELD_LENGTH, TEMPLATES, templateByName, type TemplateFields } from './templates.js'

export interface GenerationOptions {
  config: Config
  /** Render queue, remote fetches: for Prometheus. */
  metrics?: Metrics
  /** Tests point host names at loopback through this. */
  resolve?: Resolver
}

const FIELD_NAMES = [...new Set(['output', 'format', ...TEMPLATES.flatMap((t) => Object.keys(t.fields))])].sort()
const FieldsSchema = Type.Object(
  Object.fromEntries(FIELD_NAMES.map((name) => [name, Type.Optional(Type.String({ maxLength: MAX_FIELD_LENGTH }))])),
  { additionalProperties: true }
)
const ListSchema = Envelope({ list: Type.Array(Type.String()) })
const IMAGE_DESCRIPTION = 'The image bytes (image/png, image/jpeg or image/webp as asked by `output` or `format`); errors are JSON envelopes'

/** Requests admitted per render slot beyond the one drawing (fetching or waiting); more get 503. */
export const MAX_QUEUED_PER_SLOT = 16

/** Units of a key's rate limit and quota one drawn image costs. */
export const GENERATION_COST = 5

export const generationRoutes: FastifyPluginAsyncTypebox<GenerationOptions> = async (app, { config, resolve, metrics }) => {
  const fonts = createFontRegistry({ operatorDir: path.join(config.dataDir, 'fonts') })
  const assets = createAssetRegistry({ dataDir: config.dataDir })
  const fetcher = createRemoteFetcher({ allow: config.remoteFetchAllow, maxBytes: config.remoteFetchMaxBytes, timeoutMs: config.remoteFetchTimeoutMs, resolve })
  const images = createImageSource({ images: createImageFetcher({ fetcher, onOutcome: (outcome) => metrics?.remoteFetches.inc({ outcome }) }), assets })
  const limiter = createLimiter({
    concurrency: config.renderConcurrency,
    queue: config.renderConcurrency * MAX_QUEUED_PER_SLOT,
    busyCode: 'RENDER_BUSY',
    retryAfterSeconds: 1,
    observer: metrics === undefined ? undefined : observeWith(metrics, 'generation')
  })

  /**
   * Admission first (bounding the requests fetching, waiting and drawing together), then
   * the images are fetched and decoded, which waits on the network, outside the CPU slot;
   * drawing and encoding take a slot.
   */
  async function render (prepare: () => Promise<Draw>, format: OutputFormat): Promise<Buffer> {
    const ticket = limiter.admit()
    try {
      const draw = await prepare()
      return await ticket.run(async () => {
        const canvas = draw(canvases.acquire)
        try {
          return await encode(canvas, format)
        } finally {
          canvases.release(canvas)
        }
      })
    } finally {
      ticket.release()
    }
  }
  const deps = { fonts, images, assets }
  const canvases = createCanvasPool()

  app.route({
    method: ['GET', 'POST'],
    url: '/gen/:template',
    exposeHeadRoute: false,
    // Drawing is CPU work: it costs more of a key's rate limit (README, "costs").
    config: { body: 'json', cost: GENERATION_COST, errors: ['TEMPLATE_NOT_FOUND', 'UNKNOWN_ASSET', 'UNKNOWN_FONT', 'INVALID_COLOR', 'REMOTE_FETCH_REFUSED', 'REMOTE_FETCH_FAILED', 'REMOTE_FETCH_TOO_LARGE', 'REMOTE_FETCH_TIMEOUT', 'REMOTE_IMAGE_INVALID', 'RENDER_BUSY'] },
    schema: {
      tags: ['generation'],
      summary: 'Draw a template (welcome, goodbye, rank, quote)',
      description: `Fields as query parameters or a JSON body (GET or POST). ${IMAGE_DESCRIPTION}. Templates: ${TEMPLATES.map((t) => `\`${t.name}\` (${t.summary})`).join('; ')}.`,
      params: Type.Object({ template: Type.String({ description: 'A name from /list/templates' }) }),
      querystring: FieldsSchema,
      body: FieldsSchema
    },
    async handler (request, reply) {
      const template = templateByName(request.params.template)
      if (!template) throw new AppError('TEMPLATE_NOT_FOUND', `No template named "${request.params.template.slice(0, 60)}": use one of ${TEMPLATES.map((t) => t.name).join(', ')}`, { details: { valid: TEMPLATES.map((t) => t.name) } })
      const fields: TemplateFields = {}
      for (const source of [request.query as Record<string, unknown>, (request.body ?? {}) as Record<string, unknown>]) {
        for (const [key, value] of Object.entries(source)) {
          if (typeof value === 'string' || typeof value === 'number') fields[key.toLowerCase()] = String(value)
        }
      }
      const format = parseFormat(fields.output ?? fields.format, template.defaultFormat, fields.output !== undefined ? 'output' : 'format')
      const bytes = await render(() => template.prepare(deps, fields), format)
      return reply.type(CONTENT_TYPES[format]).send(bytes)
    }
  })

  app.route({
    method: ['GET', 'POST'],
    url: '/gen/custom',
    exposeHeadRoute: false,
    bodyLimit: CUSTOM_BODY_LIMIT,
    config: { body: 'json', cost: GENERATION_COST, errors: ['GEN_LIMIT_EXCEEDED', 'UNKNOWN_FONT', 'INVALID_COLOR', 'REMOTE_FETCH_REFUSED', 'REMOTE_FETCH_FAILED', 'REMOTE_FETCH_TOO_LARGE', 'REMOTE_FETCH_TIMEOUT', 'REMOTE_IMAGE_INVALID', 'RENDER_BUSY'] },
    errorHandler (err, request, reply) {
      // Name the limit that was exceeded rather than a generic "too large".
      if ((err as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        throw new AppError('BODY_TOO_LARGE', `The /gen/custom body is larger than ${CUSTOM_BODY_LIMIT / 1024 / 1024} MB: use image URLs instead of embedding data`, { details: { limit: CUSTOM_BODY_LIMIT } })
      }
      throw err
    },
    schema: {
      tags: ['generation'],
      summary: 'Draw a layered custom image',
      description: `A base (rectangle or image), image elements and texts, drawn in order. ${IMAGE_DESCRIPTION}. See docs/generation.md for every field and limit.`,
      body: CustomBodySchema
    },
    async handler (request, reply) {
      const body = request.body ?? {}
      const format = parseFormat(body.output ?? body.format, 'jpg', body.output !== undefined ? 'output' : 'format')
      const bytes = await render(() => prepareCustom(deps, body), format)
      return reply.type(CONTENT_TYPES[format]).send(bytes)
    }
  })

  const lists = {
    templates: () => TEMPLATES.map((t) => t.name),
    banners: () => assets.names('banner'),
    icons: () => assets.names('icon'),
    fonts: () => fonts.names()
  }
  for (const [kind, list] of Object.entries(lists)) {
    app.get(`/list/${kind}`, {
      schema: { tags: ['lists'], summary: `The ${kind} /gen accepts`, response: { 200: ListSchema } }
    }, async () => ok({ list: list() }))
  }

  for (const kind of ['banner', 'icon'] as const) {
    app.get(`/assets/${kind}s/:name`, {
      config: { public: true, errors: ['ASSET_NOT_FOUND'] },
      schema: {
        tags: ['generation'],
        summary: `Preview of a ${kind} (PNG, public)`,
        description: `The ${kind} as a PNG image, without an API key, so it can be linked from chat embeds.`,
        params: Type.Object({ name: Type.String({ description: `A name from /list/${kind}s, optionally ending in .png` }) })
      }
    }, async (request, reply) => {
      const png = await assets.preview(kind, request.params.name.replace(/\.png$/i, ''))
      return reply.type('image/png').header('cache-control', 'public, max-age=3600').send(png)
    })
  }
}
