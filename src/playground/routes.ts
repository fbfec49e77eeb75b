// The playground (/playground): a page that edits a template's fields or a /gen/custom
// description and shows the picture the API draws. The page is a static bundle built
// from web/playground/ by scripts/build-web.mjs into dist/web/playground/; this module
// serves it, publicly and under a strict CSP, and describes the templates' fields for
// it. The page holds no key: the visitor pastes one, the browser keeps it
// (localStorage) and sends it only to this server's API, in the Authorization header.
import path from 'node:path'
import type { FastifyPluginAsync } from 'fastify'
import { AppError } from '../errors.js'
import { ok } from '../http/envelope.js'
import { createPageBundle, PAGE_CSP, PAGE_FILES, WEB_DIST_DIR } from '../http/page-bundle.js'
import { type FieldDoc, TEMPLATES } from '../generation/template-registry.js'

/** Where the bundle is: the repository's dist/web/playground/. */
export const DEFAULT_BUNDLE_DIR = path.join(WEB_DIST_DIR, 'playground')

/** The page's CSP: the one every page of the server is sent with (src/http/page-bundle.ts). */
export const PLAYGROUND_CSP = PAGE_CSP

export type FieldKind = 'text' | 'color' | 'number' | 'image-url' | 'banner' | 'icon' | 'font' | 'select' | 'json'

/**
 * What kind of input a template field wants, from the names the templates share:
 * colours are `background`, `accent*` and `color_*` (each read by colorField), `font`,
 * `banner` and `icon` name /list entries, `avatar` and `album_art` are image URLs; a
 * field with a closed set of values (`locale`, `status`, `theme`) is a select of them; a
 * field the template declares a number or JSON (FieldDoc) is one.
 */
export function fieldKind (name: string, doc?: Pick<FieldDoc, 'values' | 'numeric' | 'json'>): FieldKind {
  // A closed set (locale, status): a select of its values.
  if (doc?.values !== undefined) return 'select'
  if (doc?.json === true) return 'json'
  if (name === 'background' || name.startsWith('color_') || name.startsWith('accent')) return 'color'
  if (name === 'font' || name === 'banner' || name === 'icon') return name
  if (name === 'avatar' || name === 'album_art') return 'image-url'
  if (doc?.numeric === true || ['level', 'rank', 'xp', 'max_xp'].includes(name)) return 'number'
  return 'text'
}

/** The templates and their fields, for the page's form: the same table /gen/{template} draws from. */
export function describeTemplates () {
  return TEMPLATES.map((t) => ({
    name: t.name,
    summary: t.summary,
    defaultFormat: t.defaultFormat,
    fields: Object.entries(t.fields).map(([name, doc]) => ({ name, kind: fieldKind(name, doc), description: doc.description, default: doc.default ?? '', ...(doc.values === undefined ? {} : { options: [...doc.values()] }) })),
    ...(t.example === undefined ? {} : { example: t.example })
  }))
}

export interface PlaygroundOptions {
  /** Tests point this at a bundle of their own. */
  bundleDir?: string
}

export const playgroundRoutes: FastifyPluginAsync<PlaygroundOptions> = async (app, opts) => {
  const bundle = createPageBundle(opts.bundleDir ?? DEFAULT_BUNDLE_DIR, 'PLAYGROUND_NOT_BUILT')

  const config = { public: true, errors: ['PLAYGROUND_NOT_BUILT' as const] }
  const schema = { hide: true }

  app.get('/playground', { config, schema }, async (request, reply) =>
    await bundle.send(request, reply, 'index.html'))

  app.get<{ Params: { file: string } }>('/playground/:file', { config, schema }, async (request, reply) => {
    const name = request.params.file
    if (!Object.hasOwn(PAGE_FILES, name)) throw new AppError('NOT_FOUND', `No playground file named "${name.slice(0, 60)}": the page is at /playground`)
    return await bundle.send(request, reply, name)
  })

  const templates = ok({ templates: describeTemplates() })
  app.get('/playground/templates.json', { config: { public: true }, schema }, async () => templates)
}
