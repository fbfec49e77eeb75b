// Failed fetches kept briefly for callers that ask (custom emoji, image-fetcher.ts): a
// 404 for FAILURE_TTL_MS, a 5xx or a timeout for TRANSIENT_FAILURE_TTL_MS, at most
// MAX_CACHED_FAILURES of them; other callers (an avatar) fetch every time. The clock is
// the test's; the server counts what reached it.
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { AppError } from '../../../src/errors.js'
import { parseAllowList } from '../../../src/remote-fetch/address.js'
import { createRemoteFetcher } from '../../../src/remote-fetch/fetcher.js'
import { createImageFetcher, FAILURE_TTL_MS, type ImageFetcher, MAX_CACHED_FAILURES, TRANSIENT_FAILURE_TTL_MS } from '../../../src/remote-fetch/image-fetcher.js'

const allow = parseAllowList(['127.0.0.1'])
let server: http.Server
let origin: string
let png: Buffer
/** Requests by path. */
const hits = new Map<string, number>()
/** Paths answered 404 until the test says otherwise. */
let missing = true

before(async () => {
  png = await sharp({ create: { width: 4, height: 4, channels: 4, background: '#ff0000' } }).png().toBuffer()
  server = http.createServer((req, res) => {
    const p = req.url ?? ''
    hits.set(p, (hits.get(p) ?? 0) + 1)
    if (p.startsWith('/missing')) {
      if (missing) { res.writeHead(404); res.end() } else { res.writeHead(200, { 'content-type': 'image/png' }); res.end(png) }
      return
    }
    if (p === '/hang') return // never answers
    if (p === '/text') { res.writeHead(200, { 'content-type': 'text/plain' }); res.end('not an image'); return }
    res.writeHead(503); res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
after(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

function fetcherWithClock (timeoutMs = 5000): { images: ImageFetcher, clock: { ms: number } } {
  const clock = { ms: 1_000_000 }
  return { images: createImageFetcher({ fetcher: createRemoteFetcher({ allow, timeoutMs }), now: () => clock.ms }), clock }
}

async function failure (promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise
  } catch (err) {
    assert.ok(err instanceof AppError, String(err))
    return err
  }
  assert.fail('fetched')
}

const EMOJI = { cacheFailure: true }

describe('failed fetches kept for callers that ask', () => {
  it('a 404 is fetched once within FAILURE_TTL_MS, told with each caller\'s role, and again after it', async () => {
    const { images, clock } = fetcherWithClock()
    const url = `${origin}/missing/1.png`
    const first = await failure(images.fetchImage(url, 'emoji', EMOJI))
    assert.equal(first.code, 'REMOTE_FETCH_FAILED')
    const again = await failure(images.fetchImage(url, 'layer 2', EMOJI))
    assert.equal(again.code, 'REMOTE_FETCH_FAILED')
    assert.equal(again.details?.role, 'layer 2')
    assert.match(again.message, /^layer 2: the URL .* answered HTTP 404$/)
    assert.equal(hits.get('/missing/1.png'), 1)
    clock.ms += FAILURE_TTL_MS - 1
    await failure(images.fetchImage(url, 'emoji', EMOJI))
    assert.equal(hits.get('/missing/1.png'), 1, 'still kept just before FAILURE_TTL_MS')
    clock.ms += 1
    await failure(images.fetchImage(url, 'emoji', EMOJI))
    assert.equal(hits.get('/missing/1.png'), 2, 'fetched again once FAILURE_TTL_MS has passed')
  })

  it('a 5xx and a timeout are kept TRANSIENT_FAILURE_TTL_MS, shorter', async () => {
    assert.ok(TRANSIENT_FAILURE_TTL_MS < FAILURE_TTL_MS)
    const { images, clock } = fetcherWithClock(300)
    const down = `${origin}/down.png`
    assert.equal((await failure(images.fetchImage(down, 'emoji', EMOJI))).code, 'REMOTE_FETCH_FAILED')
    const hang = `${origin}/hang`
    assert.equal((await failure(images.fetchImage(hang, 'emoji', EMOJI))).code, 'REMOTE_FETCH_TIMEOUT')
    // Kept: no request reaches the server, so nothing waits for the deadline.
    assert.equal((await failure(images.fetchImage(hang, 'emoji', EMOJI))).code, 'REMOTE_FETCH_TIMEOUT')
    await failure(images.fetchImage(down, 'emoji', EMOJI))
    assert.deepEqual([hits.get('/down.png'), hits.get('/hang')], [1, 1])
    clock.ms += TRANSIENT_FAILURE_TTL_MS
    await failure(images.fetchImage(down, 'emoji', EMOJI))
    await failure(images.fetchImage(hang, 'emoji', EMOJI))
    assert.deepEqual([hits.get('/down.png'), hits.get('/hang')], [2, 2])
  })

  it('what is not an image is kept FAILURE_TTL_MS', async () => {
    const { images, clock } = fetcherWithClock()
    const url = `${origin}/text`
    assert.equal((await failure(images.fetchImage(url, 'emoji', EMOJI))).code, 'REMOTE_IMAGE_INVALID')
    clock.ms += TRANSIENT_FAILURE_TTL_MS
    await failure(images.fetchImage(url, 'emoji', EMOJI))
    assert.equal(hits.get('/text'), 1)
  })

  it('callers that do not ask (an avatar) fetch every time, and a success forgets the failure', async () => {
    const { images } = fetcherWithClock()
    const url = `${origin}/missing/2.png`
    await failure(images.fetchImage(url, 'avatar'))
    await failure(images.fetchImage(url, 'avatar'))
    assert.equal(hits.get('/missing/2.png'), 2)
    await failure(images.fetchImage(url, 'emoji', EMOJI))
    assert.equal(hits.get('/missing/2.png'), 3)
    missing = false
    try {
      // An avatar does not take the emoji's kept failure: it fetches, and its success is what every caller gets.
      assert.equal((await images.fetchImage(url, 'avatar')).width, 4)
      assert.equal((await images.fetchImage(url, 'emoji', EMOJI)).width, 4)
      assert.equal(hits.get('/missing/2.png'), 4)
    } finally {
      missing = true
    }
  })

  it(`keeps at most MAX_CACHED_FAILURES (${MAX_CACHED_FAILURES}), the oldest going first`, async () => {
    const { images } = fetcherWithClock()
    const url = (i: number): string => `${origin}/missing/many-${i}.png`
    for (let i = 0; i <= MAX_CACHED_FAILURES; i++) await failure(images.fetchImage(url(i), 'emoji', EMOJI))
    await failure(images.fetchImage(url(MAX_CACHED_FAILURES), 'emoji', EMOJI))
    await failure(images.fetchImage(url(1), 'emoji', EMOJI))
    assert.deepEqual([hits.get('/missing/many-1.png'), hits.get(`/missing/many-${MAX_CACHED_FAILURES}.png`)], [1, 1], 'kept')
    await failure(images.fetchImage(url(0), 'emoji', EMOJI))
    assert.equal(hits.get('/missing/many-0.png'), 2, 'the oldest was dropped')
  })
})
