// A signed link replays the keyed picture route, so its picture goes through the result
// cache too: drawn once (X-Cache: miss, 5 units to the link's key), then served from the
// cache (X-Cache: hit, 1 unit), with the picture's ETag; If-None-Match answers 304 for 1 unit.
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../support/helpers.js'

async function unitsUsed (t: TestApp): Promise<number> {
  await t.app.services.usage.flush()
  const key = (await t.store.keys.list())[0]!
  return await t.store.usage.unitsSince(key.id, '2000-01-01')
}

describe('a signed link\'s picture and the result cache', () => {
  it('is drawn once, then served from the cache for 1 unit, and answers 304 to its ETag for 1 unit', async () => {
    const t = await createTestApp({ config: { resultCacheMaxBytes: 64 * 1024 * 1024 } })
    try {
      // Signed by the bot itself (docs/links.md, "Signing links yourself"): nothing is drawn before the link is fetched.
      const { links } = json(await t.app.inject({ method: 'GET', url: '/me', headers: t.auth }))
      const target = '/gen/welcome?username=Linked&members=Member%20%2342'
      const signature = createHmac('sha256', links.secret as string).update(`${links.id as string}/0${target}`).digest('base64url')
      const url = `/l/${links.id as string}/0/${signature}${target}`
      const first = await t.app.inject({ method: 'GET', url })
      assert.equal(first.statusCode, 200, first.body)
      assert.equal(first.headers['x-cache'], 'miss')
      assert.match(String(first.headers.etag), /^"[0-9a-f]{64}"$/)
      assert.equal(await unitsUsed(t), 5)
      const second = await t.app.inject({ method: 'GET', url })
      assert.equal(second.statusCode, 200)
      assert.equal(second.headers['x-cache'], 'hit')
      assert.equal(second.headers.etag, first.headers.etag)
      assert.ok(second.rawPayload.equals(first.rawPayload))
      assert.equal(await unitsUsed(t), 6)
      // The keyed route and the link share the entry.
      const keyed = await t.app.inject({ method: 'GET', url: '/gen/welcome?username=Linked&members=Member%20%2342', headers: t.auth })
      assert.deepEqual([keyed.headers['x-cache'], keyed.headers.etag], ['hit', first.headers.etag])
      assert.equal(await unitsUsed(t), 7)
      const notModified = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(first.headers.etag) } })
      assert.equal(notModified.statusCode, 304)
      assert.equal(notModified.rawPayload.length, 0)
      assert.equal(await unitsUsed(t), 8)
      // A minted link of the same picture: the mint draws nothing new, its fetch is a hit.
      const minted = json(await t.app.inject({ method: 'POST', url: '/links', headers: t.auth, payload: { path: target } }))
      const mintedUrl = new URL(minted.url as string)
      const viaMint = await t.app.inject({ method: 'GET', url: `${mintedUrl.pathname}${mintedUrl.search}` })
      assert.deepEqual([viaMint.statusCode, viaMint.headers['x-cache'], viaMint.headers.etag], [200, 'hit', first.headers.etag])
    } finally {
      await t.close()
    }
  })
})
