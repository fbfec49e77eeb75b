// The /docs reference in a real browser, loaded through a host name that is neither
// localhost nor PUBLIC_URL (as an operator reaches http://myhost:3000/docs): it draws,
// and "Try it out" works on an operation of each shape: a GET with a query, a POST with a
// JSON body typed in the page, a template (the image shows), an upload, and the GET forms
// of the routes that also take POST.
// Regressions: the page's CSP carried upgrade-insecure-requests (its scripts were asked
// over https, nothing drew) and `servers` held only PUBLIC_URL; the GET forms declared a
// body, so "Try it out" on them failed in the browser ("Request with GET/HEAD method
// cannot have body"), and they were listed before their POST twins.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import type { Browser, Page } from 'playwright-core'
import { startServerProcess, type ServerProcess } from '../../support/processes.js'
import { tempDir } from '../../support/helpers.js'
import { launchBrowser } from './browser.js'

const KEY = 'docs-browser-test-key-0123456789'
const HOST = 'myhost.test'

let server: ServerProcess
let browser: Browser
let page: Page
let dataDir: string
const failedRequests: string[] = []

before(async () => {
  dataDir = tempDir()
  server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn' })
  browser = await launchBrowser([HOST])
  page = await browser.newPage()
  page.on('requestfailed', (r) => failedRequests.push(`${r.url()} ${r.failure()?.errorText ?? ''}`))
  await page.goto(`http://${HOST}:${server.port}/docs/`)
  // Authorize once, as a user would, with the key in the dialog.
  await page.locator('.btn.authorize').first().click()
  await page.locator('.auth-container input').first().fill(KEY)
  await page.locator('.auth-btn-wrapper .authorize').first().click()
  await page.locator('.auth-btn-wrapper .btn-done').first().click()
})

after(async () => {
  await browser?.close()
  await server?.stop()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
})

/** Opens an operation, presses "Try it out", lets `fill` set its inputs, presses Execute; returns the block. */
async function execute (operationId: string, tag: string, fill: (block: ReturnType<Page['locator']>) => Promise<void> = async () => {}) {
  const block = page.locator(`#operations-${tag}-${operationId}`)
  await block.locator('.opblock-summary').first().click()
  await block.locator('.try-out__btn').click()
  await fill(block)
  await block.locator('.execute').click()
  await block.locator('.live-responses-table tbody .response-col_status').first().waitFor()
  return block
}

/** The status and the body the page shows for the executed request of `block`. */
async function shown (block: ReturnType<Page['locator']>): Promise<{ status: string, body: string }> {
  const status = (await block.locator('.live-responses-table tbody .response-col_status').first().innerText()).trim()
  const body = await block.locator('.live-responses-table tbody .response-col_description').first().innerText()
  return { status, body }
}

/** Waits until the image answer shown in `block` has loaded; returns its width. */
async function shownImageWidth (block: ReturnType<Page['locator']>): Promise<number> {
  const img = block.locator('.live-responses-table tbody .response-col_description img')
  await img.waitFor()
  await page.waitForFunction((el) => (el as HTMLImageElement).complete, await img.elementHandle())
  return await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)
}

/** What the GET form of each route that takes GET and POST answers without a body. */
const GET_FORM_ANSWERS: Record<string, { status: string, error?: string }> = {
  '/gen/{template}': { status: '200' },
  '/gen/custom': { status: '200' },
  '/convert/html-markdown': { status: '400', error: 'TEXT_INPUT_MISSING' },
  '/convert/markdown-html': { status: '400', error: 'TEXT_INPUT_MISSING' },
  '/convert/image-png': { status: '400', error: 'EMPTY_BODY' },
  '/convert/image-jpg': { status: '400', error: 'EMPTY_BODY' },
  '/convert/image-webp': { status: '400', error: 'EMPTY_BODY' },
  '/color/image': { status: '400', error: 'EMPTY_BODY' }
}

/** The routes of the served document that take GET and POST alike (GET with a body, for older clients). */
async function twins (): Promise<Array<{ path: string, tag: string, post: string, get: string }>> {
  const doc = await (await fetch(`${server.url}/openapi.json`)).json() as { paths: Record<string, Record<string, { operationId: string, tags: string[] }>> }
  return Object.entries(doc.paths).filter(([, item]) => item.get !== undefined && item.post !== undefined)
    .map(([path, item]) => ({ path, tag: item.post!.tags[0]!, post: item.post!.operationId, get: item.get!.operationId }))
}

