// GET /sfw/gif/{imageType}: a random gif of a category; and the public gif files under
// /files/gifs/<sha256>.gif, which clients put straight into chat embeds, so they are
// served without a key (docs/compatibility.md, "Gif files").
import type fs from 'node:fs'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import fresh from 'fresh'
import rangeParser from 'range-parser'
import { Type } from 'typebox'
import { AppError } from '../errors.js'
import { Envelope, ok } from '../http/envelope.js'
import { closedSet, component } from '../http/openapi-annotations.js'
import { type GifFileStore, HASH_PATTERN } from '../store/gif-files.js'
import type { GifCatalogStore } from '../store/interface.js'
import { createGifCatalog, FILES_PATH, MAX_AMOUNT } from './catalog.js'
import { GIF_TYPES } from './types.js'

/** A file URL never changes its content (it is named by its hash): cache it for a year. */
const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable'
const FILE_NAME_PATTERN = /^([0-9a-f]{64})\.gif$/

export interface GifRoutesOptions {
  store: GifCatalogStore
  /** Where the bytes are (src/store/gif-files.ts). */
  files: GifFileStore
  publicUrl: string
  /** For tests: a fixed random sequence. */
  random?: () => number
}

const GifSchema = component('Gif', Type.Object({
  id: Type.String({ description: 'The gif\'s id: numeric, stable for that gif', examples: ['42'] }),
  file: Type.String({ description: 'Absolute URL of the gif, fetchable without a key', examples: ['https://api.example.com/files/gifs/3f5a….gif'] })
}))

const GifAnswerSchema = component('GifAnswer', Envelope({
  id: GifSchema.properties.id,
  file: GifSchema.properties.file,
  gifs: Type.Optional(Type.Array(GifSchema, { description: 'Only with ?amount: that many distinct gifs (fewer if the category holds fewer), the first being id/file', maxItems: MAX_AMOUNT }))
}))

export const gifRoutes: FastifyPluginAsyncTypebox<GifRoutesOptions> = async (app, opts) => {
  const catalog = createGifCatalog({ store: opts.store, publicUrl: opts.publicUrl, random: opts.random })

  app.get('/sfw/gif/:imageType', {
    config: { errors: ['GIF_UNKNOWN_TYPE', 'GIF_CATEGORY_EMPTY'] },
    schema: {
      tags: ['gifs'],
      summary: 'A random safe-for-work gif of a category',
      description: `Picks uniformly at random among the category's gifs. Types: ${GIF_TYPES.join(', ')}. ` +
        'An unknown type answers 400 (`GIF_UNKNOWN_TYPE`, with `validTypes`); a category without gifs answers 404 (`GIF_CATEGORY_EMPTY`). ' +
        `\`?amount=N\` (1 to ${MAX_AMOUNT}) also answers \`gifs\`, a list of N distinct gifs, for bots that prefetch.`,
      params: Type.Object({
        imageType: closedSet(Type.String({ description: 'The category', examples: ['hug'] }), { values: () => GIF_TYPES })
      }),
      querystring: Type.Object({
        amount: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_AMOUNT, description: 'Answer a list of this many distinct gifs in `gifs`' }))
      }),
      response: { 200: GifAnswerSchema }
    }
  }, async (request) => {
    const amount = request.query.amount
    const gifs = await catalog.random(request.params.imageType, amount ?? 1)
    const first = gifs[0]!
    return amount === undefined ? ok({ id: first.id, file: first.file }) : ok({ id: first.id, file: first.file, gifs })
  })

  app.route({
    method: ['GET', 'HEAD'],
    url: `${FILES_PATH}/:file`,
    // STORE_UNAVAILABLE: a file this instance holds no copy of, PostgreSQL not answering (docs/operations-faults.md).
    config: { public: true, images: ['image/gif'], errors: ['GIF_FILE_NOT_FOUND', 'RANGE_NOT_SATISFIABLE', 'STORE_UNAVAILABLE'] },
    schema: {
      tags: ['gifs'],
      summary: 'A gif file (public, no key)',
      description: 'The image/gif bytes of a gif named by its SHA-256, as linked by GET /sfw/gif/{imageType}. ' +
        'Immutable: strong ETag (the hash), Last-Modified, a year of caching, 304 on If-None-Match / If-Modified-Since, ' +
        'single byte ranges (206, 416). Errors are the JSON envelope.',
      params: Type.Object({ file: Type.String({ description: 'The hash then .gif: `<sha256>.gif`', examples: ['3f5a….gif'] }) })
    },
    async handler (request, reply) {
      // The name is only ever matched against a hex hash: nothing from the URL reaches
      // the file system; the path is built from the catalog's hash.
      const hash = FILE_NAME_PATTERN.exec(request.params.file)?.[1]
      const gif = hash !== undefined && HASH_PATTERN.test(hash) ? await opts.store.findByHash(hash) : undefined
      if (!gif || gif.hash === null) throw new AppError('GIF_FILE_NOT_FOUND')

      const etag = `"${gif.hash}"`
      const lastModified = gif.addedAt.toUTCString()
      const size = gif.size
      const common = { etag, 'last-modified': lastModified, 'cache-control': IMMUTABLE_CACHE }

      if (fresh(request.headers, common)) {
        return reply.code(304).headers(common).send()
      }

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
      if (request.method === 'GET') {
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
      reply.header('accept-ranges', 'bytes')
      reply.header('x-content-type-options', 'nosniff')
      reply.type(gif.contentType)
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
