// The official TypeScript client (clients/typescript/): it compiles with `strict` on its
// own, its generated types match the server's document, it has one method per operation,
// and each method works against the built server started as a process.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { pathToFileURL } from 'node:url'
import openapiTS, { astToString } from 'openapi-typescript'
import sharp, { type Metadata } from 'sharp'
import type * as Client from '../../clients/typescript/src/index.js'
import { createTestApp, json, tempDir } from '../helpers.js'
import { startServerProcess, type ServerProcess } from '../processes.js'

const CLIENT_DIR = path.resolve('clients', 'typescript')
const KEY = 'client-test-key-0123456789abcdef'

let server: ServerProcess
let dataDir: string
let lib: typeof Client
let api: Client.UtilityMediaApi
let doc: any

before(async () => {
  const tsc = spawnSync(process.execPath, [path.resolve('node_modules', 'typescript', 'bin', 'tsc'), '-p', CLIENT_DIR], { encoding: 'utf8' })
  assert.equal(tsc.status, 0, `tsc -p clients/typescript:\n${tsc.stdout}${tsc.stderr}`)
  lib = await import(pathToFileURL(path.join(CLIENT_DIR, 'dist', 'index.js')).href) as typeof Client
  dataDir = tempDir()
  server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn' })
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
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
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
    const fresh = astToString(await openapiTS(doc))
    assert.ok(committed.endsWith(fresh), 'clients/typescript/src/schema.ts is stale: run `npm run generate` in clients/typescript')
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
})
