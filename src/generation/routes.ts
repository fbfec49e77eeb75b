// HTTP for image generation: /gen/{template}, /gen/custom, the four /list endpoints and
// public previews of banners and icons. Fields come from the query string and from a
// JSON body (GET or POST, any content type: docs/compatibility.md, "Bodies");
// the body wins where both give a field, and keys are matched case-insensitively.
import path from 'node:path'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import type { Config } from '../config.js'
import { AppError } from '../errors.js'
import { Envelope, ok } from '../http/envelope.js'
import { createRemoteFetcher, type Resolver } from '../remote-fetch/fetcher.js'
import { createImageFetcher } from '../remote-fetch/image-fetcher.js'
import { createAssetCatalog } from './asset-catalog.js'
import { BANNERS, ICONS } from './art.js'
import { CUSTOM_BODY_LIMIT } from './custom-limits.js'
import { CustomBodySchema } from './custom-schema.js'
import { CONTENT_TYPES, OUTPUT_FORMATS, type OutputFormat, parseFormat } from './draw.js'
import { closedSet, component } from '../http/openapi-annotations.js'
import { createFontRegistry } from './fonts.js'
import type { Metrics } from '../metrics/metrics.js'
import { type ByteHold, createByteBudget } from '../work/byte-budget.js'
import { MIN_RETRY_AFTER_SECONDS } from '../work/scheduler.js'
import { type CostPrior, threadCode, type Work } from '../work/work.js'
import { collectJob, type JobSpec } from './render-job.js'
import { createPictureCache, type PictureAnswer, recordSources, remoteImageFreshness } from './picture-cache.js'
import type { ResultCache } from '../result-cache/interface.js'
import type * as thread from './thread.js'
import { DEFAULT_MAX_BYTES, encodeAnimation, MIN_MAX_BYTES, parseMaxBytes, stillWithin } from './output-budget.js'
import { parseAnimated } from './timeline.js'
import { MAX_FIELD_LENGTH, TEMPLATES, templateByName, type TemplateFields } from './templates.js'

export interface GenerationOptions {
  config: Config
  /** The result cache (src/result-cache/; off when RESULT_CACHE_MAX_BYTES is 0) and the code's version in every address. */
  results: { cache: ResultCache, codeVersion: string }
  /** The heavy work's engine (src/work/work.ts): drawing on its threads, decoding on its libvips lanes. */
  work: Work
  /** Render queue, remote fetches: for Prometheus. */
  metrics: Metrics
  /** Tests point host names at loopback through this. */
  resolve?: Resolver
}

const FIELD_NAMES = [...new Set(TEMPLATES.flatMap((t) => Object.keys(t.fields)))].sort()

/** A field's documentation: which templates read it, and what it means to each. */
function fieldDescription (name: string): string {
  const uses = TEMPLATES.filter((t) => t.fields[name] !== undefined)
  const texts = new Set(uses.map((t) => t.fields[name]!.description))
  const defaults = new Set(uses.map((t) => t.fields[name]!.default))
  if (texts.size > 1 || defaults.size > 1) {
    return uses.map((t) => `${t.name}: ${t.fields[name]!.description}${t.fields[name]!.default ? ` (default ${t.fields[name]!.default})` : ''}`).join('; ')
  }
  const where = uses.length === TEMPLATES.length ? '' : `(${uses.map((t) => t.name).join(', ')}) `
  const only = [...defaults][0]
  return `${where}${[...texts][0]}${only ? `. Default: ${only}` : ''}`
}

/** The hosted names of banners and icons are a closed set; a URL works too. */
const ASSET_FIELDS: Record<string, () => readonly string[]> = { banner: () => Object.keys(BANNERS), icon: () => Object.keys(ICONS) }

/** What was done to keep a picture within max_bytes or its frame budget (output-budget.ts). */
export const REDUCED_HEADER = 'x-image-reduced'

const OutputSchema = (description: string) => Type.Optional(closedSet(Type.String({ maxLength: MAX_FIELD_LENGTH, description }), { values: () => OUTPUT_FORMATS }))
/**
 * A field that is a number, sent as a JSON number or as a string (the hosted service's
 * clients send every field as a string, and query parameters are strings). The string
 * comes first: with Ajv's coercion a JSON number becomes its string, as it did when every
 * field was a string, so templates read strings either way.
 */
