// The playground page in a real browser (Debian's chromium, driven by playwright-core)
// against the built server started as a process: the key pasted once, a template field
// and a custom layer edited, each new picture checked by its pixels, the server's
// validation message shown beside the editor, nothing sent to another origin.
// Chromium missing fails the suite: CI installs it (scripts/install-system-packages.sh).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, startServerProcess } from '../../support/processes.js'
import { launchBrowser } from './browser.js'

const KEY = 'playground-browser-key-0123456789'
const WRONG_KEY = 'not-a-key-of-this-server-0123456789'
const KEY_STORAGE = 'utility-media-api:playground:key'
const SCREENSHOT = '/tmp/playground.png'
const SCREENSHOT_NARROW = '/tmp/playground-narrow.png'

let server: ServerProcess
let browser: Browser
let context: BrowserContext
let page: Page
let dataDir: string
/** Every request the page made: what leaves the browser, and with which Authorization. */
const sent: Array<{ url: string, authorization: string | undefined }> = []
const consoleErrors: string[] = []

before(async () => {
  dataDir = tempDir('uma-playground-')
  server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, RATE_LIMIT_MAX: '100000', LOG_LEVEL: 'warn' })
  browser = await launchBrowser()
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  context.on('request', (r) => { sent.push({ url: r.url(), authorization: r.headers().authorization }) })
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
  // Predicates as functions: playwright evaluates a string predicate with eval, which
  // the page's CSP (rightly) refuses.
  await page.waitForFunction((after: number) => {
    const frame = (globalThis as any).document.getElementById('frame')
    return Number(frame.dataset.version) > after && frame.dataset.state === 'ready'
  }, version, { timeout: 60_000 })
  return Number(await page.getAttribute('#frame', 'data-version'))
}

/** The shown picture's pixels, read back through a canvas: [r, g, b, a] at (x, y). */
async function pixel (x: number, y: number): Promise<number[]> {
  return await page.evaluate(`(() => {
    const img = document.getElementById('picture')
    const canvas = document.createElement('canvas')
    canvas.width = img.naturalWidth
    canvas.height = img.naturalHeight
    const ctx = canvas.getContext('2d')
    ctx.drawImage(img, 0, 0)
    return Array.from(ctx.getImageData(${x}, ${y}, 1, 1).data)
  })()`)
}

/** A SHA-256 of the picture's pixels in a rectangle, and the picture's size. */
async function region (x: number, y: number, w: number, h: number): Promise<{ hash: string, width: number, height: number }> {
  return await page.evaluate(`(async () => {
    const img = document.getElementById('picture')
    const canvas = document.createElement('canvas')
    canvas.width = img.naturalWidth
    canvas.height = img.naturalHeight
    const ctx = canvas.getContext('2d')
    ctx.drawImage(img, 0, 0)
    const data = ctx.getImageData(${x}, ${y}, ${w}, ${h}).data
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data))
    return { hash: Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join(''), width: img.naturalWidth, height: img.naturalHeight }
  })()`)
}

/** The server's own answer to a body, for comparing with what the page shows. */
async function serverMessage (path: string, body: string): Promise<{ status: number, message: string, error: string }> {
  const res = await request(`${server.url}${path}`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body })
  const envelope = JSON.parse(res.body.toString()) as { message: string, error: string }
  return { status: res.status, message: envelope.message, error: envelope.error }
}

async function shownMessage (expected: string): Promise<void> {
  await page.waitForFunction((text: string) => (globalThis as any).document.getElementById('message-text')?.textContent === text, expected, { timeout: 60_000 })
  assert.equal(await page.isVisible('#message-text'), true)
}

