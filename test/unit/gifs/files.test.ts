// The public gif files: caching headers, conditional and range requests, HEAD, and
// paths that try to leave the storage folder.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { sha256 } from '../../../src/store/gif-files.js'
import { gifDirOf } from '../../../src/store/local-gif-files.js'
import { ensureStarterCatalog } from '../../../src/gifs/starter.js'
import { createTestApp, json, type TestApp } from '../../support/helpers.js'
import { assertErrorEnvelope } from '../../support/envelope.js'

let t: TestApp
let url: string
let hash: string
let bytes: Buffer

before(async () => {
  t = await createTestApp()
  await ensureStarterCatalog(t.store.gifs, t.store.gifFiles)
  const body = json(await t.app.inject({ method: 'GET', url: '/sfw/gif/smug', headers: t.auth }))
  url = new URL(body.file).pathname
  hash = /([0-9a-f]{64})\.gif$/.exec(url)![1]!
  bytes = fs.readFileSync(path.join(gifDirOf(t.config.dataDir), `${hash}.gif`))
  // A secret beside the data folder, which no URL may reach.
  fs.writeFileSync(path.join(t.config.dataDir, 'secret.txt'), 'do not serve')
})
after(() => t.close())

/** The error envelope, never cached: a file's 404 today may be there tomorrow. */
function assertUncachedError (res: { statusCode: number, headers: Record<string, unknown>, body: string }, status: number, error: string): void {
  assertErrorEnvelope(res, status, error)
  assert.equal(res.headers['cache-control'], undefined)
}

