// The playground (/playground): a page that edits a template's fields or a /gen/custom
// description and shows the picture the API draws. The page is a static bundle built
// from web/playground/ by scripts/build-web.mjs into dist/web/playground/; this module
// serves it, publicly and under a strict CSP, and describes the templates' fields for
// it. The page holds no key: the visitor pastes one, the browser keeps it
// (localStorage) and sends it only to this server's API, in the Authorization header.
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyPluginAsync, FastifyReply } from 'fastify'
import { AppError } from '../errors.js'
import { ok } from '../http/envelope.js'
import { TEMPLATES } from '../generation/template-registry.js'

/**
 * Where the bundle is: the repository's dist/web/playground/, reached from this module
 * whether it runs compiled (dist/playground/) or from source under tsx (src/playground/).
 */
export const DEFAULT_BUNDLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'web', 'playground')

/**
 * The page runs only our own script and style, draws blob: URLs of the pictures it
 * fetched, and talks only to this server: an injected script could neither run nor
 * send the key elsewhere.
 */
export const PLAYGROUND_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join('; ')

/** The files of the bundle, by the name the page asks for. */
const FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'main.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8'
}

export type FieldKind = 'text' | 'color' | 'number' | 'image-url' | 'banner' | 'icon' | 'font' | 'select'

/**
 * What kind of input a template field wants, from the names the templates share:
 * colours are `background` and `color_*` (each read by colorField), `font`, `banner`
 * and `icon` name /list entries, `avatar` is an image URL; a field with a closed set of
 * values (`locale`, `status`) is a select of them.
 */
export function fieldKind (name: string, values?: () => readonly string[]): FieldKind {
  // A closed set (locale, status): a select of its values.
  if (values !== undefined) return 'select'
  if (name === 'background' || name.startsWith('color_')) return 'color'
  if (name === 'font' || name === 'banner' || name === 'icon') return name
  if (name === 'avatar') return 'image-url'
  if (['level', 'rank', 'xp', 'max_xp'].includes(name)) return 'number'
  return 'text'
}

/** The templates and their fields, for the page's form: the same table /gen/{template} draws from. */
export function describeTemplates () {
  return TEMPLATES.map((t) => ({
    name: t.name,
    summary: t.summary,
    defaultFormat: t.defaultFormat,
    fields: Object.entries(t.fields).map(([name, doc]) => ({ name, kind: fieldKind(name, doc.values), description: doc.description, default: doc.default ?? '', ...(doc.values === undefined ? {} : { options: [...doc.values()] }) }))
  }))
}

interface Asset { body: Buffer, type: string, etag: string }

export interface PlaygroundOptions {
  /** Tests point this at a bundle of their own. */
  bundleDir?: string
}

export const playgroundRoutes: FastifyPluginAsync<PlaygroundOptions> = async (app, opts) => {
  const dir = opts.bundleDir ?? DEFAULT_BUNDLE_DIR
  // Read on first use, then kept: the files change only with a new build, which
  // restarts the server. A server run from source without a build says how to build.
  const cache = new Map<string, Asset>()
  async function asset (name: string): Promise<Asset> {
    let found = cache.get(name)
    if (found === undefined) {
      const body = await fs.readFile(path.join(dir, name)).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') throw new AppError('PLAYGROUND_NOT_BUILT')
        throw err
      })
      found = { body, type: FILES[name]!, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }
      cache.set(name, found)
    }
    return found
  }

  function send (reply: FastifyReply, ifNoneMatch: string | undefined, file: Asset): FastifyReply {
    reply
      .header('content-security-policy', PLAYGROUND_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      // Revalidated on every load, so a new build shows at once; unchanged files cost a 304.
      .header('cache-control', 'no-cache')
      .header('etag', file.etag)
    if (ifNoneMatch === file.etag) return reply.code(304).send()
    return reply.type(file.type).send(file.body)
  }

  const config = { public: true, errors: ['PLAYGROUND_NOT_BUILT' as const] }
  const schema = { hide: true }

  app.get('/playground', { config, schema }, async (request, reply) =>
    send(reply, request.headers['if-none-match'], await asset('index.html')))

  app.get<{ Params: { file: string } }>('/playground/:file', { config, schema }, async (request, reply) => {
    const name = request.params.file
    if (!Object.hasOwn(FILES, name)) throw new AppError('NOT_FOUND', `No playground file named "${name.slice(0, 60)}": the page is at /playground`)
    return send(reply, request.headers['if-none-match'], await asset(name))
  })

  const templates = ok({ templates: describeTemplates() })
  app.get('/playground/templates.json', { config: { public: true }, schema }, async () => templates)
}
