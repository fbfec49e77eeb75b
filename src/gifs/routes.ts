// GET /sfw/gif/{imageType}: a random gif of a category; and the public gif files under
// /files/gifs/<sha256>.gif, which clients put straight into chat embeds, so they are
// served without a key (docs/compatibility.md, "Gif files").
import type fs from 'node:fs'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import fresh from 'fresh'
import rangeParser from 'range-parser'
import { Type } from 'typebox'
import type { CounterStore } from '../store/counters/interface.js'
import { AppError } from '../errors.js'
import { Envelope, ok } from '../http/envelope.js'
import { closedSet, component } from '../http/openapi-annotations.js'
import { type GifFileStore, HASH_PATTERN, type OpenGifFile } from '../store/gif-files.js'
import { GIF_REPORT_REASONS, type GifCatalogStore, type GifRecord } from '../store/interface.js'
import { MIN_RETRY_AFTER_SECONDS } from '../work/scheduler.js'
import type { Work } from '../work/work.js'
import { createGifCatalog, FILES_PATH, GIF_FORMATS, MAX_AMOUNT, MAX_EXCLUDE, MAX_NOREPEAT } from './catalog.js'
import { GIF_TYPES } from './types.js'
import { gifToAnimatedWebp, WEBP_CONTENT_TYPE, WEBP_MAX_PIXELS, webpMemoryBytes, webpOffered, webpUnits } from './webp.js'

/** A file URL never changes its content (it is named by its hash): cache it for a year. */
const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable'
const FILE_NAME_PATTERN = /^([0-9a-f]{64})\.(gif|webp)$/
/** A WebP is made once for every request waiting for it: none of them can stop it. */
const NEVER_ABORTED = new AbortController().signal
/**
 * Whom every WebP conversion is for in the scheduler's fair order: the files are public, so
 * the conversions of requests without a key, however many, are one owner, and a key's own
 * work is served beside their whole flood rather than behind it (docs/gifs.md, "WebP").
 */
export const WEBP_OWNER = 'gif-webp'
/**
 * Reports a key may make per REPORT_WINDOW_MS, on top of its rate limit: a report is a
 * row an operator reads, so one key cannot bury the list (counted with the rate limit's
 * counters, so shared by every instance with Redis).
 */
export const REPORTS_PER_WINDOW = 20
export const REPORT_WINDOW_MS = 60 * 60 * 1000
/** The formats every gif is answered in (`?format=`). */
const FORMATS = GIF_FORMATS

export interface GifRoutesOptions {
  store: GifCatalogStore
  /** Where the bytes are (src/store/gif-files.ts). */
  files: GifFileStore
  publicUrl: string
  /** The rate-limit counters: norepeat's memory and the report limit (memory, or Redis shared by instances). */
  counters: CounterStore
  /**
   * The heavy work's engine (src/work/work.ts): WebP conversions take its libvips lanes
   * and reserve their memory (webpMemoryBytes) from IMAGE_MEMORY there, as image
   * conversions do.
   */
  work: Pick<Work, 'run' | 'estimateMs' | 'stats'>
  /** REQUEST_TIMEOUT_MS (0: none): how long a conversion may wait for its memory. */
  requestTimeoutMs?: number
  /** For tests: a fixed random sequence. */
  random?: () => number
}

const nullableString = (description: string, examples: string[]) => Type.Union([Type.String(), Type.Null()], { description, examples })
const nullableInteger = (description: string, examples: number[]) => Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description, examples })

const GifSchema = component('Gif', Type.Object({
  id: Type.String({ description: 'The gif\'s id: numeric, stable for that gif', examples: ['42'] }),
  file: Type.String({ description: 'Absolute URL of the gif, fetchable without a key', examples: ['https://api.example.com/files/gifs/3f5a….gif'] }),
  anime_name: nullableString('The anime (or other work) the gif comes from; null when unknown', ['Frieren: Beyond Journey\'s End']),
  artist: nullableString('Who made the gif; null when unknown', ['someone']),
  artist_url: nullableString('Where to find the artist; null when unknown', ['https://example.com/someone']),
  source_url: nullableString('Where the gif was taken from; null when unknown', ['https://example.com/post/1']),
  width: nullableInteger('Width in pixels (null for an external gif added without it)', [240]),
  height: nullableInteger('Height in pixels', [160]),
  frames: nullableInteger('Number of frames', [10]),
  bytes: nullableInteger('Size of the GIF file in bytes', [48213]),
  dominant_color: Type.Union([Type.String({ pattern: '^#[0-9a-f]{6}$' }), Type.Null()], { description: 'The colour most of the gif is, `#rrggbb` (for an embed\'s colour); null when unknown', examples: ['#e8a0b4'] })
}))