describe('GET /files/gifs/<hash>.gif', () => {
  it('serves the bytes publicly with immutable caching headers', async () => {
    const res = await t.app.inject({ method: 'GET', url })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'image/gif')
    assert.equal(res.headers['content-length'], String(bytes.length))
    assert.equal(res.headers.etag, `"${hash}"`)
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable')
    assert.equal(res.headers['accept-ranges'], 'bytes')
    assert.ok(!Number.isNaN(Date.parse(String(res.headers['last-modified']))))
    assert.ok(res.rawPayload.equals(bytes))
    assert.equal(sha256(res.rawPayload), hash)
  })

  it('answers HEAD with the headers and no body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'image/gif')
    assert.equal(res.headers['content-length'], String(bytes.length))
    assert.equal(res.headers.etag, `"${hash}"`)
    assert.equal(res.rawPayload.length, 0)
  })

  it('answers 304 to If-None-Match and If-Modified-Since', async () => {
    const first = await t.app.inject({ method: 'GET', url })
    for (const headers of [
      { 'if-none-match': `"${hash}"` },
      { 'if-none-match': `"other", W/"${hash}"` },
      { 'if-none-match': '*' },
      { 'if-modified-since': String(first.headers['last-modified']) }
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers })
      assert.equal(res.statusCode, 304, JSON.stringify(headers))
      assert.equal(res.rawPayload.length, 0)
      assert.equal(res.headers.etag, `"${hash}"`)
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable')
    }
    const stale = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': '"something-else"' } })
    assert.equal(stale.statusCode, 200)
    assert.equal(stale.rawPayload.length, bytes.length)
    const older = await t.app.inject({ method: 'GET', url, headers: { 'if-modified-since': new Date(Date.parse(String(first.headers['last-modified'])) - 86_400_000).toUTCString() } })
    assert.equal(older.statusCode, 200)
  })

  it('answers a byte range with 206 and Content-Range', async () => {
    for (const [range, start, end] of [['bytes=0-9', 0, 9], ['bytes=100-', 100, bytes.length - 1], ['bytes=-50', bytes.length - 50, bytes.length - 1], [`bytes=10-${bytes.length + 500}`, 10, bytes.length - 1]] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers: { range } })
      assert.equal(res.statusCode, 206, range)
      assert.equal(res.headers['content-range'], `bytes ${start}-${end}/${bytes.length}`)
      assert.equal(res.headers['content-length'], String(end - start + 1))
      assert.equal(res.headers['content-type'], 'image/gif')
      assert.ok(res.rawPayload.equals(bytes.subarray(start, end + 1)), range)
    }
  })

  it('answers a range beyond the end with 416, Content-Range and the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${bytes.length}-` } })
    assertUncachedError(res, 416, 'RANGE_NOT_SATISFIABLE')
    assert.equal(res.headers['content-range'], `bytes */${bytes.length}`)
  })

  it('answers the whole file to a malformed range, several ranges, or a stale If-Range', async () => {
    for (const headers of [
      { range: 'bytes=abc' },
      { range: 'pages=1-2' },
      { range: 'bytes=0-1,100-200' },
      { range: 'bytes=0-9', 'if-range': '"not-the-etag"' },
      { range: 'bytes=0-9', 'if-range': 'Wed, 21 Oct 2015 07:28:00 GMT' }
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers })
      assert.equal(res.statusCode, 200, JSON.stringify(headers))
      assert.equal(res.rawPayload.length, bytes.length)
    }
    const current = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-9', 'if-range': `"${hash}"` } })
    assert.equal(current.statusCode, 206)
  })

  it('answers 404 GIF_FILE_NOT_FOUND for names that are not a catalog hash', async () => {
    for (const name of [
      `${'0'.repeat(64)}.gif`,
      `${hash.toUpperCase()}.gif`,
      `${hash}.png`,
      hash,
      `${hash}.gif.gif`,
      '..%2Fsecret.txt',
      '..%2F..%2Fsecret.txt',
      '%2E%2E%2Fsecret.txt',
      '..%5Csecret.txt',
      `..%2Fgifs%2F${hash}.gif`,
      `${hash}.gif%00.txt`,
      '%2Fetc%2Fpasswd'
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/files/gifs/${name}` })
      assertUncachedError(res, 404, 'GIF_FILE_NOT_FOUND')
      assert.ok(!res.body.includes('do not serve'))
    }
  })

  it('never serves anything outside the gif folder, whatever the path', async () => {
    for (const raw of ['/files/gifs/../secret.txt', '/files/gifs/../../secret.txt', '/files/gifs//etc/passwd', '/files/gifs/./../utility-media.sqlite', '/files/secret.txt', '/files/gifs/']) {
      const res = await t.app.inject({ method: 'GET', url: raw })
      assert.ok(res.statusCode === 404, `${raw} answered ${res.statusCode}`)
      assert.match(String(res.headers['content-type']), /^application\/json/)
      assert.ok(!res.body.includes('do not serve'))
      assert.ok(!res.body.startsWith('SQLite'))
    }
  })

  it('answers 404 when the catalog lists a file that is missing on disk', async () => {
    const [gif] = await t.store.gifs.add([{ category: 'hug', hash: 'a'.repeat(64), url: null, size: 10, width: 1, height: 1, frames: 1, contentType: 'image/gif' }])
    try {
      const res = await t.app.inject({ method: 'GET', url: `/files/gifs/${'a'.repeat(64)}.gif` })
      assertUncachedError(res, 404, 'GIF_FILE_NOT_FOUND')
    } finally {
      await t.store.gifs.remove(gif!.id)
    }
  })

  // Regression: a symbolic link put in DATA_DIR/gifs in place of a gif was followed and
  // whatever it named served publicly.
  it('answers 404 for a gif file that is a symbolic link, never what it points to', async () => {
    const hashOfLink = 'b'.repeat(64)
    const [gif] = await t.store.gifs.add([{ category: 'hug', hash: hashOfLink, url: null, size: 12, width: 1, height: 1, frames: 1, contentType: 'image/gif' }])
    const link = path.join(gifDirOf(t.config.dataDir), `${hashOfLink}.gif`)
    fs.symlinkSync(path.join(t.config.dataDir, 'secret.txt'), link)
    try {
      const res = await t.app.inject({ method: 'GET', url: `/files/gifs/${hashOfLink}.gif` })
      assertUncachedError(res, 404, 'GIF_FILE_NOT_FOUND')
      assert.doesNotMatch(res.body, /do not serve/)
    } finally {
      fs.rmSync(link)
      await t.store.gifs.remove(gif!.id)
    }
  })

  it('answers 404 at once for a gif file that is a FIFO', { timeout: 10_000 }, async () => {
    const hashOfFifo = 'd'.repeat(64)
    const [gif] = await t.store.gifs.add([{ category: 'hug', hash: hashOfFifo, url: null, size: 12, width: 1, height: 1, frames: 1, contentType: 'image/gif' }])
    const fifo = path.join(gifDirOf(t.config.dataDir), `${hashOfFifo}.gif`)
    execFileSync('mkfifo', [fifo])
    try {
      assertUncachedError(await t.app.inject({ method: 'GET', url: `/files/gifs/${hashOfFifo}.gif` }), 404, 'GIF_FILE_NOT_FOUND')
    } finally {
      fs.rmSync(fifo)
      await t.store.gifs.remove(gif!.id)
    }
  })

  it('answers 404 for a gif file that is a directory', async () => {
    const hashOfDir = 'c'.repeat(64)
    const [gif] = await t.store.gifs.add([{ category: 'hug', hash: hashOfDir, url: null, size: 12, width: 1, height: 1, frames: 1, contentType: 'image/gif' }])
    const dir = path.join(gifDirOf(t.config.dataDir), `${hashOfDir}.gif`)
    fs.mkdirSync(dir)
    try {
      assertUncachedError(await t.app.inject({ method: 'GET', url: `/files/gifs/${hashOfDir}.gif` }), 404, 'GIF_FILE_NOT_FOUND')
    } finally {
      fs.rmdirSync(dir)
      await t.store.gifs.remove(gif!.id)
    }
  })
})
