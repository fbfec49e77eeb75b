// Resource limits: the 15 MB limit decided while reading the stream, bounded
// concurrency with a bounded queue (503 + Retry-After past it), and the time limit.
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import type { ImageConfig } from '../../../../src/config.js'
import { testConfig } from '../../../support/config.js'
import { MAX_DISCARD_BYTES, MAX_IMAGE_BYTES } from '../../../../src/conversion/image/upload.js'
import { createTestApp, type TestApp } from '../../../support/helpers.js'
import { multipart, source } from '../../../fixtures/images.js'

const CHUNK = Buffer.alloc(64 * 1024, 0x41)

function imageConfig (overrides: Partial<ImageConfig>): ImageConfig {
  return { ...testConfig('/tmp').image, ...overrides }
}

interface Answer { status: number, headers: http.IncomingHttpHeaders, body: string }

function collect (res: http.IncomingMessage): Promise<Answer> {
  return new Promise((resolve) => {
    let body = ''
    res.setEncoding('utf8')
    res.on('data', (d: string) => { body += d })
    res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    res.on('error', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
  })
}

/** Sends an endless chunked upload on a raw socket, with backpressure, until the server closes or `max` bytes are written. */
async function streamUntilClosed (url: string, headers: Record<string, string>, max: number): Promise<{ closed: boolean, written: number }> {
  const { hostname, port, pathname } = new URL(url)
  const socket = net.connect(Number(port), hostname)
  await new Promise((resolve) => socket.once('connect', resolve))
  let closed = false
  socket.on('close', () => { closed = true })
  socket.on('error', () => {})
  socket.resume()
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')
  socket.write(`POST ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\n${head}Transfer-Encoding: chunked\r\n\r\n`)
  const frame = Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from('\r\n')])
  let written = 0
  // eslint-disable-next-line no-unmodified-loop-condition -- set by the socket's close event
  while (written < max && !closed) {
    written += CHUNK.length
    if (!socket.write(frame)) {
      await new Promise<void>((resolve) => {
        const done = () => { clearInterval(poll); socket.off('drain', done); resolve() }
        // The write may stay blocked once the server stops reading: wake on close too.
        const poll = setInterval(() => { if (closed) done() }, 20)
        socket.once('drain', done)
      })
    }
  }
  socket.destroy()
  return { closed, written }
}

