// The fetcher end to end against real HTTP servers on loopback. Loopback is refused
// by default, so the tests that must reach a server allow it via the allow list;
// the refusals are proven by the servers' hit counters staying at zero.
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { AppError } from '../../../src/errors.js'
import { parseAllowList } from '../../../src/remote-fetch/address.js'
import { createRemoteFetcher, type Resolver } from '../../../src/remote-fetch/fetcher.js'
import { createImageFetcher } from '../../../src/remote-fetch/image-fetcher.js'

interface TestServer { port: number, hits: string[], close (): Promise<void> }

async function serve (host: string, handler: http.RequestListener): Promise<TestServer> {
  const hits: string[] = []
  const server = http.createServer((req, res) => { hits.push(req.url ?? ''); handler(req, res) })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    async close () { server.closeAllConnections(); await new Promise((resolve) => server.close(resolve)) }
  }
}

let png: Buffer
let hugePng: Buffer
let main: TestServer
let other: TestServer

before(async () => {
  png = await sharp({ create: { width: 4, height: 4, channels: 4, background: '#ff0000' } }).png().toBuffer()
  hugePng = await sharp({ create: { width: 6000, height: 5000, channels: 3, background: '#000' } }).png({ compressionLevel: 9 }).toBuffer()
  main = await serve('127.0.0.1', (req, res) => {
    const url = new URL(req.url!, 'http://x')
    const p = url.pathname
    if (p === '/image.png') { res.writeHead(200, { 'content-type': 'image/png' }); res.end(png); return }
    if (p === '/huge.png') { res.writeHead(200, { 'content-type': 'image/png' }); res.end(hugePng); return }
    if (p === '/text') { res.writeHead(200, { 'content-type': 'text/plain' }); res.end('hello'); return }
    // Not even well-formed XML: librsvg, given it, would fail on it rather than name it.
    if (p === '/broken.svg') { res.writeHead(200, { 'content-type': 'image/svg+xml' }); res.end('<svg xmlns="http://www.w3.org/2000/svg" <<<'); return }
    if (p === '/image.bmp') { res.writeHead(200, { 'content-type': 'image/bmp' }); res.end(Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)])); return }
    if (p === '/missing') { res.writeHead(404); res.end(); return }
    if (p === '/redirect') { res.writeHead(302, { location: url.searchParams.get('to')! }); res.end(); return }
    if (p === '/loop') { res.writeHead(301, { location: '/loop' }); res.end(); return }
    if (p === '/big-declared') { res.writeHead(200, { 'content-length': String(10_000) }); res.end(Buffer.alloc(10_000)); return }
    if (p === '/big-chunked') {
      res.writeHead(200, { 'content-type': 'image/png' })
      for (let i = 0; i < 20; i++) res.write(Buffer.alloc(1000))
      res.end()
      return
    }
    if (p === '/slow-headers') return // never answers
    if (p === '/slow-body') { res.writeHead(200, { 'content-type': 'image/png' }); res.write(png.subarray(0, 10)); return }
    res.writeHead(500); res.end()
  })
  other = await serve('127.0.0.2', (_req, res) => { res.writeHead(200, { 'content-type': 'image/png' }); res.end(png) })
})
after(async () => { await main.close(); await other.close() })