const NumberField = (description: string) => Type.Union([Type.String({ maxLength: MAX_FIELD_LENGTH }), Type.Number()], { description })
export const FieldsSchema = component('TemplateFields', Type.Object({
  output: OutputSchema('png, jpg, webp or gif (each template has its default: png); gif and webp move when an image does (animated)'),
  format: OutputSchema('The same as output'),
  animated: Type.Optional(closedSet(Type.String({ maxLength: MAX_FIELD_LENGTH, description: 'auto (default: the picture moves when an avatar, banner or icon is an animated GIF or WebP and output is gif or webp), true (the same; refused for png and jpg), false (a still: the first frames)' }), { values: () => ['auto', 'true', 'false'] })),
  max_bytes: Type.Optional(NumberField(`Largest answer in bytes, ${MIN_MAX_BYTES}..${DEFAULT_MAX_BYTES} (default ${DEFAULT_MAX_BYTES}): a larger picture gets fewer colours (or a lower quality), then fewer frames, then a smaller scale, then becomes a still, as the X-Image-Reduced header says`)),
  ...Object.fromEntries(FIELD_NAMES.map((name) => {
    if (TEMPLATES.some((t) => t.fields[name]?.numeric === true)) return [name, Type.Optional(NumberField(fieldDescription(name)))]
    const field = Type.String({ maxLength: MAX_FIELD_LENGTH, description: fieldDescription(name) })
    const names = ASSET_FIELDS[name]
    return [name, Type.Optional(names === undefined ? field : closedSet(field, { values: names, orUrl: true }))]
  }))
}, {
  additionalProperties: true,
  description: 'Every field is a string, or a number where it is one (level, xp, max_bytes…); each template reads its own (see each field)',
  examples: [{ username: 'Ada', members: 'Member #42', banner: 'space', icon: 'star', output: 'png' }]
}))
const ListSchema = Envelope({ list: Type.Array(Type.String()) })
const IMAGE_TYPES = [...new Set(Object.values(CONTENT_TYPES))]
const IMAGE_DESCRIPTION = 'The image bytes (image/png, image/jpeg, image/webp or image/gif as asked by `output` or `format`; an animated GIF or WebP when an image moves, see `animated`), at most `max_bytes`, with X-Image-Reduced naming what was reduced to stay within it (colours, quality, frames, scale, still); errors are JSON envelopes'

/** Units of a key's rate limit and quota one drawn image costs. */
export const GENERATION_COST = 5
/** Units a picture costs when it is served without drawing: from the result cache, from another request's drawing, or a 304. */
export const SERVED_FROM_CACHE_COST = 1
/** `miss` when this request drew its picture, `hit` when it was served from the cache or another request's drawing. */
export const CACHE_HEADER = 'x-cache'

/** The drawing threads' code (thread.ts), run by src/work/. */
const DRAW = threadCode<typeof thread.draw>(new URL('./thread.js', import.meta.url), 'draw')
const PREVIEW = threadCode<typeof thread.preview>(new URL('./thread.js', import.meta.url), 'preview')

/**
 * Running time of each kind of job on one lane of a 2-core machine: a picture by the
 * source pixels it decodes (bench/bursts.bench.ts: a welcome banner without images about
 * 25 ms); its images' shrinking by sharp by their pixels as sent (CPU time of sharp's
 * shrink-on-load to 256 px, noise: 4000×3000 JPEG 95 ms, 2000×2000 PNG 21 ms, 1000×1000
 * JPEG 11 ms; a lossy WebP about seven times that, which the observed times correct).
 */
export const GENERATION_PRIORS = {
  threads: {
    draw: { baseMs: 25, msPerUnit: 0.00003 },
    preview: { baseMs: 40, msPerUnit: 0 }
  },
  libvips: {
    'gen-decode': { baseMs: 1, msPerUnit: 0.00001 }
  }
} satisfies Record<string, Record<string, CostPrior>>

