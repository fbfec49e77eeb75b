// The official TypeScript client (clients/typescript, the dist/ it ships, which the client
// test checks against its sources) in a browser: imported as an ES module by a page of the
// server's own origin, it draws a welcome image (bytes that decode in the page), reads the
// answer's rate limit, throws its typed error with the envelope and signs a link. Proves
// "fetch only, no Node API" where it matters.
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { startServerProcess, type ServerProcess } from '../../support/processes.js'
import { tempDir } from '../../support/helpers.js'
import { launchBrowser } from './browser.js'

const KEY = 'client-browser-test-key-0123456789'
const CLIENT_DIR = path.resolve('clients', 'typescript')

let server: ServerProcess
let browser: Browser
let page: Page
let dataDir: string

before(async () => {
  dataDir = tempDir()
  server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn' })
  browser = await launchBrowser()
  page = await browser.newPage()
  // The built module, served to the browser at an address of the server's origin.
  const dist = path.join(CLIENT_DIR, 'dist')
  await page.route(`${server.url}/client/**`, (route) => {
    const file = path.join(dist, path.basename(new URL(route.request().url()).pathname))
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: fs.readFileSync(file, 'utf8') })
  })
  await page.goto(`${server.url}/healthz`)
})

after(async () => {
  await browser?.close()
  await server?.stop()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('the TypeScript client in a browser', () => {
  it('draws a welcome image and reports a failure as UtilityMediaApiError', async () => {
    const result = await page.evaluate(async ({ base, key }) => {
      const { UtilityMediaApi, UtilityMediaApiError, signLink } = await import(`${base}/client/index.js`)
      const api = new UtilityMediaApi({ baseUrl: base, key })
      const png: Uint8Array = await api.genTemplate('welcome', { username: 'Ada' })
      const bitmap = await createImageBitmap(new Blob([png as BlobPart], { type: 'image/png' }))
      let error: { isTyped: boolean, code: string, status: number } | undefined
      try {
        await new UtilityMediaApi({ baseUrl: base, key: 'wrong' }).getColorRandom()
      } catch (err) {
        error = { isTyped: err instanceof UtilityMediaApiError, code: (err as { code: string }).code, status: (err as { status: number }).status }
      }
      const link: string = signLink(base, { id: 'AbCdEfGhIjKlMnOp', secret: 'ls_browser' }, '/gen/welcome?username=Ada', 1900000000)
      return { isBytes: png instanceof Uint8Array, width: bitmap.width, error, limit: (png as Uint8Array & { meta: { rateLimit?: { limit: number } } }).meta.rateLimit?.limit, link }
    }, { base: server.url, key: KEY })
    assert.equal(result.isBytes, true)
    assert.ok(result.width > 0)
    assert.deepEqual(result.error, { isTyped: true, code: 'AUTH_UNKNOWN_KEY', status: 401 })
    assert.equal(result.limit, 100)
    const signature = createHmac('sha256', 'ls_browser').update('AbCdEfGhIjKlMnOp/1900000000/gen/welcome?username=Ada').digest('base64url')
    assert.equal(result.link, `${server.url}/l/AbCdEfGhIjKlMnOp/1900000000/${signature}/gen/welcome?username=Ada`)
  })
})