describe('/docs from a host name other than localhost', () => {
  it('draws the reference: every group and the operations', async () => {
    assert.ok(!page.url().startsWith('https:'), page.url())
    await page.locator('#operations-colors-getColorRandom').waitFor()
    assert.ok(await page.locator('.opblock').count() >= 25)
    assert.deepEqual(failedRequests, [])
  })

  it('"Try it out" on GET /color/random answers 200 from the page\'s own address', async () => {
    const block = await execute('getColorRandom', 'colors')
    assert.equal((await block.locator('.live-responses-table tbody .response-col_status').first().innerText()).trim(), '200')
    assert.match(await block.locator('.request-url').innerText(), new RegExp(`http://${HOST.replace('.', '\\.')}:${server.port}/color/random`))
    assert.match(await block.locator('.live-responses-table tbody .response-col_description').first().innerText(), /"hex": "#[0-9a-f]{6}"/)
  })

  it('"Try it out" on POST /gen/welcome shows the picture', async () => {
    const block = await execute('genTemplate', 'generation', async (b) => {
      await b.locator('tr[data-param-name="template"] select').selectOption('welcome')
    })
    assert.equal((await block.locator('.live-responses-table tbody .response-col_status').first().innerText()).trim(), '200')
    const img = block.locator('.live-responses-table tbody .response-col_description img')
    await img.waitFor()
    await page.waitForFunction((el) => (el as HTMLImageElement).complete, await img.elementHandle())
    assert.ok(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth) > 0, 'the image answer decodes in the page (blob: allowed)')
  })

  it('"Try it out" on POST /convert/image-png offers a file field and converts the chosen file', async () => {
    const file = path.join(dataDir, 'upload.jpg')
    await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3080f0' } }).jpeg().toFile(file)
    const block = await execute('convertImagePng', 'conversion', async (b) => {
      await b.locator('.opblock-section-request-body select').first().selectOption('multipart/form-data')
      await b.locator('input[type="file"]').first().setInputFiles(file)
    })
    assert.equal((await block.locator('.live-responses-table tbody .response-col_status').first().innerText()).trim(), '200',
      await block.locator('.live-responses-table tbody .response-col_description').first().innerText() + await block.locator('.curl-command').innerText())
    const img = block.locator('.live-responses-table tbody .response-col_description img')
    await img.waitFor()
    await page.waitForFunction((el) => (el as HTMLImageElement).complete, await img.elementHandle())
    assert.equal(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth), 40)
  })

  it('"Try it out" on POST /convert/html-markdown sends the JSON body typed in the page', async () => {
    const block = await execute('convertHtmlMarkdown', 'conversion', async (b) => {
      await b.locator('textarea.body-param__text').fill('{"html": "<h1>Hello from the page</h1>"}')
    })
    const { status, body } = await shown(block)
    assert.equal(status, '200', body)
    assert.match(body, /"markdown": "# Hello from the page\\n/)
  })

  it('lists each route that takes GET and POST with its POST first', async () => {
    const ids = await page.locator('.opblock').evaluateAll((els) => els.map((e) => e.id))
    const routes = await twins()
    assert.deepEqual(routes.map((r) => r.path).sort(), Object.keys(GET_FORM_ANSWERS).sort())
    for (const { tag, path, post, get } of routes) {
      const first = ids.indexOf(`operations-${tag}-${post}`)
      const second = ids.indexOf(`operations-${tag}-${get}`)
      assert.ok(first >= 0 && second >= 0, `${path}: both operations drawn`)
      assert.ok(first < second, `${path}: POST (${first}) before GET (${second})`)
    }
  })

  it('"Try it out" executes every GET form in the browser, without a body, and shows the server\'s answer', async () => {
    const routes = await twins()
    assert.equal(routes.length, Object.keys(GET_FORM_ANSWERS).length)
    for (const { tag, path, get } of routes) {
      const block = await execute(get, tag, async (b) => {
        if (path === '/gen/{template}') {
          await b.locator('tr[data-param-name="template"] select').selectOption('welcome')
          await b.locator('tr[data-param-name="username"] input').fill('Ada')
        }
      })
      const { status, body } = await shown(block)
      const expected = GET_FORM_ANSWERS[path]!
      assert.equal(status, expected.status, `${path}: ${body}`)
      if (expected.error === undefined) {
        assert.ok(await shownImageWidth(block) > 0, `${path}: the image shows`)
      } else {
        // Without a body there is nothing to convert: the server's own envelope, shown as sent.
        assert.match(body, new RegExp(`"error": "${expected.error}"`), path)
      }
      const curl = await block.locator('.curl-command').innerText()
      assert.match(curl, /curl -X 'GET'/, path)
      assert.doesNotMatch(curl, / -d | -F /, `${path}: no body sent`)
      if (path === '/gen/{template}') assert.match(curl, /\/gen\/welcome\?username=Ada/, 'the fields as query parameters')
      // The page says where the body goes instead.
      assert.match(await block.locator('.opblock-description-wrapper').first().innerText(), new RegExp(`POST ${path.replace(/[{}]/g, '\\$&')}`), path)
      // Closed again: every open operation makes each later update of the page slower.
      await block.locator('.opblock-summary').first().click()
    }
    assert.deepEqual(failedRequests, [])
  })
})
