// The playground shows animated pictures (issue 27), in Debian's chromium against the
// built server: a welcome card whose avatar is an animated GIF on a local image server,
// asked for as output=gif with animated and max_bytes from the page's controls, is shown
// as the GIF the server answered, with every frame (the bytes behind the <img>, read in
// the page), and a max_bytes the picture exceeds shows the X-Image-Reduced header.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import sharp from 'sharp'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, startServerProcess } from '../../support/processes.js'
import { launchBrowser } from './browser.js'

const KEY = 'playground-animated-key-0123456789'
const FRAMES = 6
const DELAY_MS = 80

let server: ServerProcess
let images: http.Server
let origin: string
let browser: Browser
let page: Page
let dataDir: string
const consoleErrors: string[] = []

/** A 96×96 avatar of FRAMES frames, each a different colour with noise (so a small max_bytes must reduce it). */
async function animatedAvatar (): Promise<Buffer> {
  const S = 96
  const data = Buffer.alloc(S * S * 4 * FRAMES)
  let seed = 7
  for (let f = 0; f < FRAMES; f++) {
    for (let p = 0; p < S * S; p++) {
      seed = (seed * 1103515245 + 12345) >>> 0
      const i = (f * S * S + p) * 4
      data[i] = (f * 40 + (seed & 63)) & 255; data[i + 1] = (seed >>> 8) & 255; data[i + 2] = 255 - f * 40; data[i + 3] = 255
    }
  }
  return await sharp(data, { raw: { width: S, height: S * FRAMES, channels: 4, pageHeight: S } }).gif({ delay: Array(FRAMES).fill(DELAY_MS), loop: 0 }).toBuffer()
}