const GifAnswerSchema = component('GifAnswer', Envelope({
  ...GifSchema.properties,
  gifs: Type.Optional(Type.Array(GifSchema, { description: 'Only with ?amount: that many distinct gifs (fewer if the category holds fewer), the first being the top-level fields', maxItems: MAX_AMOUNT }))
}))

const GifTypesSchema = component('GifTypes', Envelope({
  types: Type.Array(Type.Object({
    name: Type.String({ description: 'The type, as GET /sfw/gif/{imageType} takes it', examples: ['hug'] }),
    count: Type.Integer({ minimum: 0, description: 'Gifs that can be picked (hidden ones are not counted)', examples: [81] }),
    formats: Type.Array(Type.String(), { description: 'The formats its gifs are answered in (`?format=`)', examples: [[...FORMATS]] })
  }), { description: `The ${GIF_TYPES.length} types, in alphabetical order` })
}))

const GifReportAnswerSchema = component('GifReportAnswer', Envelope({
  id: Type.String({ description: 'The report\'s id', examples: ['7'] }),
  gif: Type.String({ description: 'The id of the gif reported', examples: ['42'] }),
  reason: Type.String({ examples: ['not_sfw'] })
}))

/** `X-Anime-Name` and the like on a file, percent-encoded (header values are ASCII), as nekos.best sends them. */
function attributionHeaders (gif: GifRecord): Record<string, string> {
  const headers: Record<string, string> = {}
  const add = (name: string, value: string | null | undefined): void => { if (value) headers[name] = encodeURIComponent(value) }
  add('x-anime-name', gif.animeName)
  add('x-artist', gif.artist)
  add('x-artist-url', gif.artistUrl)
  add('x-source-url', gif.sourceUrl)
  return headers
}