describe('image conversion: the 15 MB limit', () => {
  let t: TestApp
  let base: string
  before(async () => {
    t = await createTestApp()
    base = await t.app.listen({ port: 0, host: '127.0.0.1' })
  })
  after(() => t.close())

  it('refuses a declared Content-Length far over 15 MB with 413 before reading the body', async () => {
    const req = http.request(`${base}/convert/image-png`, { method: 'POST', headers: { ...t.auth, 'content-length': String(MAX_IMAGE_BYTES + MAX_DISCARD_BYTES + 1) } })
    req.on('error', () => {})
    req.flushHeaders()
    const answer = await new Promise<Answer>((resolve) => req.on('response', (res) => collect(res).then(resolve)))
    req.destroy()
    assert.equal(answer.status, 413)
    const body = JSON.parse(answer.body)
    assert.equal(body.error, 'BODY_TOO_LARGE')
    assert.match(body.message, /15 MB/)
    assert.equal(answer.headers.connection, 'close')
  })

  it('answers a client that sends a 20 MB body before reading with the 413 envelope, not a reset', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024, 0x41)
    const form = multipart([{ name: 'file', filename: 'big.jpg', type: 'image/jpeg', data: big }])
    const uploads: Array<[string, Record<string, string>, Buffer]> = [
      ['raw, Content-Length', { 'content-type': 'image/jpeg' }, big],
      ['raw, chunked', { 'content-type': 'image/jpeg', 'transfer-encoding': 'chunked' }, big],
      ['multipart', { 'content-type': form.contentType }, form.body]
    ]
    for (const [name, headers, body] of uploads) {
      const answer = await new Promise<Answer>((resolve, reject) => {
        const req = http.request(`${base}/convert/image-jpg`, { method: 'POST', headers: { ...t.auth, ...headers } })
        req.on('error', reject)
        req.on('response', (res) => collect(res).then(resolve))
        req.end(body)
      })
      assert.equal(answer.status, 413, name)
      assert.equal(JSON.parse(answer.body).error, 'BODY_TOO_LARGE', name)
    }
  })

  it('stops reading an endless upload: 15 MB kept at most, a bounded amount dropped, then the connection closed', async () => {
    for (const contentType of ['application/octet-stream', 'multipart/form-data; boundary=xyz']) {
      const { written, closed } = await streamUntilClosed(`${base}/convert/image-webp`, { ...t.auth, 'content-type': contentType }, 200 * 1024 * 1024)
      assert.ok(closed, `${contentType}: the server kept reading ${written} bytes`)
      // Past the limit and the discarded part, only socket buffers take more.
      assert.ok(written < MAX_IMAGE_BYTES + MAX_DISCARD_BYTES + 24 * 1024 * 1024, `${contentType}: the client wrote ${written} bytes before the server closed`)
    }
  })

  it('refuses a multipart file part over 15 MB with 413', async () => {
    const boundary = 'b0undary'
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`)
    const body = Buffer.concat([head, Buffer.alloc(MAX_IMAGE_BYTES + 10, 1), Buffer.from(`\r\n--${boundary}--\r\n`)])
    const res = await t.app.inject({ method: 'POST', url: '/convert/image-png', headers: { ...t.auth, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: body })
    assert.equal(res.statusCode, 413)
    assert.equal(JSON.parse(res.body).error, 'BODY_TOO_LARGE')
  })

  it('accepts an image of almost exactly 15 MB', async () => {
    // A PNG padded with a private ancillary chunk up to the limit.
    const png = await source().png().toBuffer()
    const pad = MAX_IMAGE_BYTES - png.length - 12
    const chunk = Buffer.alloc(pad + 12)
    chunk.writeUInt32BE(pad, 0)
    chunk.write('zzPd', 4, 'latin1')
    const zlib = await import('node:zlib')
    chunk.writeUInt32BE(zlib.crc32(chunk.subarray(4, 8 + pad)), 8 + pad)
    const padded = Buffer.concat([png.subarray(0, png.length - 12), chunk, png.subarray(png.length - 12)])
    assert.equal(padded.length, MAX_IMAGE_BYTES)
    const res = await t.app.inject({ method: 'POST', url: '/convert/image-jpg', headers: t.auth, payload: padded })
    assert.equal(res.statusCode, 200, res.body.slice(0, 200))
  })
})

describe('image conversion: upload memory', () => {
  it('answers 503 IMAGE_BUSY with Retry-After while the uploads hold IMAGE_UPLOAD_MEMORY, and serves again after', async () => {
    const t = await createTestApp({ config: { image: imageConfig({ concurrency: 1, uploadMemoryBytes: 16 * 1024 * 1024 }) } })
    try {
      const base = await t.app.listen({ port: 0, host: '127.0.0.1' })
      // Request A, sent chunked, holds the largest upload's bytes (15.25 MB of 16): its upload never ends.
      const a = http.request(`${base}/convert/image-png`, { method: 'POST', headers: { ...t.auth, 'transfer-encoding': 'chunked' } })
      a.on('error', () => {})
      const aAnswer = new Promise<Answer>((resolve) => a.on('response', (res) => collect(res).then(resolve)))
      const held = Buffer.alloc(12 * 1024 * 1024, 0x41)
      if (!a.write(held)) await new Promise((resolve) => a.once('drain', resolve))
      // 1 MB more does not fit beside it: refused before its body is read.
      const busy = await t.app.inject({ method: 'POST', url: '/convert/image-png', headers: t.auth, payload: Buffer.alloc(1024 * 1024, 0x42) })
      assert.equal(busy.statusCode, 503)
      assert.equal(busy.headers['retry-after'], '2')
      const body = JSON.parse(busy.body)
      assert.deepEqual([body.success, body.code, body.error], [false, 503, 'IMAGE_BUSY'])
      assert.match(body.message, /Retry-After/)
      a.end()
      assert.equal((await aAnswer).status, 415)
      const after = await t.app.inject({ method: 'POST', url: '/convert/image-png', headers: t.auth, payload: await source().png().toBuffer() })
      assert.equal(after.statusCode, 200)
    } finally {
      await t.close()
    }
  })
})

describe('image conversion: time limit', () => {
  it('stops a conversion that runs past IMAGE_TIMEOUT_MS with 503 IMAGE_TIMEOUT', async () => {
    const t = await createTestApp({ config: { image: imageConfig({ timeoutMs: 1000, concurrency: 1 }) } })
    try {
      // 49 megapixels (under the pixel limit) of one colour: a small file, seconds of WebP encoding.
      const big = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#336699' } }).png({ compressionLevel: 1 }).toBuffer()
      const res = await t.app.inject({ method: 'POST', url: '/convert/image-webp', headers: t.auth, payload: big })
      assert.equal(res.statusCode, 503, res.body.slice(0, 200))
      const body = JSON.parse(res.body)
      assert.equal(body.error, 'IMAGE_TIMEOUT')
      assert.match(body.message, /longer than 1 s/)
    } finally {
      await t.close()
    }
  })
})
