// Conversion from a URL (issue 38, item 5) against the built server as a process, the image
// on a local fake remote allowed through REMOTE_FETCH_ALLOW=127.0.0.1: the same answer as an
// upload, and each hostile remote answered with its envelope: a private address, too many
// bytes, a remote that stalls past REMOTE_FETCH_TIMEOUT_MS, not an image, a redirect loop;
// a body and url together refused before the body is read; the download's bytes held in
// the uploads' budget (IMAGE_UPLOAD_MEMORY) before its body arrives; a signed link to a
// conversion of a URL served with no header (the routes are linkable: docs/links.md).
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, startServerProcess, until } from '../../support/processes.js'
import { assertErrorEnvelope } from '../../support/envelope.js'

const KEY = 'convert-url-key-0123456789abcdef'
const MB = 1024 * 1024
const FETCH_TIMEOUT_MS = 2000

describe('/convert/image-* ?url= from the built server', () => {
  let server: ServerProcess
  let remote: http.Server
  let origin: string
  let dataDir: string
  let photo: Buffer
  /** Stalled answers, ended by the test (or by the server giving up on them). */
  const stalled = new Set<http.ServerResponse>()
  const hits: string[] = []

  before(async () => {
    photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3080f0' } }).jpeg().toBuffer()
    remote = http.createServer((req, res) => {
      hits.push(req.url ?? '')
      switch (req.url) {
        case '/photo.jpg':
          res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': photo.length })
          res.end(photo)
          return
        case '/page.html':
          res.writeHead(200, { 'content-type': 'text/html' })
          res.end('<!doctype html><title>not a picture</title>')
          return
        case '/loop':
          res.writeHead(302, { location: '/loop' })
          res.end()
          return
        case '/endless': {
          // No length: more than 15 MB, one megabyte at a time, until the server hangs up.
          res.writeHead(200, { 'content-type': 'image/jpeg' })
          const chunk = Buffer.alloc(MB, 0xff)
          let sent = 0
          const more = (): void => {
            while (sent < 40 && res.write(chunk)) sent++
            if (sent >= 40) res.end()
          }
          res.on('drain', more)
          res.on('close', () => res.off('drain', more))
          more()
          return
        }
        case '/stall':
          // Headers announcing 15 MB, then nothing.
          res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(15 * MB) })
          res.flushHeaders()
          stalled.add(res)
          res.on('close', () => stalled.delete(res))
          return
        default:
          res.writeHead(404)
          res.end()
      }
    })
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`
    dataDir = tempDir('uma-convert-url-')
    server = await startServerProcess({
      DATA_DIR: dataDir,
      API_KEYS: KEY,
      LOG_LEVEL: 'warn',
      REMOTE_FETCH_ALLOW: '127.0.0.1',
      REMOTE_FETCH_TIMEOUT_MS: String(FETCH_TIMEOUT_MS),
      IMAGE_UPLOAD_MEMORY: '16mb',
      RATE_LIMIT_MAX: '1000000'
    })
  })

  after(async () => {
    await server?.stop()
    for (const res of stalled) res.destroy()
    remote?.closeAllConnections()
    remote?.close()
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
  })

  const convert = async (format: string, url: string, init: { method?: string, headers?: Record<string, string>, body?: Buffer } = {}) =>
    await request(`${server.url}/convert/image-${format}?url=${encodeURIComponent(url)}`, { method: init.method ?? 'GET', headers: { authorization: KEY, ...init.headers }, body: init.body })

  it('converts the image at the URL to each format, as an upload would be', async () => {
    for (const [format, type] of [['png', 'image/png'], ['jpg', 'image/jpeg'], ['webp', 'image/webp']]) {
      const res = await convert(format!, `${origin}/photo.jpg`)
      assert.equal(res.status, 200, res.body.toString().slice(0, 300))
      assert.equal(res.headers['content-type'], type)
      assert.equal(Number(res.headers['content-length']), res.body.length)
      assert.deepEqual([res.headers['x-image-width'], res.headers['x-image-height']], ['64', '48'])
      const meta = await sharp(res.body).metadata()
      assert.deepEqual([meta.format, meta.width, meta.height], [format === 'jpg' ? 'jpeg' : format, 64, 48])
    }
    // POST without a body, quality in the query: the same.
    const res = await convert('webp', `${origin}/photo.jpg`, { method: 'POST' })
    assert.equal(res.status, 200, res.body.toString().slice(0, 300))
    assert.equal(res.headers['x-image-quality'], '80')
  })

  it('serves a signed link to a conversion of a URL with no header: the same bytes as the keyed request', async () => {
    const me = await request(`${server.url}/me`, { headers: { authorization: KEY } })
    const { id, secret } = JSON.parse(me.body.toString()).links as { id: string, secret: string }
    const target = `/convert/image-webp?quality=60&url=${encodeURIComponent(`${origin}/photo.jpg`)}`
    const signature = createHmac('sha256', secret).update(`${id}/0${target}`).digest('base64url')
    const linked = await request(`${server.url}/l/${id}/0/${signature}${target}`)
    assert.equal(linked.status, 200, linked.body.toString().slice(0, 300))
    assert.equal(linked.headers['content-type'], 'image/webp')
    const keyed = await request(`${server.url}${target}`, { headers: { authorization: KEY } })
    assert.ok(linked.body.equals(keyed.body), 'the same bytes as the keyed request')
    // A link cannot carry an upload: its body is the conversion's, and the server refuses both.
    const both = `${target}&body=${Buffer.from('"x"').toString('base64url')}`
    const refused = await request(`${server.url}/l/${id}/0/${createHmac('sha256', secret).update(`${id}/0${both}`).digest('base64url')}${both}`)
    assertErrorEnvelope(refused, 400, 'IMAGE_BODY_AND_URL')
  })

  it('refuses a body and url together (400 IMAGE_BODY_AND_URL), before the body is read', async () => {
    const before = hits.length
    for (const headers of [{ 'content-type': 'image/jpeg' }, { 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' }] as Array<Record<string, string>>) {
      const res = await convert('png', `${origin}/photo.jpg`, { method: 'POST', headers, body: photo })
      assertErrorEnvelope(res, 400, 'IMAGE_BODY_AND_URL', { message: /either as the request body or as the url query parameter, not both/ })
    }
    assert.equal(hits.length, before, 'nothing was fetched')
  })

  it('refuses private and loopback addresses outside REMOTE_FETCH_ALLOW without connecting', async () => {
    for (const url of ['http://127.0.0.2:9/photo.jpg', 'http://10.0.0.1/photo.jpg', 'http://[::1]:9/photo.jpg', 'http://169.254.169.254/latest/meta-data/']) {
      const body = assertErrorEnvelope(await convert('png', url), 400, 'REMOTE_FETCH_REFUSED')
      assert.match(body.message, /^url: the URL /)
    }
    assertErrorEnvelope(await convert('png', 'file:///etc/passwd'), 400, 'REMOTE_FETCH_REFUSED', { message: /only http and https/ })
    assertErrorEnvelope(await convert('png', 'not a url'), 400, 'REMOTE_FETCH_REFUSED', { message: /not an absolute URL/ })
  })

  it('stops a URL answering more than 15 MB at that byte (400 REMOTE_FETCH_TOO_LARGE)', async () => {
    const body = assertErrorEnvelope(await convert('webp', `${origin}/endless`), 400, 'REMOTE_FETCH_TOO_LARGE')
    assert.match(body.message, /more than the limit of 15728640 bytes/)
  })

  it('answers a page that is not an image with 400 REMOTE_IMAGE_INVALID naming the URL and the formats', async () => {
    const body = assertErrorEnvelope(await convert('png', `${origin}/page.html`), 400, 'REMOTE_IMAGE_INVALID')
    assert.match(body.message, /^url: the URL http:\/\/127\.0\.0\.1:\d+\/page\.html did not answer with an image this endpoint reads: it must answer JPEG, PNG/)
    assertErrorEnvelope(await convert('png', `${origin}/missing.png`), 400, 'REMOTE_FETCH_FAILED', { message: /answered HTTP 404/ })
  })

  it('gives up on a redirect loop (400 REMOTE_FETCH_FAILED)', async () => {
    assertErrorEnvelope(await convert('png', `${origin}/loop`), 400, 'REMOTE_FETCH_FAILED', { message: /redirected more than 3 times/ })
  })

  it('holds a download\'s announced bytes in the uploads\' budget, and gives up on a stalled remote at REMOTE_FETCH_TIMEOUT_MS', async () => {
    const slow = convert('png', `${origin}/stall`)
    await until(() => stalled.size === 1, 10_000, 'the remote is asked')
    // 15 MB of the 16 MB are held for the download: a 2 MB upload waits in vain, and is
    // refused before its body is read.
    const upload = Buffer.alloc(2 * MB, 1)
    let refused: Awaited<ReturnType<typeof request>> | undefined
    await until(async () => {
      const res = await request(`${server.url}/convert/image-png`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/octet-stream' }, body: upload })
      if (res.status === 503) refused = res
      return refused !== undefined || stalled.size === 0
    }, 10_000, 'an upload refused while the download holds the budget')
    assert.ok(refused !== undefined, 'an upload was refused while the download held the budget')
    assertErrorEnvelope(refused, 503, 'IMAGE_BUSY')
    assert.ok(Number(refused.headers['retry-after']) > 0)
    const body = assertErrorEnvelope(await slow, 400, 'REMOTE_FETCH_TIMEOUT')
    assert.match(body.message, new RegExp(`did not answer within ${FETCH_TIMEOUT_MS} ms`))
    // Given back: the same upload is read now (and answered for what it is: not an image).
    const after = await request(`${server.url}/convert/image-png`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/octet-stream' }, body: upload })
    assertErrorEnvelope(after, 415, 'IMAGE_UNSUPPORTED_FORMAT')
  })
})
