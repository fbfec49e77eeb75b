// The official TypeScript client (clients/typescript/): it compiles with `strict` on its
// own to exactly the dist/ it ships, its generated types match the server's document, it
// has one method per operation, and each method works against the built server started as
// a process, with each answer's meta (rate limit, X-Image-Reduced) and a conversion from a
// URL (a local image server allowed through REMOTE_FETCH_ALLOW).
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { pathToFileURL } from 'node:url'
import sharp, { type Metadata } from 'sharp'
import { schemaTypes } from '../../../clients/typescript/scripts/schema-types.mjs'
import type * as Client from '../../../clients/typescript/src/index.js'
import { createTestApp, json, tempDir } from '../../support/helpers.js'
import { startServerProcess, type ServerProcess } from '../../support/processes.js'

const CLIENT_DIR = path.resolve('clients', 'typescript')
const KEY = 'client-test-key-0123456789abcdef'

let server: ServerProcess
let dataDir: string
let lib: typeof Client
let api: Client.UtilityMediaApi
let doc: any
/** Compiled from clients/typescript/src now, to compare with the dist/ it ships. */
let fresh: string
let images: http.Server
let imagesOrigin: string

before(async () => {
  fresh = tempDir('uma-client-build-')
  const tsc = spawnSync(process.execPath, [path.resolve('node_modules', 'typescript', 'bin', 'tsc'), '-p', CLIENT_DIR, '--outDir', fresh], { encoding: 'utf8' })
  assert.equal(tsc.status, 0, `tsc -p clients/typescript:\n${tsc.stdout}${tsc.stderr}`)
  lib = await import(pathToFileURL(path.join(CLIENT_DIR, 'dist', 'index.js')).href) as typeof Client
  const photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#20a060' } }).jpeg().toBuffer()
  images = http.createServer((req, res) => {
    if (req.url === '/photo.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo)
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>not an image</p>')
  })
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve))
  imagesOrigin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`
  dataDir = tempDir()
  server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn', REMOTE_FETCH_ALLOW: '127.0.0.1', RATE_LIMIT_MAX: '1000' })
  api = new lib.UtilityMediaApi({ baseUrl: `${server.url}/`, key: KEY })
  const t = await createTestApp()
  try {
    doc = json(await t.app.inject({ method: 'GET', url: '/openapi.json' }))
  } finally {
    await t.close()
  }
})

after(async () => {
  await server?.stop()
  images?.closeAllConnections()
  images?.close()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
  if (fresh) fs.rmSync(fresh, { recursive: true, force: true })
})

function operationIds (): string[] {
  return Object.values<Record<string, any>>(doc.paths).flatMap((item) => Object.values<any>(item).map((op) => op.operationId as string))
}

async function rejection (promise: Promise<unknown>): Promise<Client.UtilityMediaApiError> {
  try {
    await promise
  } catch (err) {
    assert.ok(err instanceof lib.UtilityMediaApiError, String(err))
    return err
  }
  assert.fail('the call succeeded')
}

async function image (bytes: Uint8Array): Promise<Metadata> {
  assert.ok(bytes instanceof Uint8Array)
  return sharp(bytes).metadata()
}

describe('clients/typescript', () => {
  it('its generated types are those of the server\'s current document (npm run generate was run)', async () => {
    const committed = fs.readFileSync(path.join(CLIENT_DIR, 'src', 'schema.ts'), 'utf8')
    const fresh = await schemaTypes(doc)
    assert.ok(committed.endsWith(fresh), 'clients/typescript/src/schema.ts is stale: run `npm run generate` in clients/typescript')
  })

  it('ships in dist/ exactly what its sources compile to (npm run build was run), so installing it needs no build', () => {
    const shipped = fs.readdirSync(path.join(CLIENT_DIR, 'dist')).sort()
    assert.deepEqual(shipped, fs.readdirSync(fresh).sort())
    for (const file of shipped) {
      assert.ok(fs.readFileSync(path.join(CLIENT_DIR, 'dist', file)).equals(fs.readFileSync(path.join(fresh, file))), `clients/typescript/dist/${file} is stale: run \`npm run build\` in clients/typescript`)
    }
  })

  it('has a method per operation, named by its operationId (GET-with-body compatibility forms excepted: fetch cannot send them)', () => {
    const methods = Object.getOwnPropertyNames(lib.UtilityMediaApi.prototype).filter((m) => m !== 'constructor').sort()
    const expected = operationIds().filter((id) => !id.endsWith('ViaGet')).sort()
    assert.deepEqual(methods, expected)
  })

  it('system: health, readiness, the test error as a typed error', async () => {
    assert.deepEqual(await api.getHealthz(), { status: 'ok' })
    assert.equal((await api.getReadyz()).status, 'ready')
    const err = await rejection(api.getGenHtml())
    assert.equal(err.status, 500)
    assert.equal(err.code, 'TEST_ERROR')
    assert.equal(err.envelope.success, false)
    assert.match(err.requestId, /\S/)
    assert.equal((await rejection(api.getGenHtml({ code: 418 }))).status, 418)
  })

  it('a wrong key: UtilityMediaApiError with the envelope', async () => {
    const other = new lib.UtilityMediaApi({ baseUrl: server.url, key: 'not-a-key' })
    const err = await rejection(other.getMe())
    assert.equal(err.status, 401)
    assert.equal(err.code, 'AUTH_UNKNOWN_KEY')
    assert.equal(err.envelope.code, 401)
    assert.equal(err.message, err.envelope.message)
  })

  it('account and colours', async () => {
    const me = await api.getMe()
    assert.equal(me.success, true)
    assert.equal(typeof me.name, 'string')
    assert.equal(typeof me.id, 'string')
    assert.ok(!Number.isNaN(Date.parse(me.created)))
    const root = await api.getRoot()
    assert.equal(root.docs, `${server.url}/docs`)
    const random = await api.getColorRandom({ seed: 'client' })
    assert.match(random.hex, /^#[0-9a-f]{6}$/)
    assert.deepEqual(await api.getColorRandom({ seed: 'client' }), random)
    const info = await api.getColorInfo({ hex: '00ff00' })
    assert.equal(info.hex, '#00ff00')
    assert.equal((await rejection(api.getColorInfo({}))).code, 'COLOR_QUERY_MISSING')
    const picture = await api.colorImage(await sharp({ create: { width: 20, height: 10, channels: 3, background: '#00ff00' } }).png().toBuffer())
    assert.equal(picture.dominant.int, 0x00ff00)
    assert.equal(picture.textColor.hex, '#000000')
    assert.equal((await rejection(api.colorImage(new TextEncoder().encode('not a picture')))).code, 'IMAGE_UNSUPPORTED_FORMAT')
  })

  it('gifs: a random gif, its bytes by URL, its size by HEAD', async () => {
    const gif = await api.getSfwGifImageType('hug', { amount: 2 })
    assert.match(gif.file, /^http:\/\/127\.0\.0\.1:\d+\/files\/gifs\/[0-9a-f]{64}\.gif$/)
    assert.equal(gif.gifs?.length, 2)
    const bytes = await api.getFilesGifsFile(gif.file)
    assert.equal(Buffer.from(bytes.subarray(0, 6)).toString('latin1'), 'GIF89a')
    const head = await api.headFilesGifsFile(gif.file.split('/').pop()!)
    assert.equal(head.size, bytes.length)
    assert.equal(head.contentType, 'image/gif')
    assert.equal((await rejection(api.getFilesGifsFile('0'.repeat(64) + '.gif'))).code, 'GIF_FILE_NOT_FOUND')
  })

  it('gifs: attribution and sizes typed, the types, a WebP, a report', async () => {
    const gif = await api.getSfwGifImageType('pat', { format: 'webp', norepeat: 2 })
    const { anime_name: anime, width, dominant_color: colour } = gif
    assert.equal(anime, null)
    assert.equal(width, 240)
    assert.match(colour ?? '', /^#[0-9a-f]{6}$/)
    assert.match(gif.file, /\.webp$/)
    const webp = await api.getFilesGifsFile(gif.file)
    assert.equal(Buffer.from(webp.subarray(8, 12)).toString('latin1'), 'WEBP')
    const types = await api.getSfwGif()
    assert.equal(types.types.length, 27)
    assert.deepEqual(types.types.find((t) => t.name === 'pat'), { name: 'pat', count: 3, formats: ['gif', 'webp'] })
    const report = await api.postSfwGifIdReport(gif.id, { reason: 'duplicate' })
    assert.deepEqual([report.success, report.code, report.gif, report.reason], [true, 202, gif.id, 'duplicate'])
    assert.equal((await rejection(api.postSfwGifIdReport('999999', { reason: 'other' }))).code, 'GIF_NOT_FOUND')
  })

  it('text conversions', async () => {
    assert.equal((await api.convertHtmlMarkdown('<h1>Hi</h1><p><b>there</b></p>')).markdown, '# Hi\n\n**there**\n')
    const html = await api.convertMarkdownHtml('# Hello World', { headingIds: true })
    assert.match(html.html, /<h1 id="hello-world">Hello World<\/h1>/)
  })

  it('image generation: a template, a custom image, the lists and previews', async () => {
    const welcome = await image(await api.genTemplate('welcome', { username: 'Ada', members: 'Member #42', icon: 'star' }))
    assert.equal(welcome.format, 'png')
    assert.ok(welcome.width! > 0 && welcome.height! > 0)
    const custom = await image(await api.genCustom({ output: 'webp', base: { type: 'bitmap', width: 120, height: 80, color: '#5865f2' }, texts: [{ text: 'Hi', x: 60, y: 20, align: 'm' }] }))
    assert.deepEqual([custom.format, custom.width, custom.height], ['webp', 120, 80])
    const err = await rejection(api.genTemplate('welcome', { color_username: 'not a colour' }))
    assert.equal(err.code, 'INVALID_COLOR')
    assert.equal(err.status, 400)
    const templates = (await api.getListTemplates()).list
    assert.ok(templates.includes('welcome'))
    const banners = (await api.getListBanners()).list
    const icons = (await api.getListIcons()).list
    assert.ok((await api.getListFonts()).list.length > 0)
    assert.equal((await image(await api.getAssetsBannersName(banners[0]!))).format, 'png')
    assert.equal((await image(await api.getAssetsIconsName(icons[0]!))).format, 'png')
  })

  it('image conversion from a Uint8Array, a Blob and an ArrayBuffer', async () => {
    const jpeg = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#3080f0' } }).jpeg().toBuffer()
    assert.equal((await image(await api.convertImagePng(jpeg))).format, 'png')
    assert.equal((await image(await api.convertImageJpg(new Blob([new Uint8Array(jpeg)]), { quality: 50 }))).format, 'jpeg')
    const copy = new Uint8Array(jpeg).buffer
    const webp = await image(await api.convertImageWebp(copy))
    assert.deepEqual([webp.format, webp.width, webp.height], ['webp', 30, 20])
    assert.equal((await rejection(api.convertImagePng(new Uint8Array([1, 2, 3])))).status, 415)
  })

  it('image conversion from a URL the server fetches ({ url }: a string or a URL)', async () => {
    const png = await api.convertImagePng({ url: `${imagesOrigin}/photo.jpg` })
    assert.deepEqual([(await image(png)).format, png.meta.headers.get('x-image-width')], ['png', '40'])
    const webp = await api.convertImageWebp({ url: new URL('/photo.jpg', imagesOrigin) }, { quality: 60 })
    assert.deepEqual([(await image(webp)).format, webp.meta.headers.get('x-image-quality')], ['webp', '60'])
    const err = await rejection(api.convertImageJpg({ url: `${imagesOrigin}/page.html` }))
    assert.deepEqual([err.status, err.code], [400, 'REMOTE_IMAGE_INVALID'])
    assert.equal((await rejection(api.convertImagePng({ url: 'http://10.0.0.1/x.png' }))).code, 'REMOTE_FETCH_REFUSED')
  })

  it('numbers are numbers in template fields (level: 12), and X-Image-Reduced is read from meta', async () => {
    const fields: Client.TemplateFields = { username: 'Ada', level: 12, rank: 3, xp: 420, max_xp: 1000 }
    const card = await api.genTemplate('rank', fields)
    assert.equal((await image(card)).format, 'png')
    assert.deepEqual(card.meta.reduced, [])
    const small = await api.genTemplate('rank', { ...fields, max_bytes: 20_000 })
    assert.ok(small.length <= 20_000, `${small.length} bytes`)
    assert.ok(small.meta.reduced.length > 0, 'something was reduced')
    assert.deepEqual(small.meta.reduced, small.meta.headers.get('x-image-reduced')!.split(','))
  })

  it('locale: the listed locales are its type, and another spelling the server reads (pt-br) type-checks and draws as pt-BR', async () => {
    // Compiled by the repository's tsc (test/ is in tsconfig.json): each line fails to
    // type-check if `locale` is the enum alone (pt-br refused) or a plain string (no pt-BR
    // left in the type for an editor to offer).
    const listed: Extract<Client.TemplateFields['locale'], 'pt-BR'> = 'pt-BR'
    const variant: Client.TemplateFields = { username: 'Ada', level: 12, locale: 'pt-br' }
    const drawn = async (fields: Client.TemplateFields) => Buffer.from(await api.genTemplate('rank', fields))
    const asVariant = await drawn(variant)
    assert.equal((await image(asVariant)).format, 'png')
    assert.ok(asVariant.equals(await drawn({ ...variant, locale: listed })), 'pt-br draws the pt-BR card')
    assert.ok(!asVariant.equals(await drawn({ ...variant, locale: 'en-US' })), 'not the en-US card')
    assert.equal((await rejection(api.genTemplate('rank', { ...variant, locale: 'xx-nope-1' }))).code, 'UNKNOWN_LOCALE')
  })

  it('every answer carries its meta: status, request id, the rate limit after it, one attempt', async () => {
    const me = await api.getMe()
    assert.equal(me.meta.status, 200)
    assert.match(me.meta.requestId ?? '', /\S/)
    assert.equal(me.meta.attempts, 1)
    assert.equal(me.meta.rateLimit?.limit, 1000)
    assert.ok(Number.isInteger(me.meta.rateLimit?.remaining) && Number.isInteger(me.meta.rateLimit?.reset))
    assert.equal(me.meta.quota, undefined)
    assert.ok(!Object.keys(me).includes('meta'), 'not enumerable: JSON.stringify and deepEqual see the body only')
    const bytes = await api.getAssetsIconsName('star')
    assert.equal(bytes.meta.headers.get('content-type'), 'image/png')
    const err = await rejection(api.getColorInfo({}))
    assert.equal(err.meta?.status, 400)
    assert.equal(err.meta?.requestId, err.requestId)
  })
})