async function refusal (promise: Promise<unknown>, code: string, role: string): Promise<AppError> {
  try {
    await promise
  } catch (err) {
    assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`)
    assert.equal(err.code, code, err.message)
    assert.equal(err.status, 400)
    assert.ok(err.message.startsWith(`${role}: `), err.message)
    assert.equal(err.details?.role, role)
    return err
  }
  assert.fail(`expected ${code}`)
}

describe('remote fetcher: refused by default', () => {
  it('refuses loopback in every spelling without sending a request', async () => {
    const fetcher = createRemoteFetcher({ timeoutMs: 2000 })
    const hosts = ['localhost', 'LocalHost', '127.0.0.1', '127.1', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '2130706433', '0x7f000001', '0177.0.0.1', '0.0.0.0', '0', '[::]']
    for (const host of hosts) {
      const err = await refusal(fetcher.fetch(`http://${host}:${main.port}/image.png`, 'avatar'), 'REMOTE_FETCH_REFUSED', 'avatar')
      assert.match(err.message, /loopback|unspecified|refused addresses/, `${host}: ${err.message}`)
    }
    assert.deepEqual(main.hits, [])
  })

  it('refuses schemes other than http and https, and credentials', async () => {
    const fetcher = createRemoteFetcher()
    for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/x.png', 'data:image/png;base64,AAAA', 'gopher://127.0.0.1:70/', 'javascript:alert(1)', 'not a url', '/relative.png']) {
      await refusal(fetcher.fetch(url, 'banner'), 'REMOTE_FETCH_REFUSED', 'banner')
    }
    await refusal(createRemoteFetcher({ allow: parseAllowList(['127.0.0.1']) }).fetch(`http://u:p@127.0.0.1:${main.port}/image.png`, 'icon'), 'REMOTE_FETCH_REFUSED', 'icon')
    assert.deepEqual(main.hits, [])
  })

  it('refuses a host name that resolves to loopback', async () => {
    const resolve: Resolver = async () => [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }]
    const fetcher = createRemoteFetcher({ resolve })
    const err = await refusal(fetcher.fetch(`http://images.example.com:${main.port}/image.png`, 'layer 3'), 'REMOTE_FETCH_REFUSED', 'layer 3')
    assert.match(err.message, /resolves only to refused addresses: 127\.0\.0\.1/)
    assert.deepEqual(main.hits, [])
  })

  it('refuses a host name resolving to a cloud metadata or private address without connecting', async () => {
    for (const address of ['169.254.169.254', '10.0.0.1', '192.168.1.1', 'fd00::1', '::ffff:169.254.169.254']) {
      const resolve: Resolver = async () => [{ address, family: address.includes(':') ? 6 : 4 }]
      await refusal(createRemoteFetcher({ resolve }).fetch('http://metadata.example/latest', 'avatar'), 'REMOTE_FETCH_REFUSED', 'avatar')
    }
  })
})

describe('remote fetcher: REMOTE_FETCH_ALLOW', () => {
  it('fetches from an allowed address, in any spelling of it', async () => {
    const fetcher = createRemoteFetcher({ allow: parseAllowList(['127.0.0.0/8']) })
    for (const host of ['127.0.0.1', '127.1', '2130706433', '[::ffff:127.0.0.1]']) {
      const got = await fetcher.fetch(`http://${host}:${main.port}/image.png`, 'avatar')
      assert.deepEqual(got.bytes, png)
      assert.equal(got.contentType, 'image/png')
    }
  })

  it('fetches from an allowed host name, whatever it resolves to', async () => {
    const fetcher = createRemoteFetcher({ allow: parseAllowList(['localhost']) })
    const got = await fetcher.fetch(`http://localhost:${main.port}/image.png`, 'avatar')
    assert.deepEqual(got.bytes, png)
  })

  it('refuses a redirect to an address that is not allowed', async () => {
    const fetcher = createRemoteFetcher({ allow: parseAllowList(['127.0.0.1']) })
    const before = other.hits.length
    for (const to of [`http://127.0.0.2:${other.port}/image.png`, `http://[::1]:${other.port}/`, 'http://169.254.169.254/latest/meta-data/', 'file:///etc/passwd']) {
      const err = await refusal(fetcher.fetch(`http://127.0.0.1:${main.port}/redirect?to=${encodeURIComponent(to)}`, 'banner'), 'REMOTE_FETCH_REFUSED', 'banner')
      assert.match(err.message, /redirected to/)
    }
    assert.equal(other.hits.length, before)
    // A redirect within the allowed address is followed.
    const got = await fetcher.fetch(`http://127.0.0.1:${main.port}/redirect?to=/image.png`, 'banner')
    assert.deepEqual(got.bytes, png)
  })

  it('stops after three redirects', async () => {
    const fetcher = createRemoteFetcher({ allow: parseAllowList(['127.0.0.1']) })
    const start = main.hits.length
    const err = await refusal(fetcher.fetch(`http://127.0.0.1:${main.port}/loop`, 'avatar'), 'REMOTE_FETCH_FAILED', 'avatar')
    assert.match(err.message, /more than 3 times/)
    assert.equal(main.hits.length - start, 4)
  })

  it('connects to the address it checked, not to what a second look-up says (DNS rebinding)', async () => {
    let calls = 0
    // First answer: an allowed address; every later one: loopback, which is not allowed.
    const resolve: Resolver = async () => (calls++ === 0 ? [{ address: '127.0.0.2', family: 4 }] : [{ address: '127.0.0.1', family: 4 }])
    const fetcher = createRemoteFetcher({ allow: parseAllowList(['127.0.0.2']), resolve })
    const mainBefore = main.hits.length
    const got = await fetcher.fetch(`http://rebind.example:${other.port}/image.png`, 'avatar')
    assert.deepEqual(got.bytes, png)
    await refusal(fetcher.fetch(`http://rebind.example:${main.port}/image.png`, 'avatar'), 'REMOTE_FETCH_REFUSED', 'avatar')
    assert.equal(main.hits.length, mainBefore)
    assert.equal(calls, 2)
  })
})

