// Each way fetching an image can fail, through the routes: /gen/welcome (avatar,
// banner, icon) and /gen/custom (base, layer n) answer 400 with the JSON envelope, a
// message that starts with the URL's role and names the URL, and the server keeps
// serving afterwards. The image servers are on loopback, allowed through the
// `remoteFetchAllow` setting (REMOTE_FETCH_ALLOW); 127.0.0.2 is not in the allow list.
// Also RENDER_BUSY (503) with a render queue of one slot.
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { parseAllowList } from '../../../src/remote-fetch/address.js'
import { createTestApp, json, type TestApp } from '../../support/helpers.js'

const MAX_BYTES = 4096
const TIMEOUT_MS = 400

let t: TestApp
let server: http.Server
let origin: string
let port: number
let png: Buffer
const hits: string[] = []

before(async () => {
  png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#3366cc' } }).png().toBuffer()
  server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname
    hits.push(p)
    if (p === '/ok.png') { res.writeHead(200, { 'content-type': 'image/png' }); res.end(png); return }
    if (p === '/missing.png') { res.writeHead(404); res.end(); return }
    if (p === '/big.png') { res.writeHead(200, { 'content-type': 'image/png' }); res.end(Buffer.alloc(MAX_BYTES * 4)); return }
    if (p === '/slow.png') { res.writeHead(200, { 'content-type': 'image/png' }); res.write(png.subarray(0, 8)); return }
    if (p === '/page.png') { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<html>not an image</html>'); return }
    if (p === '/away.png') { res.writeHead(302, { location: `http://127.0.0.2:${port}/ok.png` }); res.end(); return }
    res.writeHead(500); res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
  origin = `http://127.0.0.1:${port}`
  t = await createTestApp({ config: { remoteFetchAllow: parseAllowList(['127.0.0.1']), remoteFetchMaxBytes: MAX_BYTES, remoteFetchTimeoutMs: TIMEOUT_MS } })
})
after(async () => { await t.close(); server.closeAllConnections(); server.close() })

interface Failure { name: string, path: string, code: string, why: RegExp }

const FAILURES: Failure[] = [
  { name: 'an HTTP error status', path: '/missing.png', code: 'REMOTE_FETCH_FAILED', why: /answered HTTP 404/ },
  { name: 'a download above REMOTE_FETCH_MAX_BYTES', path: '/big.png', code: 'REMOTE_FETCH_TOO_LARGE', why: new RegExp(`limit of ${MAX_BYTES} bytes`) },
  { name: 'a server slower than REMOTE_FETCH_TIMEOUT_MS', path: '/slow.png', code: 'REMOTE_FETCH_TIMEOUT', why: new RegExp(`within ${TIMEOUT_MS} ms`) },
  { name: 'bytes that are not an image', path: '/page.png', code: 'REMOTE_IMAGE_INVALID', why: /did not answer with an image/ },
  { name: 'a redirect to an address outside the allow list', path: '/away.png', code: 'REMOTE_FETCH_REFUSED', why: /redirected to http:\/\/127\.0\.0\.2.*loopback/ }
]

function assertFetchError (res: { statusCode: number, headers: Record<string, unknown>, body: string }, code: string, role: string, url: string, why: RegExp): void {
  assert.equal(res.statusCode, 400, res.body)
  assert.match(String(res.headers['content-type']), /^application\/json/)
  const body = json(res)
  assert.deepEqual([body.success, body.code, body.error, body.role, body.url], [false, 400, code, role, url])
  assert.ok(body.message.startsWith(`${role}: the URL ${url}`), body.message)
  assert.match(body.message, why)
  assert.equal(typeof body.requestId, 'string')
}

async function assertHealthy (): Promise<void> {
  const res = await t.app.inject({ method: 'GET', url: `/gen/welcome?username=ok&avatar=${encodeURIComponent(`${origin}/ok.png`)}`, headers: t.auth })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.headers['content-type'], 'image/png')
  assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200)
}