export const gifRoutes: FastifyPluginAsyncTypebox<GifRoutesOptions> = async (app, opts) => {
  const catalog = createGifCatalog({ store: opts.store, publicUrl: opts.publicUrl, random: opts.random, recent: opts.counters })

  app.get('/sfw/gif/:imageType', {
    config: { errors: ['GIF_UNKNOWN_TYPE', 'GIF_CATEGORY_EMPTY', 'GIF_ALL_EXCLUDED'] },
    schema: {
      tags: ['gifs'],
      summary: 'A random safe-for-work gif of a category',
      description: `Picks uniformly at random among the category's gifs. Types: ${GIF_TYPES.join(', ')}. ` +
        'Beside `id` and `file`: attribution (`anime_name`, `artist`, `artist_url`, `source_url`), `width`, `height`, `frames`, `bytes` and `dominant_color`, null when unknown. ' +
        'An unknown type answers 400 (`GIF_UNKNOWN_TYPE`, with `validTypes`); a category without gifs answers 404 (`GIF_CATEGORY_EMPTY`). ' +
        `\`?amount=N\` (1 to ${MAX_AMOUNT}) also answers \`gifs\`, a list of N distinct gifs, for bots that prefetch. ` +
        `\`?exclude=ID,…\` (at most ${MAX_EXCLUDE} ids) never answers those gifs (404 \`GIF_ALL_EXCLUDED\` when they are all the category holds); ` +
        `\`?norepeat=N\` (1 to ${MAX_NOREPEAT}) does not answer any of the last N gifs this key was shown in the category (fewer when the category holds N gifs or fewer). ` +
        '`?format=webp` links an animated WebP instead of the GIF.',
      params: Type.Object({
        imageType: closedSet(Type.String({ description: 'The category', examples: ['hug'] }), { values: () => GIF_TYPES })
      }),
      querystring: Type.Object({
        amount: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_AMOUNT, description: 'Answer a list of this many distinct gifs in `gifs`' })),
        exclude: Type.Optional(Type.String({ pattern: `^[0-9]{1,15}(,[0-9]{1,15}){0,${MAX_EXCLUDE - 1}}$`, description: `Ids not to answer, comma-separated (at most ${MAX_EXCLUDE})`, examples: ['42,43'] })),
        norepeat: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_NOREPEAT, description: 'Do not answer any of the last N gifs this key was shown in this category (picks asked with norepeat are remembered for 24 hours)' })),
        format: Type.Optional(Type.Union(GIF_FORMATS.map((f) => Type.Literal(f)), { description: `\`webp\`: \`file\` is an animated WebP made from the GIF (/files/gifs/<sha256>.webp), except for external gifs and gifs of more than ${WEBP_MAX_PIXELS / 1e6} million pixels over all frames, answered as they are; \`bytes\` stays the GIF's size` }))
      }),
      response: { 200: GifAnswerSchema }
    }
  }, async (request) => {
    const { amount, exclude, norepeat, format } = request.query
    const gifs = await catalog.random(request.params.imageType, {
      amount: amount ?? 1,
      format,
      exclude: exclude === undefined ? [] : exclude.split(',').map(Number),
      norepeat,
      viewer: request.apiKey ? `k${request.apiKey.id}` : undefined
    })
    const first = gifs[0]!
    return amount === undefined ? ok(first) : ok({ ...first, gifs })
  })

  app.get('/sfw/gif', {
    schema: {
      tags: ['gifs'],
      summary: 'The gif types, with how many gifs each holds',
      description: `The ${GIF_TYPES.length} types GET /sfw/gif/{imageType} answers, each with the number of gifs it can pick from and the formats it answers in.`,
      response: { 200: GifTypesSchema }
    }
  }, async () => {
    const counts = await opts.store.counts()
    return ok({ types: GIF_TYPES.map((name) => ({ name, count: counts[name] ?? 0, formats: [...FORMATS] })) })
  })

  app.post('/sfw/gif/:id/report', {
    config: { body: 'json', errors: ['GIF_NOT_FOUND', 'RATE_LIMITED'] },
    schema: {
      tags: ['gifs'],
      summary: 'Report a gif to the operator',
      description: `Records that this key finds a gif wrong, for the operator's \`gifs reports\` (who may then hide or remove it). Reasons: ${GIF_REPORT_REASONS.join(', ')}. ` +
        `Answers 202: the report is recorded, nothing changes until the operator acts. A key may report ${REPORTS_PER_WINDOW} times an hour (429 \`RATE_LIMITED\` past it, with Retry-After); ` +
        'reporting the same gif for the same reason again records nothing new. An unknown id answers 404 `GIF_NOT_FOUND`.',
      params: Type.Object({ id: Type.String({ pattern: '^[0-9]{1,15}$', description: 'The gif\'s id, as GET /sfw/gif/{imageType} answered it', examples: ['42'] }) }),
      body: Type.Object({
        reason: Type.Union(GIF_REPORT_REASONS.map((r) => Type.Literal(r)), { description: 'What is wrong with it' })
      }),
      response: { 202: GifReportAnswerSchema }
    }
  }, async (request, reply) => {
    const key = request.apiKey!
    const gifId = Number(request.params.id)
    const gif = await opts.store.get(gifId)
    if (!gif) throw new AppError('GIF_NOT_FOUND', `No gif has the id ${gifId}: ids come from GET /sfw/gif/{imageType}`)
    const now = Date.now()
    const { count, resetAt } = await opts.counters.hit(`report:k${key.id}`, 1, REPORT_WINDOW_MS, now)
    if (count > REPORTS_PER_WINDOW) {
      const retry = Math.max(1, Math.ceil((resetAt - now) / 1000))
      throw new AppError('RATE_LIMITED', `Too many reports: a key may report ${REPORTS_PER_WINDOW} gifs an hour; retry in ${retry} s`, { headers: { 'retry-after': String(retry) } })
    }
    const reason = request.body.reason
    const earlier = (await opts.store.reports({ gifId })).find((r) => r.keyId === key.id && r.reason === reason)
    const report = earlier ?? await opts.store.report({ gifId, keyId: key.id, reason })
    if (!report) throw new AppError('GIF_NOT_FOUND', `No gif has the id ${gifId}: ids come from GET /sfw/gif/{imageType}`)
    reply.code(202)
    return { ...ok({ id: String(report.id), gif: String(gifId), reason }), code: 202 }
  })

  // WebPs being made, by hash: requests for the same one wait for the same conversion.
  const making = new Map<string, Promise<void>>()
  const requestTimeoutMs = opts.requestTimeoutMs ?? 0
  /**
   * Makes the WebP within a budget decided before it starts, from the gif's recorded size
   * and frames: first its time on a libvips lane (admitted against what is left of the
   * deadline, as the one owner of every WebP conversion), then on it its memory
   * (webpMemoryBytes, from IMAGE_MEMORY), waited for only as long as the conversion can
   * still end by the first asker's deadline (its estimated time, as the scheduler reckons
   * it). 503 WORK_BUSY with Retry-After when either does not come in time. The lane comes
   * first, as for image conversions: a job holding memory never waits for a lane.
   */
  async function makeWebp (gif: GifRecord, elapsedMs: number): Promise<void> {
    const hash = gif.hash!
    const bytes = webpMemoryBytes(gif)
    const job = { kind: 'gif-webp', units: webpUnits(gif) }
    const startedAt = performance.now()
    await opts.work.run('libvips', job, { signal: NEVER_ABORTED, busy: 'WORK_BUSY', owner: WEBP_OWNER, elapsedMs }, async (lane) => {
      const patienceMs = requestTimeoutMs - elapsedMs - (performance.now() - startedAt) - opts.work.estimateMs('libvips', job)
      try {
        await lane.reserve(bytes, requestTimeoutMs > 0 ? AbortSignal.timeout(Math.max(1, Math.floor(patienceMs))) : undefined)
      } catch (err) {
        // About the time the conversions holding the memory now take to end.
        const retryAfter = Math.max(MIN_RETRY_AFTER_SECONDS, Math.ceil(opts.work.stats.libvips.drainMs / 1000))
        throw new AppError('WORK_BUSY', `The WebP of this gif needs about ${Math.round(bytes / 1024 / 1024)} MB of IMAGE_MEMORY, held by other conversions until the request's deadline: retry after ${retryAfter} s`, {
          headers: { 'retry-after': String(retryAfter) },
          details: { retryAfter, memoryBytes: bytes },
          cause: err
        })
      }
      const gifBytes = await opts.files.read(hash)
      if (gifBytes === undefined) throw new AppError('GIF_FILE_NOT_FOUND')
      await opts.files.putDerived(hash, 'webp', await gifToAnimatedWebp(gifBytes))
    })
  }
  /** The gif's WebP on this machine, made first when missing (admitted as heavy work, off the event loop). */
  async function webpFile (gif: GifRecord, elapsedMs: number): Promise<OpenGifFile> {
    const hash = gif.hash!
    const stored = await opts.files.openDerived(hash, 'webp')
    if (stored !== undefined) return stored
    let job = making.get(hash)
    if (job === undefined) {
      job = makeWebp(gif, elapsedMs).finally(() => making.delete(hash))
      making.set(hash, job)
    }
    await job
    const made = await opts.files.openDerived(hash, 'webp')
    if (made === undefined) throw new AppError('GIF_FILE_NOT_FOUND')
    return made
  }

  app.route({
    method: ['GET', 'HEAD'],
    url: `${FILES_PATH}/:file`,
    // STORE_UNAVAILABLE: a file this instance holds no copy of, PostgreSQL not answering (docs/operations-faults.md).
    // WORK_BUSY: a WebP not made yet, and the heavy work's queue too long to make it in time.
    config: { public: true, anyOrigin: true, images: ['image/gif', WEBP_CONTENT_TYPE], errors: ['GIF_FILE_NOT_FOUND', 'RANGE_NOT_SATISFIABLE', 'STORE_UNAVAILABLE', 'WORK_BUSY'] },
    schema: {
      tags: ['gifs'],
      summary: 'A gif file (public, no key)',
      description: 'The image/gif bytes of a gif named by its SHA-256, as linked by GET /sfw/gif/{imageType}; `<sha256>.webp`: the same gif as an animated WebP ' +
        '(lossless, made on its first request and kept; 503 `WORK_BUSY` with Retry-After when the server is too busy to make it now). ' +
        'Immutable: strong ETag (the hash), Last-Modified, a year of caching, 304 on If-None-Match / If-Modified-Since, ' +
        'single byte ranges (206, 416). The gif\'s attribution, when known, in `X-Anime-Name`, `X-Artist`, `X-Artist-Url` and `X-Source-Url` (percent-encoded UTF-8). ' +
        'A hidden gif answers 404. Errors are the JSON envelope.',
      params: Type.Object({ file: Type.String({ description: 'The hash then the format: `<sha256>.gif` or `<sha256>.webp`', examples: ['3f5a….gif'] }) })
    },
    async handler (request, reply) {
      // The name is only ever matched against a hex hash: nothing from the URL reaches
      // the file system; the path is built from the catalog's hash.
      const [, hash, format] = FILE_NAME_PATTERN.exec(request.params.file) ?? []
      const gif = hash !== undefined && HASH_PATTERN.test(hash) ? await opts.store.findByHash(hash) : undefined
      // A hidden gif's file answers as if it were gone (nothing is deleted until `gifs remove`).
      if (!gif || gif.hash === null || gif.hidden) throw new AppError('GIF_FILE_NOT_FOUND')
      const webp = format === 'webp'
      if (webp && !webpOffered(gif)) throw new AppError('GIF_FILE_NOT_FOUND', `This gif is not offered as WebP (more than ${WEBP_MAX_PIXELS / 1e6} million pixels over its frames): use its .gif URL`)

      // The WebP's validator is the GIF's hash and the format: the same build makes the same bytes from it.
      const etag = webp ? `"${gif.hash}.webp"` : `"${gif.hash}"`
      const lastModified = gif.addedAt.toUTCString()
      const common = { etag, 'last-modified': lastModified, 'cache-control': IMMUTABLE_CACHE }

      if (fresh(request.headers, common)) {
        return reply.code(304).headers(common).send()
      }
      // A WebP is opened (made on its first request) before its size is known.
      const opened = webp ? await webpFile(gif, reply.elapsedTime) : undefined
      const size = opened?.size ?? gif.size

      // Hand-written rather than @fastify/send, which serves at the same rate but opens
      // by path: it follows a link put in place of a gif and waits for ever on a FIFO,
      // where the file store's open() refuses both (docs/gifs.md, "Performance").
      let start = 0
      let end = size - 1
      let partial = false
      const range = request.headers.range
      if (range !== undefined && size > 0 && rangeApplies(String(request.headers['if-range'] ?? '') || undefined, etag, gif.addedAt)) {
        const parsed = rangeParser(size, range, { combine: true })
        if (parsed === -1) {
          await opened?.close()
          throw new AppError('RANGE_NOT_SATISFIABLE', undefined, { headers: { 'content-range': `bytes */${size}` } })
        }
        // Malformed ranges (-2) and several ranges are answered with the whole file
        // (RFC 9110 §14.2 lets a server ignore Range).
        if (parsed !== -2 && parsed.type === 'bytes' && parsed.length === 1) {
          start = parsed[0]!.start
          end = parsed[0]!.end
          partial = true
        }
      }

      let stream: fs.ReadStream | undefined
      if (opened !== undefined) {
        if (request.method === 'GET') stream = opened.handle.createReadStream({ start, end })
        else await opened.close()
      } else if (request.method === 'GET') {
        const file = await opts.files.open(gif.hash).catch((err: unknown) => {
          request.log.warn({ err, hash: gif.hash }, 'gif file listed in the catalog cannot be opened')
          return null
        })
        if (!file) {
          if (file === undefined) request.log.warn({ hash: gif.hash }, 'gif file listed in the catalog is not stored')
          throw new AppError('GIF_FILE_NOT_FOUND')
        }
        stream = file.handle.createReadStream({ start, end })
      }

      reply.headers(common)
      reply.headers(attributionHeaders(gif))
      reply.header('accept-ranges', 'bytes')
      reply.header('x-content-type-options', 'nosniff')
      reply.type(webp ? WEBP_CONTENT_TYPE : gif.contentType)
      reply.header('content-length', String(end - start + 1))
      if (partial) reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`)
      return reply.send(stream)
    }
  })
}

/** If-Range: the range applies only when the validator still matches (RFC 9110 §13.1.5). */
function rangeApplies (ifRange: string | undefined, etag: string, lastModified: Date): boolean {
  if (ifRange === undefined) return true
  const value = ifRange.trim()
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag
  const date = Date.parse(value)
  return !Number.isNaN(date) && Math.floor(lastModified.getTime() / 1000) === Math.floor(date / 1000)
}