describe('remote fetcher: bounds', () => {
  const allow = parseAllowList(['127.0.0.1'])

  it('refuses a download above the size limit, declared or streamed', async () => {
    const fetcher = createRemoteFetcher({ allow, maxBytes: 5000 })
    const declared = await refusal(fetcher.fetch(`http://127.0.0.1:${main.port}/big-declared`, 'avatar'), 'REMOTE_FETCH_TOO_LARGE', 'avatar')
    assert.match(declared.message, /10000 bytes, above the limit of 5000/)
    const streamed = await refusal(fetcher.fetch(`http://127.0.0.1:${main.port}/big-chunked`, 'avatar'), 'REMOTE_FETCH_TOO_LARGE', 'avatar')
    assert.match(streamed.message, /more than the limit of 5000 bytes/)
  })

  it('gives up on a server that does not answer, or answers too slowly, within the time limit', async () => {
    const fetcher = createRemoteFetcher({ allow, timeoutMs: 300 })
    for (const path of ['/slow-headers', '/slow-body']) {
      const started = Date.now()
      await refusal(fetcher.fetch(`http://127.0.0.1:${main.port}${path}`, 'layer 1'), 'REMOTE_FETCH_TIMEOUT', 'layer 1')
      assert.ok(Date.now() - started < 2000, `${path} took ${Date.now() - started} ms`)
    }
  })

  it('reports an HTTP error status and a closed port as failed fetches', async () => {
    const fetcher = createRemoteFetcher({ allow })
    const err = await refusal(fetcher.fetch(`http://127.0.0.1:${main.port}/missing`, 'icon'), 'REMOTE_FETCH_FAILED', 'icon')
    assert.match(err.message, /HTTP 404/)
    const closed = await serve('127.0.0.1', () => {})
    await closed.close()
    await refusal(fetcher.fetch(`http://127.0.0.1:${closed.port}/x.png`, 'icon'), 'REMOTE_FETCH_FAILED', 'icon')
  })
})

describe('image fetcher', () => {
  const allow = parseAllowList(['127.0.0.1'])

  it('returns an image with its size, and caches it', async () => {
    const images = createImageFetcher({ fetcher: createRemoteFetcher({ allow }) })
    const start = main.hits.length
    const first = await images.fetchImage(`http://127.0.0.1:${main.port}/image.png?cache`, 'avatar')
    const second = await images.fetchImage(`http://127.0.0.1:${main.port}/image.png?cache`, 'avatar')
    assert.deepEqual({ w: first.width, h: first.height, format: first.format }, { w: 4, h: 4, format: 'png' })
    assert.equal(second, first)
    assert.equal(main.hits.length - start, 1)
  })

  it('refuses bytes that are not an image, and images above the pixel limit', async () => {
    const images = createImageFetcher({ fetcher: createRemoteFetcher({ allow }) })
    await refusal(images.fetchImage(`http://127.0.0.1:${main.port}/text`, 'banner'), 'REMOTE_IMAGE_INVALID', 'banner')
    const err = await refusal(images.fetchImage(`http://127.0.0.1:${main.port}/huge.png`, 'banner'), 'REMOTE_IMAGE_INVALID', 'banner')
    assert.match(err.message, /6000×5000 pixels/)
  })

  // Regression: the bytes went to libvips' header read whatever they were, so an SVG was
  // parsed by librsvg (entities, external references) before being refused. The first
  // bytes decide now (src/images/sniff.ts): a broken SVG is named as one, which librsvg
  // would not have done, and a BMP is named too (it was "not an image").
  it('refuses an SVG or a BMP from its first bytes, naming it', async () => {
    const images = createImageFetcher({ fetcher: createRemoteFetcher({ allow }) })
    const svg = await refusal(images.fetchImage(`http://127.0.0.1:${main.port}/broken.svg`, 'avatar'), 'REMOTE_IMAGE_INVALID', 'avatar')
    assert.match(svg.message, /answered svg that is not a PNG, JPEG, WebP, GIF or AVIF image/)
    const bmp = await refusal(images.fetchImage(`http://127.0.0.1:${main.port}/image.bmp`, 'avatar'), 'REMOTE_IMAGE_INVALID', 'avatar')
    assert.match(bmp.message, /answered bmp that is not a PNG, JPEG, WebP, GIF or AVIF image/)
  })
})