describe('remote image failures through the routes', () => {
  for (const f of FAILURES) {
    it(`${f.code}: ${f.name}, as the welcome avatar and as custom layer 1`, async () => {
      const url = `${origin}${f.path}`
      assertFetchError(await t.app.inject({ method: 'GET', url: `/gen/welcome?username=x&avatar=${encodeURIComponent(url)}`, headers: t.auth }), f.code, 'avatar', url, f.why)
      assertFetchError(await t.app.inject({
        method: 'POST',
        url: '/gen/custom',
        headers: t.auth,
        payload: { base: { width: 100, height: 100 }, images: [{ color: 'red', width: 10, height: 10 }, { url, x: 5, y: 5 }] }
      }), f.code, 'layer 1', url, f.why)
      await assertHealthy()
    })
  }

  it('REMOTE_FETCH_REFUSED names the setting that allows the address (REMOTE_FETCH_ALLOW), for the avatar of every template (issue 40)', async () => {
    const before = hits.length
    const refused = `http://127.0.0.2:${port}/ok.png`
    for (const template of ['welcome', 'goodbye', 'rank', 'quote']) {
      const res = await t.app.inject({ method: 'POST', url: `/gen/${template}`, headers: t.auth, payload: { avatar: refused } })
      assertFetchError(res, 'REMOTE_FETCH_REFUSED', 'avatar', refused, /127\.0\.0\.2, .*loopback.*REMOTE_FETCH_ALLOW/)
    }
    assert.equal(hits.length, before)
  })

  it('REMOTE_FETCH_REFUSED: an address outside the allow list and a non-http scheme, without a request sent', async () => {
    const before = hits.length
    const refused = `http://127.0.0.2:${port}/ok.png`
    assertFetchError(await t.app.inject({ method: 'POST', url: '/gen/welcome', headers: t.auth, payload: { avatar: refused } }), 'REMOTE_FETCH_REFUSED', 'avatar', refused, /127\.0\.0\.2, .*loopback/)
    assertFetchError(await t.app.inject({ method: 'POST', url: '/gen/custom', headers: t.auth, payload: { images: [{ color: 'red' }, { url: refused }] } }), 'REMOTE_FETCH_REFUSED', 'layer 1', refused, /loopback/)
    assertFetchError(await t.app.inject({ method: 'POST', url: '/gen/custom', headers: t.auth, payload: { images: [{ url: 'file:///etc/passwd' }] } }), 'REMOTE_FETCH_REFUSED', 'layer 0', 'file:///etc/passwd', /scheme "file"/)
    assert.equal(hits.length, before)
    await assertHealthy()
  })

  it('names the banner, the icon and the custom base by their roles', async () => {
    const url = `${origin}/missing.png`
    for (const role of ['banner', 'icon']) {
      assertFetchError(await t.app.inject({ method: 'POST', url: '/gen/welcome', headers: t.auth, payload: { [role]: url } }), 'REMOTE_FETCH_FAILED', role, url, /HTTP 404/)
    }
    assertFetchError(await t.app.inject({ method: 'POST', url: '/gen/rank', headers: t.auth, payload: { banner: url } }), 'REMOTE_FETCH_FAILED', 'banner', url, /HTTP 404/)
    assertFetchError(await t.app.inject({ method: 'POST', url: '/gen/custom', headers: t.auth, payload: { base: { url } } }), 'REMOTE_FETCH_FAILED', 'base', url, /HTTP 404/)
    await assertHealthy()
  })
})