before(async () => {
  const gif = await animatedAvatar()
  images = http.createServer((req, res) => {
    if (req.url === '/avatar.gif') { res.writeHead(200, { 'content-type': 'image/gif' }); res.end(gif); return }
    res.writeHead(404); res.end()
  })
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`
  dataDir = tempDir('uma-playground-animated-')
  // WORK_TIMEOUT_MS 60 s: suites beside this one hold the cores; the limit is not what is tested.
  server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, RATE_LIMIT_MAX: '100000', LOG_LEVEL: 'warn', REMOTE_FETCH_ALLOW: '127.0.0.1', WORK_TIMEOUT_MS: '60000' })
  browser = await launchBrowser()
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  page = await context.newPage()
  await page.route('**/gen/welcome', async (route) => {
    const response = await route.fetch()
    const bytes = await response.body()
    let sent: Record<string, string> = {}
    try { sent = JSON.parse(route.request().postData() ?? '{}') as Record<string, string> } catch { /* not JSON: matches nothing */ }
    answers.push({ sent, status: response.status(), type: String(response.headers()['content-type']), bytes })
    // The page may have aborted it meanwhile (a newer edit): nothing to fulfil then.
    await route.fulfill({ response, body: bytes }).catch(() => {})
  })
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()) })
  page.on('pageerror', (err) => consoleErrors.push(String(err)))
})

after(async () => {
  await browser?.close()
  await server?.stop()
  images?.closeAllConnections()
  images?.close()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
})

async function nextPicture (version: number): Promise<number> {
  // A function, not a string: the page's CSP refuses eval.
  await page.waitForFunction((after: number) => {
    const frame = (globalThis as any).document.getElementById('frame')
    return Number(frame.dataset.version) > after && frame.dataset.state === 'ready'
  }, version, { timeout: 120_000 })
  return Number(await page.getAttribute('#frame', 'data-version'))
}

/** Every /gen/welcome answer the page received: its body as sent and the bytes answered. */
const answers: Array<{ sent: Record<string, string>, status: number, type: string, bytes: Buffer }> = []

/**
 * The answer the page shows: the first /gen/welcome answer (after those already seen)
 * whose body `sent` matches, once the page shows a picture of its type and size, from a
 * blob: URL. The answers are read as they pass (page.route), since the page's CSP,
 * connect-src 'self', keeps even a test's script from reading the blob back.
 */
async function shownAnswer (sent: (body: Record<string, string>) => boolean, version: number): Promise<{ bytes: Buffer, type: string }> {
  const seen = answers.length
  let answer: typeof answers[number] | undefined
  const deadline = Date.now() + 120_000
  while ((answer = answers.slice(seen).find((a) => a.status === 200 && sent(a.sent))) === undefined) {
    assert.ok(Date.now() < deadline, 'no such answer within 120 s')
    await page.waitForEvent('requestfinished', { timeout: 120_000 })
  }
  await page.waitForFunction(({ after, size }: { after: number, size: string }) => {
    const frame = (globalThis as any).document.getElementById('frame')
    return Number(frame.dataset.version) > after && frame.dataset.state === 'ready' && frame.dataset.bytes === size
  }, { after: version, size: String(answer.bytes.length) }, { timeout: 120_000 })
  assert.equal(await page.getAttribute('#frame', 'data-type'), answer.type)
  assert.match(await page.getAttribute('#picture', 'src') ?? '', /^blob:/)
  return answer
}

/** Waits until the <img> shows two different pictures: it animates (a still never does). */
async function seenMoving (): Promise<void> {
  const first = await page.locator('#picture').screenshot()
  for (let tries = 0; tries < 100; tries++) {
    const again = await page.locator('#picture').screenshot()
    if (!again.equals(first)) return
  }
  assert.fail('the picture shown never changed: it does not animate')
}

describe('the playground with an animated avatar', () => {
  it('shows output=gif as an animated GIF of the avatar\'s frames', async () => {
    await page.goto(`${server.url}/playground`)
    await page.getByLabel('API key').fill(KEY)
    await page.getByRole('button', { name: 'Use key' }).click()
    const version = await nextPicture(0)
    assert.equal(await page.getAttribute('#frame', 'data-type'), 'image/png', 'the template\'s default before any choice')

    const answer = shownAnswer((b) => b.output === 'gif' && b.animated === 'true' && b.avatar !== undefined, version)
    await page.fill('#field-avatar', `${origin}/avatar.gif`)
    await page.selectOption('#output', 'gif')
    await page.selectOption('#animated', 'true')
    const picture = await answer
    assert.equal(picture.type, 'image/gif')
    const meta = await sharp(picture.bytes, { animated: true }).metadata()
    assert.deepEqual([meta.format, meta.width, meta.pageHeight], ['gif', 1024, 450])
    assert.equal(meta.pages, FRAMES, 'every frame of the avatar')
    assert.deepEqual(meta.delay, Array(FRAMES).fill(DELAY_MS))
    assert.match(await page.textContent('#status') ?? '', /^200 · image\/gif · /)
    await seenMoving()
    assert.equal(await page.isHidden('#reduced'), true, 'nothing reduced within the default max_bytes')
    // The request as code asks for what the page asked for.
    const curl = await page.textContent('#curl') ?? ''
    assert.match(curl, /"output": "gif"/)
    assert.match(curl, /"animated": "true"/)
    assert.match(curl, /-o welcome\.gif/)
  })

  it('shows what max_bytes reduced (X-Image-Reduced), and the picture within it', async () => {
    const version = Number(await page.getAttribute('#frame', 'data-version'))
    const body = { username: 'Ada Lovelace', members: 'Member #42', avatar: `${origin}/avatar.gif`, output: 'gif', animated: 'true', max_bytes: '200000' }
    const direct = await request(`${server.url}/gen/welcome`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    assert.equal(direct.status, 200, direct.body.toString())
    const reduced = String(direct.headers['x-image-reduced'])
    assert.match(reduced, /^colours/, 'the picture is over 200,000 bytes at 256 colours')

    const answer = shownAnswer((b) => b.max_bytes === '200000', version)
    await page.fill('#max-bytes', '200000')
    const picture = await answer
    assert.equal(await page.textContent('#reduced'), `X-Image-Reduced: ${reduced}`)
    assert.equal(await page.isVisible('#reduced'), true)
    assert.equal(picture.type, 'image/gif')
    assert.ok(picture.bytes.length <= 200_000, `${picture.bytes.length} bytes`)
    // Fewer colours are enough at this budget: the picture shown still moves.
    assert.equal(reduced, 'colours')
    assert.equal((await sharp(picture.bytes, { animated: true }).metadata()).pages, FRAMES)
    await seenMoving()
    assert.match(await page.textContent('#curl') ?? '', /"max_bytes": "200000"/)

    // max_bytes cleared: the full animation again, and the note gone.
    const full = shownAnswer((b) => b.max_bytes === undefined && b.output === 'gif', Number(await page.getAttribute('#frame', 'data-version')))
    await page.fill('#max-bytes', '')
    assert.equal((await sharp((await full).bytes, { animated: true }).metadata()).pages, FRAMES)
    assert.equal(await page.isHidden('#reduced'), true)
  })

  it('logged no console error (CSP refusals among them)', () => {
    assert.deepEqual(consoleErrors, [])
  })
})
