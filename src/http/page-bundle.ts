// The browser pages the server serves (the playground, the operator console): each a
// static bundle built from web/<page>/ by scripts/build-web.mjs into dist/web/<page>/,
// sent under a strict CSP with an ETag. One mechanism for every page, so that each
// keeps the same headers and the same answer when the checkout was never built.
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError, type ErrorCode } from '../errors.js'

/** The repository's dist/web/, reached from this module whether it runs compiled (dist/http/) or from source under tsx (src/http/). */
export const WEB_DIST_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'web')

/**
 * A page runs only its own script and style, draws blob: URLs of the pictures it
 * fetched, and talks only to this server: an injected script could neither run nor
 * send a key or token elsewhere.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join('; ')

/** The files of every bundle, by the name the page asks for. */
export const PAGE_FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'main.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8'
}

interface Asset { body: Buffer, type: string, etag: string }

export interface PageBundle {
  /** Answers the file `name` of the bundle (one of PAGE_FILES; the caller checks the name). */
  send: (request: FastifyRequest, reply: FastifyReply, name: string) => Promise<FastifyReply>
}

/**
 * The bundle in `dir`; `notBuilt` is the error answered when its files are missing (a
 * server run from source without a build), which says how to build.
 */
export function createPageBundle (dir: string, notBuilt: ErrorCode): PageBundle {
  // Read on first use, then kept: the files change only with a new build, which
  // restarts the server.
  const cache = new Map<string, Asset>()
  async function asset (name: string): Promise<Asset> {
    let found = cache.get(name)
    if (found === undefined) {
      const body = await fs.readFile(path.join(dir, name)).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') throw new AppError(notBuilt)
        throw err
      })
      found = { body, type: PAGE_FILES[name]!, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }
      cache.set(name, found)
    }
    return found
  }

  return {
    async send (request, reply, name) {
      const file = await asset(name)
      reply
        .header('content-security-policy', PAGE_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        // Revalidated on every load, so a new build shows at once; unchanged files cost a 304.
        .header('cache-control', 'no-cache')
        .header('etag', file.etag)
      if (request.headers['if-none-match'] === file.etag) return reply.code(304).send()
      return reply.type(file.type).send(file.body)
    }
  }
}