export const generationRoutes: FastifyPluginAsyncTypebox<GenerationOptions> = async (app, { config, work, resolve, metrics, results }) => {
  // Names only: this thread never draws (drawer.ts draws, in src/work/'s threads: thread.ts).
  const fonts = createFontRegistry({ operatorDir: path.join(config.dataDir, 'fonts') })
  const assets = createAssetCatalog({ dataDir: config.dataDir })
  // The public previews, drawn once by a worker and kept until the operator's folder changes.
  const previews = new Map<string, Buffer>()
  assets.onChange((kind) => {
    for (const key of previews.keys()) if (key.startsWith(`${kind}:`)) previews.delete(key)
  })
  const fetcher = createRemoteFetcher({ allow: config.remoteFetchAllow, maxBytes: config.remoteFetchMaxBytes, timeoutMs: config.remoteFetchTimeoutMs, resolve })
  const images = createImageFetcher({ fetcher, onOutcome: (outcome) => metrics.remoteFetched(outcome), ...remoteImageFreshness(config) })
  const deps = { fonts, assets, images, discordCdn: config.discordCdnUrl }
  const pictures = createPictureCache({ cache: results.cache, codeVersion: results.codeVersion, dataDir: config.dataDir, assets })
  // The fetched images of every picture being made, from each answer's headers until the
  // picture is drawn (docs/generation.md, "Fetched images' memory"). Held bytes are let
  // go as the pictures queued ahead are drawn, and the fetches under way end within
  // REMOTE_FETCH_TIMEOUT_MS: after both, a retry finds them gone.
  const fetchedBytes = createByteBudget({
    limitBytes: config.remoteFetchMemoryBytes,
    busyCode: 'RENDER_BUSY',
    retryAfterSeconds: () => Math.max(MIN_RETRY_AFTER_SECONDS, Math.ceil((work.stats.threads.drainMs + config.remoteFetchTimeoutMs) / 1000)),
    setting: 'REMOTE_FETCH_MEMORY',
    what: 'fetched images',
    detail: 'fetchMemoryBytes'
  })
  // sharp's own time limit for shrinking a request's images, in whole seconds.
  const decodeLimitMs = work.timeoutMs > 0 ? work.timeoutMs : config.requestTimeoutMs > 0 ? config.requestTimeoutMs : 30_000

  /**
   * The request is checked and its images fetched first (network waits, outside the
   * scheduler), each counted in REMOTE_FETCH_MEMORY before its body is read and held
   * until the picture is drawn; then the job is admitted by its estimated time (the source
   * pixels it decodes) against what is left of the request's deadline, waits for its turn
   * in fair order between keys (src/work/scheduler.ts), and on its thread lane its images
   * are decoded (sharp, on a libvips lane of its own, admitted the same way) and the
   * picture drawn (a worker). Undefined: the request was answered meanwhile (its
   * deadline) or its client left.
   */
  async function render (reply: FastifyReply, spec: JobSpec, maxBytes: number): Promise<PictureAnswer | undefined> {
    const owner = reply.request.apiKey?.id
    // Asked once: each call makes a new signal, and only the last one fires.
    const requestSignal = reply.workSignal()
    // Shed to make room for another key's fetches (byte-budget.ts): its fetches and its
    // place in the queue stop with the busy error. Also fired once the picture is made or
    // has failed: a download still under way (a picture's other images) stops.
    const stop = new AbortController()
    let hold: ByteHold | undefined
    // Once this request draws, the drawing owns its fetched bytes: it may outlive the
    // request (another request waits for the same picture: picture-cache.ts).
    let drawing = false
    try {
      hold = fetchedBytes.reserve(owner, 0, (err) => stop.abort(err))
      const held = hold
      const sources = recordSources(deps.images)
      const collected = await collectJob({ ...deps, images: sources.images }, spec, { signal: AbortSignal.any([requestSignal, stop.signal]), bytes: { reserve: (n) => held.grow(n), giveBack: (n) => held.shrink(n) } })
      const ifNoneMatch = reply.request.headers['if-none-match']
      return await pictures.answer({ spec, maxBytes, sources, ifNoneMatch, signal: requestSignal }, async (drawSignal) => {
        drawing = true
        const signal = AbortSignal.any([drawSignal, stop.signal])
        try {
          const options = { signal, busy: 'RENDER_BUSY' as const, owner, elapsedMs: reply.elapsedTime }
          const encoded = await work.run('threads', { kind: 'draw', units: collected.plan.units }, options, async (lane) => {
            // Its work has started: its images are no longer shed.
            held.pin()
            // The encoding after the drawing thread's work ends by WORK_TIMEOUT_MS from the slot's start, too.
            const deadline = work.timeoutMs > 0 ? performance.now() + work.timeoutMs : Infinity
            // Images sharp shrinks or unpacks take a libvips lane beside image conversions
            // (IMAGE_CONCURRENCY), held while they decode; the others are drawn as sent.
            const job = collected.decodePixels === 0
              ? await collected.decode(decodeLimitMs)
              : await work.run('libvips', { kind: 'gen-decode', units: collected.decodePixels }, { ...options, elapsedMs: reply.elapsedTime }, async () => await collected.decode(decodeLimitMs))
            const transfer = Object.values(job.images).flatMap((i) => i.raw !== undefined && i.raw.byteOffset === 0 && i.raw.byteLength === i.raw.buffer.byteLength ? [i.raw.buffer as ArrayBuffer] : [])
            const drawn = await lane.thread(DRAW, job, transfer)
            // Encoded by the thread that draws (PNG, JPEG, still WebP), or frames encoded here by sharp (GIF, animations).
            if (drawn instanceof Uint8Array) return await stillWithin(Buffer.from(drawn.buffer, drawn.byteOffset, drawn.byteLength), spec.format as 'png' | 'jpg' | 'webp', maxBytes, deadline)
            return await encodeAnimation(drawn, spec.format === 'webp' ? 'webp' : 'gif', maxBytes, deadline)
          })
          if (collected.plan.framesMerged && !encoded.reduced.includes('frames')) encoded.reduced.unshift('frames')
          return encoded
        } finally {
          // Drawn, failed, shed, or nobody waits any more: its fetched bytes are let go.
          stop.abort(new AppError('TIMEOUT', 'The picture was made or failed: its fetches are no longer wanted'))
          held.release()
        }
      })
    } catch (err) {
      if (reply.sent || reply.raw.destroyed) return undefined
      throw err
    } finally {
      if (!drawing) {
        // Served without drawing (the cache, another request's drawing), failed, or its deadline passed.
        stop.abort(new AppError('TIMEOUT', 'The picture was made or failed: its fetches are no longer wanted'))
        hold?.release()
      }
    }
  }

  app.route({
    method: ['GET', 'POST'],
    url: '/gen/:template',
    exposeHeadRoute: false,
    // Drawing is CPU work: it costs more of a key's rate limit (docs/keys.md, "Rate limits, quotas and costs").
    config: { body: 'json', cost: GENERATION_COST, linkable: true, images: IMAGE_TYPES, cached: true, errors: ['TEMPLATE_NOT_FOUND', 'UNKNOWN_ASSET', 'UNKNOWN_FONT', 'INVALID_COLOR', 'REMOTE_FETCH_REFUSED', 'REMOTE_FETCH_FAILED', 'REMOTE_FETCH_TOO_LARGE', 'REMOTE_FETCH_TIMEOUT', 'REMOTE_IMAGE_INVALID', 'GEN_BUDGET_EXCEEDED', 'RENDER_BUSY', 'TIMEOUT', 'WORK_TOO_LARGE'] },
    schema: {
      tags: ['generation'],
      summary: 'Draw a template (welcome, goodbye, rank, quote)',
      description: `Fields as query parameters or a JSON body (GET or POST). ${IMAGE_DESCRIPTION}. Templates: ${TEMPLATES.map((t) => `\`${t.name}\` (${t.summary})`).join('; ')}.`,
      params: Type.Object({ template: closedSet(Type.String({ description: 'A name from /list/templates' }), { values: () => TEMPLATES.map((t) => t.name) }) }),
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
      const animated = parseAnimated(fields.animated)
      const maxBytes = parseMaxBytes(fields.max_bytes)
      const answer = await render(reply, { format, animated, template: template.name, fields }, maxBytes)
      if (answer === undefined) return reply
      return send(reply, format, answer)
    }
  })

  app.route({
    method: ['GET', 'POST'],
    url: '/gen/custom',
    exposeHeadRoute: false,
    bodyLimit: CUSTOM_BODY_LIMIT,
    config: { body: 'json', cost: GENERATION_COST, linkable: true, images: IMAGE_TYPES, cached: true, bodyTooLarge: 'use image URLs instead of embedding data', errors: ['GEN_LIMIT_EXCEEDED', 'UNKNOWN_ASSET', 'UNKNOWN_FONT', 'INVALID_COLOR', 'REMOTE_FETCH_REFUSED', 'REMOTE_FETCH_FAILED', 'REMOTE_FETCH_TOO_LARGE', 'REMOTE_FETCH_TIMEOUT', 'REMOTE_IMAGE_INVALID', 'GEN_BUDGET_EXCEEDED', 'RENDER_BUSY', 'TIMEOUT', 'WORK_TOO_LARGE'] },
    schema: {
      tags: ['generation'],
      summary: 'Draw a layered custom image',
      description: `A base (rectangle or image), image elements and texts, drawn in order. ${IMAGE_DESCRIPTION}. See docs/generation.md for every field and limit.`,
      body: CustomBodySchema
    },
    async handler (request, reply) {
      const body = request.body ?? {}
      const format = parseFormat(body.output ?? body.format, 'jpg', body.output !== undefined ? 'output' : 'format')
      const animated = parseAnimated(body.animated)
      const maxBytes = parseMaxBytes(body.max_bytes)
      const answer = await render(reply, { format, animated, custom: body }, maxBytes)
      if (answer === undefined) return reply
      return send(reply, format, answer)
    }
  })

  function send (reply: FastifyReply, format: OutputFormat, answer: PictureAnswer): FastifyReply {
    // A picture served without drawing (the cache, a 304) costs one unit (docs/result-cache.md, "What it costs").
    if (answer.kind === 'not-modified' || answer.cache === 'hit') reply.servedCost = SERVED_FROM_CACHE_COST
    if (answer.kind === 'not-modified') return reply.code(304).header('etag', answer.etag).header(CACHE_HEADER, 'hit').send()
    const { encoded } = answer
    if (encoded.reduced.length > 0) void reply.header(REDUCED_HEADER, encoded.reduced.join(','))
    if (answer.etag !== undefined) void reply.header('etag', answer.etag)
    return reply.header(CACHE_HEADER, answer.cache).type(CONTENT_TYPES[format]).send(encoded.bytes)
  }

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
      config: { public: true, anyOrigin: true, images: ['image/png'], errors: ['ASSET_NOT_FOUND', 'RENDER_BUSY', 'TIMEOUT'] },
      schema: {
        tags: ['generation'],
        summary: `Preview of a ${kind} (PNG, public)`,
        description: `The ${kind} as a PNG image, without an API key, so it can be linked from chat embeds.`,
        params: Type.Object({ name: Type.String({ description: `A name from /list/${kind}s, optionally ending in .png` }) })
      }
    }, async (request, reply) => {
      const name = request.params.name.replace(/\.png$/i, '')
      const key = assets.canonical(kind, name)
      if (key === undefined) throw new AppError('ASSET_NOT_FOUND', `No ${kind} named "${name.slice(0, 60)}": see /list/${kind}s`)
      let png = previews.get(`${kind}:${key}`)
      if (png === undefined) {
        const bytes = await work.thread(PREVIEW, { asset: kind, name: key }, { kind: 'preview', units: 0 }, { signal: reply.workSignal(), busy: 'RENDER_BUSY', elapsedMs: reply.elapsedTime })
        png = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
        previews.set(`${kind}:${key}`, png)
      }
      return reply.type('image/png').header('cache-control', 'public, max-age=3600').send(png)
    })
  }
}
