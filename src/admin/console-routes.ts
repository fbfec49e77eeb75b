// The operator console (/admin): a page for the operator who sells keys, over the
// management API (/admin/v1/, docs/admin-api.md). A static bundle built from web/console/
// by scripts/build-web.mjs into dist/web/console/, served like the playground (the same
// CSP and headers, src/http/page-bundle.ts). The page holds no secret: the operator
// pastes an operator token, which the browser keeps for the tab (sessionStorage) and
// sends only to this server, in the Authorization header. The files need no token: they
// are the same for everyone; what the page shows, the API answers only to a token.
import path from 'node:path'
import type { FastifyPluginAsync } from 'fastify'
import { AppError } from '../errors.js'
import { createPageBundle, PAGE_FILES, WEB_DIST_DIR } from '../http/page-bundle.js'

/** Where the bundle is: the repository's dist/web/console/. */
export const DEFAULT_CONSOLE_DIR = path.join(WEB_DIST_DIR, 'console')

export interface ConsoleOptions {
  /** Tests point this at a bundle of their own. */
  bundleDir?: string
}

export const consoleRoutes: FastifyPluginAsync<ConsoleOptions> = async (app, opts) => {
  const bundle = createPageBundle(opts.bundleDir ?? DEFAULT_CONSOLE_DIR, 'CONSOLE_NOT_BUILT')
  // Behind the management API's gate (src/admin/gate.ts): 404 while no operator token
  // exists, then served to anyone, as the files hold nothing of the operator's.
  const config = { admin: 'page' as const, cost: 0, errors: ['CONSOLE_NOT_BUILT' as const] }
  const schema = { hide: true }

  app.get('/admin', { config, schema }, async (request, reply) =>
    await bundle.send(request, reply, 'index.html'))

  app.get<{ Params: { file: string } }>('/admin/:file', { config, schema }, async (request, reply) => {
    const name = request.params.file
    if (!Object.hasOwn(PAGE_FILES, name)) throw new AppError('NOT_FOUND', `No console file named "${name.slice(0, 60)}": the console is at /admin`)
    return await bundle.send(request, reply, name)
  })
}