describe('the playground page', () => {
  it('is served without a key, under a strict CSP, with no inline script and no key in its source', async () => {
    const res = await request(`${server.url}/playground`)
    assert.equal(res.status, 200)
    assert.match(String(res.headers['content-type']), /^text\/html/)
    const csp = String(res.headers['content-security-policy'])
    for (const directive of ["script-src 'self'", "style-src 'self'", "img-src 'self' blob: data:", "connect-src 'self'", "default-src 'none'"]) {
      assert.ok(csp.includes(directive), `CSP lacks ${directive}: ${csp}`)
    }
    const html = res.body.toString()
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/i, 'an inline script')
    assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=/i, 'inline style or event handler')
    assert.doesNotMatch(html, /https?:\/\//, 'a reference to another origin')
    for (const file of ['/playground', '/playground/main.js', '/playground/style.css', '/playground/templates.json']) {
      const asset = await request(`${server.url}${file}`)
      assert.equal(asset.status, 200, file)
      assert.ok(!asset.body.toString().includes(KEY), `${file} contains the key`)
    }
    const missing = await request(`${server.url}/playground/secrets.txt`)
    assert.equal(missing.status, 404)
    assert.equal(JSON.parse(missing.body.toString()).error, 'NOT_FOUND')
  })

  it('draws the welcome template after the key is pasted, and redraws when a field changes', async () => {
    await page.goto(`${server.url}/playground`)
    assert.match(await page.textContent('#placeholder') ?? '', /Paste an API key/)
    await page.getByLabel('API key').fill(KEY)
    await page.getByRole('button', { name: 'Use key' }).click()

    let version = await nextPicture(0)
    const first = await region(420, 200, 560, 80)
    assert.deepEqual([first.width, first.height], [1024, 450], 'the welcome banner')
    // Banner, icon and font names, loaded once the key is there, are offered as suggestions.
    for (const kind of ['banners', 'icons', 'fonts']) {
      const listed = JSON.parse((await request(`${server.url}/list/${kind}`, { headers: { authorization: KEY } })).body.toString()).list as string[]
      assert.ok(listed.length > 0)
      await page.waitForSelector(`#list-${kind} option`, { state: 'attached' })
      assert.deepEqual(await page.$$eval(`#list-${kind} option`, (options) => options.map((o) => (o as any).value)), listed, kind)
    }
    assert.equal(await page.getAttribute('#field-banner', 'list'), 'list-banners')

    // The banner's edge shows the background colour, the template's default #23272a.
    assert.deepEqual(await pixel(5, 5), [0x23, 0x27, 0x2a, 255])

    await page.fill('#field-background', '#00ff00')
    version = await nextPicture(version)
    assert.deepEqual(await pixel(5, 5), [0, 255, 0, 255])
    const named = await region(420, 200, 560, 80)
    assert.notEqual(named.hash, first.hash)

    await page.fill('#field-username', 'Grace Hopper')
    await nextPicture(version)
    const renamed = await region(420, 200, 560, 80)
    assert.notEqual(renamed.hash, named.hash, 'the username line changed')
    assert.deepEqual(await pixel(5, 5), [0, 255, 0, 255])

    // The request as code: the page's edits, and never the key.
    const curl = await page.textContent('#curl') ?? ''
    const snippet = await page.textContent('#fetch') ?? ''
    assert.match(curl, /curl -X POST '[^']+\/gen\/welcome'/)
    assert.match(curl, /"username": "Grace Hopper"/)
    assert.match(curl, /"background": "#00ff00"/)
    assert.match(curl, /Authorization: \$API_KEY/)
    assert.match(snippet, /fetch\("http:\/\/127\.0\.0\.1:\d+\/gen\/welcome"/)
    assert.ok(!curl.includes(KEY) && !snippet.includes(KEY), 'a snippet holds the key')

    fs.rmSync(SCREENSHOT, { force: true })
    await page.screenshot({ path: SCREENSHOT, fullPage: true })
    assert.ok(fs.statSync(SCREENSHOT).size > 10_000)
  })

  it('keeps only the latest edit\'s picture: an older request in flight is aborted', async () => {
    const version = Number(await page.getAttribute('#frame', 'data-version'))
    let held: (() => Promise<void>) | undefined
    const heldSeen = new Promise<void>((resolve) => {
      void page.route('**/gen/welcome', async (route) => {
        if (held === undefined) {
          held = async () => { await route.continue().catch(() => {}) }
          resolve()
        } else {
          await route.continue()
        }
      })
    })
    const failed = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/gen/welcome'))
    await page.fill('#field-background', '#0000ff')
    await heldSeen
    await page.fill('#field-background', '#ff0000')
    const aborted = await failed
    assert.match(aborted.failure()?.errorText ?? '', /ABORTED/i)
    await nextPicture(version)
    assert.deepEqual(await pixel(5, 5), [255, 0, 0, 255])
    await held!()
    await page.unroute('**/gen/welcome')
    assert.deepEqual(await pixel(5, 5), [255, 0, 0, 255], 'the older answer never replaced the newer picture')
  })

  it('draws a custom description and redraws when a layer changes', async () => {
    let version = Number(await page.getAttribute('#frame', 'data-version'))
    await page.getByLabel('Custom layers (JSON)').check()
    version = await nextPicture(version)
    const size = await region(0, 0, 1, 1)
    assert.deepEqual([size.width, size.height], [800, 300], 'the example\'s base')
    // A corner no element covers shows the base rectangle's colour.
    assert.deepEqual(await pixel(5, 295), [255, 0, 0, 255])

    const text = await page.inputValue('#custom-json')
    assert.ok(text.includes('"color": "red"'))
    await page.fill('#custom-json', text.replace('"color": "red"', '"color": "blue"'))
    await nextPicture(version)
    assert.deepEqual(await pixel(5, 295), [0, 0, 255, 255])
    assert.match(await page.textContent('#curl') ?? '', /"color": "blue"/)
  })

  it('shows the server\'s validation message beside the editor for an invalid description', async () => {
    const tooWide = JSON.stringify({ output: 'png', base: { width: 5000, height: 100, color: 'blue' } }, null, 2)
    const expected = await serverMessage('/gen/custom', tooWide)
    assert.equal(expected.status, 400)
    await page.fill('#custom-json', tooWide)
    await shownMessage(expected.message)
    assert.match(await page.textContent('#message') ?? '', new RegExp(`400 ${expected.error}`))
    assert.equal(await page.getAttribute('#frame', 'data-state'), 'error')

    const malformed = '{"base": {"color": "blue",}'
    const parseError = await serverMessage('/gen/custom', malformed)
    assert.equal(parseError.error, 'MALFORMED_JSON')
    await page.fill('#custom-json', malformed)
    await shownMessage(parseError.message)

    // A valid description again clears the message.
    const version = Number(await page.getAttribute('#frame', 'data-version'))
    await page.click('#custom-reset')
    await nextPicture(version)
    assert.equal(await page.isHidden('#message'), true)
  })

  it('remembers the key in this browser only: a reload draws without pasting it again', async () => {
    assert.equal(await page.evaluate(`localStorage.getItem(${JSON.stringify(KEY_STORAGE)})`), KEY)
    await page.reload()
    await nextPicture(0)
    assert.ok(!(await page.content()).includes(KEY), 'the key is in the page\'s DOM')
  })

  it('labels every control and fits a narrow screen', async () => {
    const unlabelled = await page.evaluate(`Array.from(document.querySelectorAll('input, select, textarea, button'))
      .filter((el) => !(el.labels && el.labels.length > 0) && !el.getAttribute('aria-label') && !(el.tagName === 'BUTTON' && el.textContent.trim()))
      .map((el) => el.id || el.outerHTML)`)
    assert.deepEqual(unlabelled, [])
    await page.setViewportSize({ width: 380, height: 800 })
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')
    assert.ok(Number(overflow) <= 0, `the page scrolls sideways by ${String(overflow)} px at 380 px`)
    await page.screenshot({ path: SCREENSHOT_NARROW, fullPage: true })
  })

  it('names a refused key, and forgets the key on request', async () => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.getByRole('button', { name: 'Forget' }).click()
    assert.equal(await page.evaluate(`localStorage.getItem(${JSON.stringify(KEY_STORAGE)})`), null)
    assert.match(await page.textContent('#placeholder') ?? '', /Paste an API key/)
    const refused = await request(`${server.url}/gen/custom`, { method: 'POST', headers: { authorization: WRONG_KEY }, body: '{}' })
    const expected = JSON.parse(refused.body.toString()) as { message: string, error: string }
    assert.equal(expected.error, 'AUTH_UNKNOWN_KEY')
    await page.getByLabel('API key').fill(WRONG_KEY)
    await page.getByRole('button', { name: 'Use key' }).click()
    await shownMessage(expected.message)
    assert.match(await page.textContent('#key-status') ?? '', /refused/)
  })

  it('sent nothing to another origin, and the key only in the Authorization header to this server', () => {
    const origin = new URL(server.url).origin
    assert.ok(sent.length > 5)
    for (const r of sent) {
      if (r.url.startsWith('data:') || r.url.startsWith('blob:')) continue
      assert.equal(new URL(r.url).origin, origin, `a request left for ${r.url}`)
      assert.ok(!r.url.includes(KEY), `the key in a URL: ${r.url}`)
      if (r.authorization !== undefined) assert.ok([KEY, WRONG_KEY].includes(r.authorization), 'an Authorization header the visitor did not paste')
    }
    assert.ok(sent.some((r) => r.authorization === KEY && r.url.endsWith('/gen/custom')))
    // The 400 and 401 answers above are logged by the browser; nothing else may be.
    assert.deepEqual(consoleErrors.filter((e) => !/status of 40[01]/.test(e)), [], 'console errors (CSP refusals among them)')
  })
})
