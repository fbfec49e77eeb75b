// An unknown path answers 404 whatever its body, over a socket to the built server: it was
// 404 for a small body and 413 "at most 1 MiB" for a large one, as Fastify's not-found
// handler ran after the body was read within BODY_LIMIT (src/http/error-handler.ts,
// notFoundPlugin). And /convert/image-jpeg, the path people guess from the media type,
// converts as /convert/image-jpg does, without a second entry in the OpenAPI document.
// Issue 26, item 3.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import net from 'node:net'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, startServerProcess } from '../../support/processes.js'

const KEY = 'unknown-path-body-key-0123456789'
const TWO_MB = 2 * 1024 * 1024

interface Answer { status: number, headers: Record<string, string>, body: Buffer }

/** One connection: bytes written when asked, answers read in order (framed by Content-Length). */
function connect (port: number): Promise<{ write: (bytes: Buffer | string) => void, next: () => Promise<Answer>, closed: Promise<void>, end: () => void }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let buffer = Buffer.alloc(0)
    const answers: Answer[] = []
    const waiting: Array<(answer: Answer) => void> = []
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()))
    socket.on('error', () => {})
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n')
        if (end === -1) return
        const head = buffer.subarray(0, end).toString('latin1').split('\r\n')
        const headers = Object.fromEntries(head.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
        const length = Number(headers['content-length'] ?? 0)
        if (buffer.length < end + 4 + length) return
        const answer = { status: Number(head[0]!.split(' ')[1]), headers, body: buffer.subarray(end + 4, end + 4 + length) }
        buffer = buffer.subarray(end + 4 + length)
        const taker = waiting.shift()
        if (taker) taker(answer)
        else answers.push(answer)
      }
    })
    socket.once('error', reject)
    socket.once('connect', () => resolve({
      write: (bytes) => socket.write(bytes),
      next: () => {
        const ready = answers.shift()
        if (ready) return Promise.resolve(ready)
        return new Promise<Answer>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no answer in time; read so far: ${buffer.toString('latin1').slice(0, 300)}`)), 15_000)
          waiting.push((answer) => { clearTimeout(timer); resolve(answer) })
        })
      },
      closed,
      end: () => socket.destroy()
    }))
  })
}

function head (method: string, target: string, headers: Record<string, string | number>): string {
  return [`${method} ${target} HTTP/1.1`, 'Host: localhost', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n') + '\r\n\r\n'
}

function assertNotFound (answer: Answer, path: string): void {
  assert.equal(answer.status, 404, answer.body.toString())
  assert.match(answer.headers['content-type'] ?? '', /^application\/json/)
  const json = JSON.parse(answer.body.toString()) as Record<string, unknown>
  assert.equal(json.success, false)
  assert.equal(json.code, 404)
  assert.equal(json.error, 'NOT_FOUND')
  assert.equal(json.message, `Not found: POST ${path} is not an endpoint of this API. See /docs for the list`)
  assert.equal(typeof json.requestId, 'string')
  assert.equal(answer.headers['x-request-id'], json.requestId)
}

/** Random pixels: a PNG that does not compress, of about `bytes`. */
async function noisyPng (bytes: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt(bytes / 3))
  const pixels = Buffer.alloc(side * side * 3)
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24 ^ (i & 0xff)
  return await sharp(pixels, { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer()
}

describe('unknown paths and bodies, over a socket to the built server', () => {
  let server: ServerProcess
  let dataDir: string
  before(async () => {
    dataDir = tempDir('uma-unknown-path-')
    server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn' })
  })
  after(async () => {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('answers the 404 envelope to a 2 MB body (it was 413 "at most 1 MiB"), before reading it, and keeps the connection', async () => {
    const c = await connect(server.port)
    try {
      c.write(head('POST', '/convert/image-jpeg-typo', { 'Content-Type': 'application/octet-stream', 'Content-Length': TWO_MB }))
      // Answered with not one byte of the body sent: nothing of it was waited for.
      assertNotFound(await c.next(), '/convert/image-jpeg-typo')
      // The body still arrives (most clients send it whole); it is dropped, and the
      // connection serves the next request.
      c.write(Buffer.alloc(TWO_MB, 0x61))
      c.write(head('GET', '/healthz', {}))
      const healthz = await c.next()
      assert.equal(healthz.status, 200, healthz.body.toString())
    } finally {
      c.end()
    }
  })

  it('answers the same 404 whatever the body: small, 2 MB sent with the headers, chunked, none', async () => {
    const path = '/no/such/endpoint'
    const chunked = (size: number): Buffer => Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), Buffer.alloc(size, 0x62), Buffer.from('\r\n0\r\n\r\n')])
    const cases: Array<[string, Buffer]> = [
      ['small', Buffer.concat([Buffer.from(head('POST', path, { 'Content-Type': 'application/json', 'Content-Length': 2 })), Buffer.from('{}')])],
      ['2 MB with the headers', Buffer.concat([Buffer.from(head('POST', path, { 'Content-Type': 'application/json', 'Content-Length': TWO_MB })), Buffer.alloc(TWO_MB, 0x20)])],
      ['2 MB chunked', Buffer.concat([Buffer.from(head('POST', path, { 'Transfer-Encoding': 'chunked' })), chunked(TWO_MB)])],
      ['none', Buffer.from(head('POST', path, {}))]
    ]
    const c = await connect(server.port)
    try {
      for (const [name, bytes] of cases) {
        c.write(bytes)
        const answer = await c.next()
        assertNotFound(answer, path)
        assert.notEqual(answer.headers.connection, 'close', name)
      }
    } finally {
      c.end()
    }
  })

  it('closes the connection after the 404 when the body announced is beyond what is worth dropping', async () => {
    const c = await connect(server.port)
    c.write(head('POST', '/no/such/endpoint', { 'Content-Length': 1024 * 1024 * 1024 }))
    const answer = await c.next()
    assertNotFound(answer, '/no/such/endpoint')
    assert.equal(answer.headers.connection, 'close')
    await c.closed
  })

  it('converts at /convert/image-jpeg as at /convert/image-jpg, a 2 MB upload too', async () => {
    const png = await noisyPng(TWO_MB)
    assert.ok(png.length > TWO_MB, String(png.length))
    for (const path of ['/convert/image-jpeg', '/convert/image-jpg', '/convert/image-jpeg?quality=50']) {
      const res = await request(`${server.url}${path}`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'image/png' }, body: png })
      assert.equal(res.status, 200, `${path}: ${res.body.toString().slice(0, 300)}`)
      assert.equal(res.headers['content-type'], 'image/jpeg')
      assert.deepEqual([...res.body.subarray(0, 3)], [0xff, 0xd8, 0xff])
      assert.equal(res.headers['x-image-width'], String((await sharp(png).metadata()).width))
    }
    // The key and the errors are those of the route it aliases.
    const keyless = await request(`${server.url}/convert/image-jpeg`, { method: 'POST', body: png })
    assert.equal(keyless.status, 401)
    const empty = await request(`${server.url}/convert/image-jpeg`, { method: 'POST', headers: { authorization: KEY } })
    assert.equal(empty.status, 400)
    assert.equal(JSON.parse(empty.body.toString()).error, 'EMPTY_BODY')
  })

  it('keeps /convert/image-jpeg out of the OpenAPI document (one operation for JPEG)', async () => {
    const doc = JSON.parse((await request(`${server.url}/openapi.json`)).body.toString()) as { paths: Record<string, unknown> }
    assert.ok('/convert/image-jpg' in doc.paths)
    assert.equal('/convert/image-jpeg' in doc.paths, false)
  })

  it('stays healthy and logs no error', async () => {
    assert.equal((await request(`${server.url}/healthz`)).status, 200)
    assert.doesNotMatch(server.output(), /"level":(50|60)/)
  })
})
