// The colours of a picture (/color/image, issue 40 item 5) against the built server as a
// process, over real sockets: a picture POSTed as bytes, the same picture by GET ?url= from
// a local server allowed through REMOTE_FETCH_ALLOW=127.0.0.1, and the hostile cases each
// answered with its envelope: a PNG bomb's header refused by the gate, a text file, both a
// body and url, no picture at all, a loopback URL outside REMOTE_FETCH_ALLOW, a URL that
// answers HTML, a URL that answers 404, a body over the limit.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { bombPng } from '../../fixtures/images.js'
import { assertErrorEnvelope } from '../../support/envelope.js'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, startServerProcess } from '../../support/processes.js'
import { sendRaw } from '../../support/raw-http.js'

const KEY = 'color-image-key-0123456789abcdef'

describe('/color/image from the built server', () => {
  let server: ServerProcess
  let remote: http.Server
  let origin: string
  let dataDir: string
  let flag: Buffer
  const hits: string[] = []

  before(async () => {
    // A flag: its left two thirds Discord's blurple, the rest white.
    const left = await sharp({ create: { width: 200, height: 150, channels: 3, background: '#5865f2' } }).png().toBuffer()
    flag = await sharp({ create: { width: 300, height: 150, channels: 3, background: '#ffffff' } }).composite([{ input: left, left: 0, top: 0 }]).png().toBuffer()
    remote = http.createServer((req, res) => {
      hits.push(req.url ?? '')
      if (req.url === '/avatar.png') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': flag.length })
        res.end(flag)
      } else if (req.url === '/page.html') {
        res.writeHead(200, { 'content-type': 'text/html' })
        res.end('<!doctype html><title>not a picture</title>')
      } else {
        res.writeHead(404)
        res.end()
      }
    })
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`
    dataDir = tempDir('uma-color-image-')
    server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn', REMOTE_FETCH_ALLOW: '127.0.0.1', RATE_LIMIT_MAX: '1000000' })
  })

  after(async () => {
    await server?.stop()
    remote?.closeAllConnections()
    remote?.close()
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
  })

  const post = async (body: Buffer | string, query = '', headers: Record<string, string> = {}) =>
    await request(`${server.url}/color/image${query}`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/octet-stream', ...headers }, body })
  const get = async (url: string) => await request(`${server.url}/color/image?url=${encodeURIComponent(url)}`, { headers: { authorization: KEY } })

  function assertFlag (res: { status: number, body: Buffer }): void {
    assert.equal(res.status, 200, res.body.toString().slice(0, 300))
    const answer = JSON.parse(res.body.toString())
    assert.equal(answer.success, true)
    assert.equal(answer.dominant.hex, '#5865f2')
    assert.equal(answer.dominant.int, 0x5865f2)
    assert.equal(answer.dominant.name, 'Discord Blurple')
    assert.ok(Math.abs(answer.dominant.share - 2 / 3) < 0.02, String(answer.dominant.share))
    assert.deepEqual(answer.palette.map((c: { hex: string }) => c.hex), ['#5865f2', '#ffffff'])
    assert.equal(answer.textColor.hex, '#ffffff')
    assert.ok(answer.textColor.contrast > 4, String(answer.textColor.contrast))
    assert.ok(Buffer.from(answer.placeholder.thumbhash, 'base64').length > 5)
  }

  it('answers the colours of a picture POSTed as bytes', async () => {
    assertFlag(await post(flag, '', { 'content-type': 'image/png' }))
  })

  it('answers the colours of the picture at a URL, fetched through the fetcher', async () => {
    const before = hits.length
    assertFlag(await get(`${origin}/avatar.png`))
    assert.equal(hits.length, before + 1)
  })

  it('refuses a PNG bomb by its header, a text file, no picture, and a body with url', async () => {
    assertErrorEnvelope(await post(bombPng(30000, 30000)), 400, 'IMAGE_TOO_MANY_PIXELS', { message: /30000×30000/ })
    assertErrorEnvelope(await post('hello, this is a text file and not a picture\n', '', { 'content-type': 'text/plain' }), 415, 'IMAGE_UNSUPPORTED_FORMAT')
    assertErrorEnvelope(await request(`${server.url}/color/image`, { headers: { authorization: KEY } }), 400, 'EMPTY_BODY', { message: /url query parameter/ })
    const before = hits.length
    assertErrorEnvelope(await post(flag, `?url=${encodeURIComponent(`${origin}/avatar.png`)}`), 400, 'IMAGE_BODY_AND_URL')
    assert.equal(hits.length, before, 'nothing fetched')
  })

  it('refuses a body declared over the limit with 413, before reading it', async () => {
    // Headers alone: the answer comes from the declared length (a client still writing
    // its body when the server answers could see EPIPE instead of the answer).
    const head = `POST /color/image HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: ${KEY}\r\nContent-Type: image/png\r\nContent-Length: ${8 * 1024 * 1024 + 1}\r\n\r\n`
    const answer = await sendRaw(server.port, [head], { keepOpen: true })
    assertErrorEnvelope(answer, 413, 'BODY_TOO_LARGE', { message: /at most 8 MB/ })
  })

  it('answers each remote failure with its envelope, a loopback address naming REMOTE_FETCH_ALLOW', async () => {
    assertErrorEnvelope(await get(`${origin}/page.html`), 400, 'REMOTE_IMAGE_INVALID')
    assertErrorEnvelope(await get(`${origin}/missing.png`), 400, 'REMOTE_FETCH_FAILED')
    // 127.0.0.2 is loopback but not in REMOTE_FETCH_ALLOW: refused before connecting.
    assertErrorEnvelope(await get('http://127.0.0.2:1/avatar.png'), 400, 'REMOTE_FETCH_REFUSED', { message: /loopback address.*REMOTE_FETCH_ALLOW/ })
    assertErrorEnvelope(await get('ftp://example.com/a.png'), 400, 'REMOTE_FETCH_REFUSED')
  })
})
