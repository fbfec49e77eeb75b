// The playground's "Copy link" in a real browser (Debian's chromium, playwright-core)
// against the built server started as a process (issue 38): after a picture is drawn,
// the button mints a signed link for the same request (POST /links, with the pasted key),
// shows it and copies it; the link, fetched by this test with no header, answers the
// picture the page shows, byte for byte. A refused mint shows the envelope's message.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContext, Page, Response } from 'playwright-core'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, startServerProcess } from '../../support/processes.js'
import { launchBrowser } from './browser.js'

const KEY = 'playground-link-key-0123456789'

let server: ServerProcess
let browser: Browser
let context: BrowserContext
let page: Page
let dataDir: string
const consoleErrors: string[] = []

before(async () => {
  dataDir = tempDir('uma-playground-link-')
  server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, RATE_LIMIT_MAX: '100000', LOG_LEVEL: 'warn' })
  browser = await launchBrowser()
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin })
  page = await context.newPage()
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()) })
  page.on('pageerror', (err) => consoleErrors.push(String(err)))
})

after(async () => {
  await browser?.close()
  await server?.stop()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
})

/** Resolves once a picture newer than `version` is shown; returns its version. */
async function nextPicture (version: number): Promise<number> {
  await page.waitForFunction((after: number) => {
    const frame = (globalThis as any).document.getElementById('frame')
    return Number(frame.dataset.version) > after && frame.dataset.state === 'ready'
  }, version, { timeout: 60_000 })
  return Number(await page.getAttribute('#frame', 'data-version'))
}

/** The page's picture request to `path` once answered. */
async function pictureAnswer (path: string): Promise<Response> {
  return await page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === path && r.status() === 200, { timeout: 60_000 })
}

/**
 * The picture the page shows, as the keyed request it sent answers it (the same request
 * sent again by the test: playwright does not keep the body the page read as a blob),
 * checked against the size the page shows.
 */
async function shownBytes (answer: Response): Promise<Buffer> {
  const sent = answer.request()
  const res = await request(sent.url(), { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body: sent.postData() ?? '' })
  assert.equal(res.status, 200, res.body.toString())
  assert.equal(res.headers['content-type'], await page.getAttribute('#frame', 'data-type'))
  assert.equal(res.body.length, Number(await page.getAttribute('#frame', 'data-bytes')), 'the size the page shows')
  return res.body
}

async function linkStatus (pattern: RegExp): Promise<string> {
  await page.waitForFunction((source: string) => new RegExp(source).test((globalThis as any).document.getElementById('link-status')?.textContent ?? ''), pattern.source, { timeout: 60_000 })
  return await page.textContent('#link-status') ?? ''
}

describe('the playground\'s copy link', () => {
  it('mints a link for the picture shown, copies it, and the link answers the same bytes with no header', async () => {
    await page.goto(`${server.url}/playground`)
    assert.equal(await page.isDisabled('#copy-link'), true, 'no picture, no link')
    const drawn = pictureAnswer('/gen/welcome')
    await page.getByLabel('API key').fill(KEY)
    await page.getByRole('button', { name: 'Use key' }).click()
    await nextPicture(0)
    const shown = await shownBytes(await drawn)
    const shownType = await page.getAttribute('#frame', 'data-type')
    assert.equal(shownType, 'image/png')

    const minted = page.waitForResponse((r) => new URL(r.url()).pathname === '/links')
    await page.getByRole('button', { name: 'Copy link' }).click()
    const mint = await minted
    assert.equal(mint.request().headers().authorization, KEY, 'minted with the pasted key')
    assert.equal(mint.status(), 200)
    await linkStatus(/^Link copied/)
    const url = await page.inputValue('#link-url')
    assert.equal(await page.isVisible('#link-url'), true)
    assert.equal(await page.getAttribute('#link-url', 'readonly'), '')
    assert.ok(url.startsWith(`${server.url}/l/`), url)
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), url, 'the clipboard holds the link')
    assert.ok(!url.includes(KEY), 'the key in the link')

    const res = await request(url)
    assert.equal(res.status, 200, res.body.toString())
    assert.equal(res.headers['content-type'], shownType)
    assert.ok(res.body.equals(shown), 'the link answers the picture the page shows')
  })

  it('links the custom description shown too', async () => {
    const version = Number(await page.getAttribute('#frame', 'data-version'))
    const drawn = pictureAnswer('/gen/custom')
    await page.getByLabel('Custom layers (JSON)').check()
    await nextPicture(version)
    const shown = await shownBytes(await drawn)
    assert.equal(await page.isVisible('#link-url'), false, 'the earlier picture\'s link is no longer shown')
    await page.getByRole('button', { name: 'Copy link' }).click()
    await linkStatus(/^Link copied/)
    const res = await request(await page.inputValue('#link-url'))
    assert.equal(res.status, 200, res.body.toString())
    assert.equal(res.headers['content-type'], await page.getAttribute('#frame', 'data-type'))
    assert.ok(res.body.equals(shown))
  })

  it('shows the server\'s message when the link cannot be made', async () => {
    const refusal = { success: false, code: 503, error: 'LINKS_NOT_CONFIGURED', message: 'Links are not configured on this server: set LINK_SIGNING_KEYS' }
    await page.route('**/links', async (route) => {
      await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify(refusal) })
    })
    await page.getByRole('button', { name: 'Copy link' }).click()
    const text = await linkStatus(/^Could not make a link/)
    assert.ok(text.includes(refusal.message) && text.includes('503 LINKS_NOT_CONFIGURED'), text)
    assert.equal(await page.getAttribute('#link-status', 'class'), 'hint bad')
    assert.equal(await page.isDisabled('#copy-link'), false, 'it can be tried again')
    await page.unroute('**/links')
    // The 503 above is logged by the browser; nothing else may be.
    assert.deepEqual(consoleErrors.filter((e) => !/status of 503/.test(e)), [])
  })
})