describe('render queue through the routes', () => {
  it('does not hold a render slot while an image downloads (a slow avatar does not block other pictures)', async () => {
    let arrived!: () => void
    const held = new Promise<void>((resolve) => { arrived = resolve })
    let release!: () => void
    const released = new Promise<void>((resolve) => { release = resolve })
    const slow = http.createServer((_req, res) => {
      arrived()
      void released.then(() => { res.writeHead(200, { 'content-type': 'image/png' }); res.end(png) })
    })
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve))
    const one = await createTestApp({ config: { workerThreads: 1, remoteFetchAllow: parseAllowList(['127.0.0.1']), remoteFetchTimeoutMs: 30_000 } })
    try {
      let waitingDone = false
      const waiting = one.app.inject({ method: 'GET', url: `/gen/welcome?avatar=${encodeURIComponent(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/a.png`)}`, headers: one.auth })
      void waiting.then(() => { waitingDone = true })
      await held
      const other = await one.app.inject({ method: 'GET', url: '/gen/rank?username=free', headers: one.auth })
      assert.equal(other.statusCode, 200, other.body)
      assert.equal(waitingDone, false, 'the other picture waited for the avatar download')
      release()
      assert.equal((await waiting).statusCode, 200)
    } finally {
      release()
      await one.close()
      slow.closeAllConnections()
      slow.close()
    }
  })

  it('serves a burst of 40 pictures on one thread: work that fits the deadline is queued, not refused', async () => {
    const one = await createTestApp({ config: { workerThreads: 1 } })
    try {
      const payload = { output: 'png', base: { width: 800, height: 800, color: 'navy' }, texts: Array.from({ length: 16 }, (_, i) => ({ text: `line ${i} ${'x'.repeat(30)}`, y: i * 48, size: 40, color: `${i * 15},200,${255 - i * 15}` })) }
      const answers = await Promise.all(Array.from({ length: 40 }, async () => await one.app.inject({ method: 'POST', url: '/gen/custom', headers: one.auth, payload })))
      assert.deepEqual(answers.map((r) => [r.statusCode, r.headers['content-type']]), Array(40).fill([200, 'image/png']))
    } finally {
      await one.close()
    }
  })

  it('answers RENDER_BUSY (503, Retry-After) for what cannot be drawn before the deadline, and serves again afterwards', async () => {
    // A deadline of 3 s: one thread cannot draw 120 of these within it (about 40 ms each
    // when warm). Not shorter: a cold thread (start, canvas, fonts) took 3 s on a loaded
    // machine, and each warm-up stopped at the deadline stops its thread with it.
    const busy = await createTestApp({ config: { workerThreads: 1, requestTimeoutMs: 3000 } })
    try {
      const payload = { output: 'png', base: { width: 800, height: 800, color: 'navy' }, texts: Array.from({ length: 16 }, (_, i) => ({ text: `line ${i} ${'x'.repeat(30)}`, y: i * 48, size: 40, color: `${i * 15},200,${255 - i * 15}` })) }
      // The thread started and its fonts loaded: the burst meets a warm server. On a loaded
      // machine the cold first picture may itself outlast the deadline: warmed again then.
      let warm = 0
      for (let i = 0; i < 5 && warm !== 200; i++) warm = (await busy.app.inject({ method: 'POST', url: '/gen/custom', headers: busy.auth, payload })).statusCode
      assert.equal(warm, 200)
      const answers = await Promise.all(Array.from({ length: 120 }, async () => await busy.app.inject({ method: 'POST', url: '/gen/custom', headers: busy.auth, payload })))
      const statuses = answers.map((r) => r.statusCode)
      assert.deepEqual([...new Set(statuses)].sort(), [200, 503], `statuses: ${statuses.join(' ')}`)
      for (const res of answers.filter((r) => r.statusCode === 503)) {
        assert.match(String(res.headers['content-type']), /^application\/json/)
        const body = json(res)
        // Refused before the work (RENDER_BUSY with its Retry-After), or stopped at the deadline (TIMEOUT).
        assert.ok(['RENDER_BUSY', 'TIMEOUT'].includes(String(body.error)), String(body.error))
        if (body.error === 'RENDER_BUSY') {
          assert.ok(Number(res.headers['retry-after']) >= 1, String(res.headers['retry-after']))
          assert.match(String(body.message), /queued ahead of this request.*retry after \d+ s/)
        }
      }
      assert.ok(answers.some((r) => r.statusCode === 503 && json(r).error === 'RENDER_BUSY'), 'some were refused at once')
      for (const res of answers.filter((r) => r.statusCode === 200)) assert.equal(res.headers['content-type'], 'image/png')
      const again = await busy.app.inject({ method: 'POST', url: '/gen/custom', headers: busy.auth, payload: { base: { width: 10, height: 10 } } })
      assert.equal(again.statusCode, 200, again.body)
    } finally {
      await busy.close()
    }
  })
})
