// The /docs reference in a real browser, loaded through a host name that is neither
// localhost nor PUBLIC_URL (as an operator reaches http://myhost:3000/docs): it draws,
// and "Try it out" works on a JSON route, a template (the image shows) and an upload.
// Regression: the page's CSP carried upgrade-insecure-requests (its scripts were asked
// over https, nothing drew) and `servers` held only PUBLIC_URL.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import type { Browser, Page } from 'playwright-core'
import { startServerProcess, type ServerProcess } from '../processes.js'
import { tempDir } from '../helpers.js'
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
})