describe('clients/typescript: retrying 429 and 503 (a fetch that answers what the test says)', () => {
  /** A fetch answering `answers` in turn, recording what was asked. */
  function scripted (answers: Array<{ status: number, headers?: Record<string, string> }>) {
    const calls: Array<{ url: string, method: string, body: unknown }> = []
    const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      calls.push({ url: String(input), method: init?.method ?? 'GET', body: init?.body })
      const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!
      const body = answer.status === 200 ? JSON.stringify({ status: 'ok' }) : JSON.stringify({ success: false, code: answer.status, message: 'busy', error: answer.status === 429 ? 'RATE_LIMITED' : 'IMAGE_BUSY', requestId: 'r' })
      return new Response(body, { status: answer.status, headers: { 'content-type': 'application/json', ...answer.headers } })
    }
    return { calls, fetch: fetch as typeof globalThis.fetch }
  }

  it('is off by default: a 429 throws at once with retryAfter', async () => {
    const { calls, fetch } = scripted([{ status: 429, headers: { 'retry-after': '0' } }, { status: 200 }])
    const err = await rejection(new lib.UtilityMediaApi({ baseUrl: 'http://api.test', key: 'k', fetch }).getHealthz())
    assert.deepEqual([err.status, err.retryAfter, err.meta?.attempts, calls.length], [429, 0, 1, 1])
  })

  it('on: 429 then 503 are sent again after their Retry-After, the same request each time', async () => {
    const { calls, fetch } = scripted([{ status: 429, headers: { 'retry-after': '0' } }, { status: 503, headers: { 'retry-after': '0' } }, { status: 200 }])
    const client = new lib.UtilityMediaApi({ baseUrl: 'http://api.test', key: 'k', fetch, retry: true })
    const bytes = new Uint8Array([1, 2, 3])
    const answer = await client.convertImagePng(bytes, { quality: 50 })
    assert.equal(answer.meta.attempts, 3)
    assert.deepEqual(calls.map((c) => [c.url, c.method, c.body]), Array(3).fill(['http://api.test/convert/image-png?quality=50', 'POST', bytes]))
  })

  it('on: gives up after `retries`, on a Retry-After above the cap, and without Retry-After', async () => {
    const always = scripted([{ status: 429, headers: { 'retry-after': '0' } }])
    const err = await rejection(new lib.UtilityMediaApi({ baseUrl: 'http://api.test', key: 'k', fetch: always.fetch, retry: { retries: 1 } }).getHealthz())
    assert.deepEqual([err.status, err.meta?.attempts, always.calls.length], [429, 2, 2])
    const long = scripted([{ status: 429, headers: { 'retry-after': '3600' } }, { status: 200 }])
    const quota = await rejection(new lib.UtilityMediaApi({ baseUrl: 'http://api.test', key: 'k', fetch: long.fetch, retry: { maxRetryAfterSeconds: 30 } }).getHealthz())
    assert.deepEqual([quota.retryAfter, long.calls.length], [3600, 1])
    const silent = scripted([{ status: 503 }, { status: 200 }])
    await rejection(new lib.UtilityMediaApi({ baseUrl: 'http://api.test', key: 'k', fetch: silent.fetch, retry: true }).getHealthz())
    assert.equal(silent.calls.length, 1)
    const other = scripted([{ status: 500, headers: { 'retry-after': '0' } }, { status: 200 }])
    await rejection(new lib.UtilityMediaApi({ baseUrl: 'http://api.test', key: 'k', fetch: other.fetch, retry: true }).getHealthz())
    assert.equal(other.calls.length, 1, 'a 500 is not retried')
  })
})
