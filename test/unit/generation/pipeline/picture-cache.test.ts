// The result cache behind /gen, through the app: X-Cache, the ETag and 304, what a
// served picture costs, and what makes a picture be drawn anew (a changed image at its
// URL after REMOTE_IMAGE_FRESH_SECONDS, an operator's banner, another parameter).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { OPERATOR_RESCAN_MS } from '../../../../src/generation/assets/asset-catalog.js'
import { contentNamedUrl } from '../../../../src/generation/pipeline/picture-cache.js'
import { parseAllowList } from '../../../../src/remote-fetch/address.js'
import { createTestApp, type TestApp } from '../../../support/helpers.js'

let server: http.Server
let base: string
let avatar: Buffer
let served = 0

before(async () => {
  avatar = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#00ff00' } }).png().toBuffer()
  server = http.createServer((_req, res) => {
    served++
    res.writeHead(200, { 'content-type': 'image/png' })
    res.end(avatar)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
after(() => { server.closeAllConnections(); server.close() })

async function cachedApp (config: Record<string, unknown> = {}): Promise<TestApp> {
  return await createTestApp({ config: { remoteFetchAllow: parseAllowList(['127.0.0.1']), resultCacheMaxBytes: 64 * 1024 * 1024, ...config } })
}

/** Units of usage the test key was charged so far. */
async function unitsUsed (t: TestApp): Promise<number> {
  await t.app.services.usage.flush()
  const key = (await t.store.keys.list())[0]!
  return await t.store.usage.unitsSince(key.id, '2000-01-01')
}

describe('the result cache behind /gen', () => {
  let t: TestApp
  before(async () => { t = await cachedApp() })
  after(async () => await t.close())

  it('draws a picture once: the first answer says X-Cache: miss, the next the same bytes with X-Cache: hit, both with the ETag of its address', async () => {
    const url = `/gen/welcome?username=Cached&avatar=${encodeURIComponent(`${base}/a.png`)}`
    const first = await t.app.inject({ method: 'GET', url, headers: t.auth })
    assert.equal(first.statusCode, 200, first.body)
    assert.equal(first.headers['x-cache'], 'miss')
    assert.match(String(first.headers.etag), /^"[0-9a-f]{64}"$/)
    const second = await t.app.inject({ method: 'GET', url, headers: t.auth })
    assert.equal(second.statusCode, 200)
    assert.equal(second.headers['x-cache'], 'hit')
    assert.equal(second.headers['content-type'], 'image/png')
    assert.equal(second.headers.etag, first.headers.etag)
    assert.ok(second.rawPayload.equals(first.rawPayload))
    // The same fields in a JSON body, keys in another order and case: the same address.
    const body = await t.app.inject({ method: 'POST', url: '/gen/welcome', headers: t.auth, payload: { Avatar: `${base}/a.png`, username: 'Cached' } })
    assert.equal(body.headers['x-cache'], 'hit')
    assert.equal(body.headers.etag, first.headers.etag)
    // Another parameter: another picture.
    const other = await t.app.inject({ method: 'GET', url: `${url}&members=2`, headers: t.auth })
    assert.equal(other.headers['x-cache'], 'miss')
    assert.notEqual(other.headers.etag, first.headers.etag)
  })

  it('keeps a picture served from the disk in memory too; one drawn and not asked again stays on disk only', async () => {
    const own = await cachedApp()
    try {
      const payload = { output: 'png', base: { width: 90, height: 40, color: 'maroon' } }
      const ask = async () => await own.app.inject({ method: 'POST', url: '/gen/custom', headers: own.auth, payload })
      const drawn = await ask()
      const address = String(drawn.headers.etag).replaceAll('"', '')
      const file = path.join(own.config.dataDir, 'result-cache', address.slice(0, 2), address)
      for (let i = 0; i < 200 && !fs.existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 10))
      // Not in memory yet: without its file it is drawn again.
      fs.rmSync(file)
      assert.equal((await ask()).headers['x-cache'], 'miss')
      for (let i = 0; i < 200 && !fs.existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 10))
      // Served from the disk once: kept in memory, served from there without its file.
      assert.equal((await ask()).headers['x-cache'], 'hit')
      fs.rmSync(file)
      const fromMemory = await ask()
      assert.equal(fromMemory.headers['x-cache'], 'hit')
      assert.ok(fromMemory.rawPayload.equals(drawn.rawPayload))
    } finally {
      await own.close()
    }
  })

  it('answers 304 to If-None-Match naming the address, with the ETag and no body', async () => {
    const url = '/gen/custom'
    const payload = { output: 'png', base: { width: 120, height: 60, color: 'navy' }, texts: [{ text: 'etag', x: 4, y: 30 }] }
    const first = await t.app.inject({ method: 'POST', url, headers: t.auth, payload })
    assert.equal(first.statusCode, 200)
    const etag = String(first.headers.etag)
    for (const header of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const again = await t.app.inject({ method: 'POST', url, headers: { ...t.auth, 'if-none-match': header }, payload })
      assert.equal(again.statusCode, 304, header)
      assert.equal(again.headers.etag, etag)
      assert.equal(again.rawPayload.length, 0)
    }
    const stale = await t.app.inject({ method: 'POST', url, headers: { ...t.auth, 'if-none-match': '"0000"' }, payload })
    assert.equal(stale.statusCode, 200)
    assert.equal(stale.headers['x-cache'], 'hit')
  })

  it('charges 5 units for a drawn picture, 1 for one from the cache and 1 for a 304', async () => {
    const own = await cachedApp()
    try {
      const payload = { output: 'png', base: { width: 100, height: 50, color: 'teal' } }
      const drawn = await own.app.inject({ method: 'POST', url: '/gen/custom', headers: own.auth, payload })
      assert.equal(drawn.headers['x-cache'], 'miss')
      assert.equal(await unitsUsed(own), 5)
      const hit = await own.app.inject({ method: 'POST', url: '/gen/custom', headers: own.auth, payload })
      assert.equal(hit.headers['x-cache'], 'hit')
      assert.equal(await unitsUsed(own), 6)
      const notModified = await own.app.inject({ method: 'POST', url: '/gen/custom', headers: { ...own.auth, 'if-none-match': String(drawn.headers.etag) }, payload })
      assert.equal(notModified.statusCode, 304)
      assert.equal(await unitsUsed(own), 7)
    } finally {
      await own.close()
    }
  })

  it('asks an image URL again only once REMOTE_IMAGE_FRESH_SECONDS have passed; a changed image is a new picture', async () => {
    const url = `/gen/welcome?username=Fresh&avatar=${encodeURIComponent(`${base}/fresh.png`)}`
    const before = served
    const first = await t.app.inject({ method: 'GET', url, headers: t.auth })
    const second = await t.app.inject({ method: 'GET', url, headers: t.auth })
    assert.deepEqual([first.headers['x-cache'], second.headers['x-cache'], served - before], ['miss', 'hit', 1])

    // Fresh for 0 s: every picture asks its URL, and the image it gets decides the address.
    const always = await cachedApp({ remoteImageFreshSeconds: 0 })
    const kept = avatar
    try {
      const a = await always.app.inject({ method: 'GET', url, headers: always.auth })
      const b = await always.app.inject({ method: 'GET', url, headers: always.auth })
      assert.deepEqual([a.headers['x-cache'], b.headers['x-cache']], ['miss', 'hit'])
      avatar = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ff0000' } }).png().toBuffer()
      const changed = await always.app.inject({ method: 'GET', url, headers: always.auth })
      assert.equal(changed.headers['x-cache'], 'miss')
      assert.notEqual(changed.headers.etag, a.headers.etag)
      assert.ok(!changed.rawPayload.equals(a.rawPayload))
    } finally {
      avatar = kept
      await always.close()
    }
  })

  it('draws anew once an operator banner file changed', async () => {
    const banners = path.join(t.config.dataDir, 'banners')
    fs.mkdirSync(banners, { recursive: true })
    fs.writeFileSync(path.join(banners, 'mine.png'), await sharp({ create: { width: 100, height: 40, channels: 3, background: '#0000ff' } }).png().toBuffer())
    await new Promise((resolve) => setTimeout(resolve, OPERATOR_RESCAN_MS + 50))
    const url = '/gen/welcome?username=Banner&banner=mine'
    const first = await t.app.inject({ method: 'GET', url, headers: t.auth })
    assert.equal(first.statusCode, 200, first.body)
    assert.equal(first.headers['x-cache'], 'miss')
    assert.equal((await t.app.inject({ method: 'GET', url, headers: t.auth })).headers['x-cache'], 'hit')
    // Replaced as operators do: a new file renamed over the old one.
    const next = path.join(banners, 'next.tmp')
    fs.writeFileSync(next, await sharp({ create: { width: 100, height: 40, channels: 3, background: '#ffff00' } }).png().toBuffer())
    fs.renameSync(next, path.join(banners, 'mine.png'))
    await new Promise((resolve) => setTimeout(resolve, OPERATOR_RESCAN_MS + 50))
    const changed = await t.app.inject({ method: 'GET', url, headers: t.auth })
    assert.equal(changed.headers['x-cache'], 'miss')
    assert.notEqual(changed.headers.etag, first.headers.etag)
  })

  it('keeps Discord CDN URLs whose path names their content longer than other URLs', () => {
    const cdn = 'https://cdn.discordapp.com'
    assert.equal(contentNamedUrl('https://cdn.discordapp.com/avatars/80351110224678912/a_1269e74af4df7417b13759eae50c83dc.gif', cdn), true)
    assert.equal(contentNamedUrl('https://cdn.discordapp.com/emojis/1234567890.png', cdn), true)
    assert.equal(contentNamedUrl('https://cdn.discordapp.com/guilds/1/users/2/avatars/1269e74af4df7417b13759eae50c83dc.webp', cdn), true)
    assert.equal(contentNamedUrl('https://cdn.discordapp.com/embed/avatars/0.png', cdn), false)
    assert.equal(contentNamedUrl('https://example.com/avatars/80351110224678912/1269e74af4df7417b13759eae50c83dc.png', cdn), false)
    assert.equal(contentNamedUrl('https://cdn.discordapp.com/attachments/1/2/picture.png', cdn), false)
  })
})

describe('with RESULT_CACHE_MAX_BYTES=0', () => {
  it('draws every picture, says X-Cache: miss, sends no ETag and writes nothing', async () => {
    const t = await createTestApp()
    try {
      for (let i = 0; i < 2; i++) {
        const res = await t.app.inject({ method: 'GET', url: '/gen/welcome?username=Off', headers: t.auth })
        assert.equal(res.statusCode, 200)
        assert.equal(res.headers['x-cache'], 'miss')
        assert.equal(res.headers.etag, undefined)
      }
      assert.equal(fs.existsSync(path.join(t.config.dataDir, 'result-cache')), false)
    } finally {
      await t.close()
    }
  })
})
