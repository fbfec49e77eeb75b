// The console's files (/admin): the built bundle under the same CSP and headers as the
// playground (src/http/page-bundle.ts), no other file of the disk, not in the OpenAPI
// document, and what a missing build says. Whether /admin answers at all (404 while no
// operator token exists) is the admin gate's, tested with the management API.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import { consoleRoutes, DEFAULT_CONSOLE_DIR } from '../../../src/admin/console-routes.js'
import { errorHandlerPlugin } from '../../../src/http/error-handler.js'
import { PAGE_CSP } from '../../../src/http/page-bundle.js'
import { json, tempDir } from '../../support/helpers.js'

async function consoleApp (bundleDir?: string): Promise<FastifyInstance> {
  const app = Fastify({ logger: false })
  await app.register(errorHandlerPlugin)
  await app.register(consoleRoutes, { bundleDir })
  return app
}

let app: FastifyInstance
before(async () => { app = await consoleApp() })
after(() => app.close())

describe('/admin (the operator console page)', () => {
  it('serves the page, its script and its style under the CSP, revalidated by ETag', async () => {
    for (const [url, type, file] of [['/admin', /^text\/html/, 'index.html'], ['/admin/main.js', /^text\/javascript/, 'main.js'], ['/admin/style.css', /^text\/css/, 'style.css']] as const) {
      const res = await app.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 200)}`)
      assert.match(String(res.headers['content-type']), type)
      assert.equal(res.headers['content-security-policy'], PAGE_CSP)
      assert.equal(res.headers['x-content-type-options'], 'nosniff')
      assert.equal(res.headers['referrer-policy'], 'no-referrer')
      assert.equal(res.headers['cache-control'], 'no-cache')
      assert.equal(res.body, fs.readFileSync(path.join(DEFAULT_CONSOLE_DIR, file), 'utf8'), `${url} is the built ${file}`)
      const again = await app.inject({ method: 'GET', url, headers: { 'if-none-match': String(res.headers.etag) } })
      assert.equal(again.statusCode, 304, url)
      assert.equal(again.body, '')
    }
  })

  it('has no inline script, style or handler, and names no other origin', async () => {
    const html = (await app.inject({ method: 'GET', url: '/admin' })).body
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/i, 'an inline script')
    assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=/i, 'inline style or event handler')
    assert.doesNotMatch(html, /https?:\/\//, 'a reference to another origin')
  })

  it('answers other names under /admin with the 404 envelope, never a file of the disk', async () => {
    for (const url of ['/admin/api.js', '/admin/..%2F..%2Fpackage.json', '/admin/index.html.map', '/admin/chart.ts']) {
      const res = await app.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 404, url)
      assert.equal(json(res).error, 'NOT_FOUND')
    }
  })

  it('says how to build the page when the bundle is missing', async () => {
    const empty = tempDir('uma-no-console-')
    const bare = await consoleApp(empty)
    try {
      const res = await bare.inject({ method: 'GET', url: '/admin' })
      assert.equal(res.statusCode, 503)
      const envelope = json(res)
      assert.equal(envelope.error, 'CONSOLE_NOT_BUILT')
      assert.match(envelope.message, /npm run build/)
    } finally {
      await bare.close()
      fs.rmSync(empty, { recursive: true, force: true })
    }
  })
})
