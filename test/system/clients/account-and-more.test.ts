// Client replay, everything else: the key header in both spellings, /me as the Rust
// client parses it, GET / as one TypeScript client's getAPIInfo reads it, the colour
// query spellings, gif files fetched without a key, /gen/html and the 401s
// (docs/compatibility.md), as exact bytes over a socket to the built server process.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { jsonOf, KEY, type ReplayServer, send, startReplayServer } from './wire.js'

let s: ReplayServer
before(async () => {
  s = await startReplayServer({ GIF_STARTER_CATALOG: 'true', INFO_WEBSITE: 'https://example.com', INFO_EMAIL: 'api@example.com' })
})
after(async () => { await s.close() })

const get = async (target: string, headers: Array<[string, string]> = [['Authorization', KEY]]) => await send(s.port, { method: 'GET', target, headers })

function assertEnvelope (body: any, code: number): void {
  assert.equal(body.success, code === 200, JSON.stringify(body))
  assert.equal(body.code, code, JSON.stringify(body))
  assert.equal(typeof body.message, 'string')
  if (code === 200) assert.equal(body.message, '')
}

/**
 * RFC 3339 section 5.6 `date-time`, as strict parsers (the Rust client's) read it:
 * full date, T, full time with optional fraction, and Z or a numeric offset.
 */
const RFC3339 = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/

describe('the key header', () => {
  it('accepts the bare key (every client) and "Bearer <key>"', async () => {
    for (const value of [KEY, `Bearer ${KEY}`]) {
      const answer = await get('/color/random', [['Authorization', value]])
      assert.equal(answer.status, 200, value)
      assertEnvelope(jsonOf(answer), 200)
    }
  })

  it('answers a missing, an empty and an unknown key with 401 envelopes, each with its own message', async () => {
    const messages = new Set<string>()
    for (const headers of [[], [['Authorization', '']], [['Authorization', 'FP-not-a-key-of-ours-000000']]] as Array<Array<[string, string]>>) {
      const answer = await get('/color/random', headers)
      assert.equal(answer.status, 401)
      const body = jsonOf(answer)
      assertEnvelope(body, 401)
      messages.add(body.message)
    }
    assert.equal(messages.size, 3)
  })
})

describe('/me and GET /', () => {
  it('/me carries `id` (a string) and `created` (RFC 3339), as the Rust client parses them', async () => {
    const body = jsonOf(await get('/me'))
    assertEnvelope(body, 200)
    assert.equal(typeof body.id, 'string')
    assert.notEqual(body.id, '')
    assert.match(body.created, RFC3339)
    const created = Date.parse(body.created)
    assert.ok(Math.abs(Date.now() - created) < 10 * 60_000, `created ${body.created} is not the key's creation, moments ago`)
  })

  it('GET / answers the envelope and the info strings; docs is the docs page\'s absolute URL', async () => {
    for (const headers of [[['Authorization', KEY]], []] as Array<Array<[string, string]>>) {
      const answer = await get('/', headers)
      assert.equal(answer.status, 200)
      const body = jsonOf(answer)
      assertEnvelope(body, 200)
      for (const field of ['website', 'discord', 'docs', 'twitter', 'reddit', 'email', 'donate']) assert.equal(typeof body[field], 'string', field)
      assert.equal(body.docs, `http://127.0.0.1:${s.port}/docs`)
      assert.equal(body.website, 'https://example.com')
      assert.equal(body.email, 'api@example.com')
      assert.equal(body.discord, '')
    }
    const docs = await get('/docs', [])
    assert.ok(docs.status < 400, `the docs URL answers ${docs.status}`)
  })
})

describe('paths', () => {
  it('answers //me as /me (duplicate slashes)', async () => {
    const answer = await get('//me')
    assert.equal(answer.status, 200)
    assertEnvelope(jsonOf(answer), 200)
  })

  it('answers an unknown path with a 404 envelope', async () => {
    const answer = await get('/no/such/path')
    assert.equal(answer.status, 404)
    assertEnvelope(jsonOf(answer), 404)
  })
})

describe('/color/info as clients build the URL (without encoding #)', () => {
  it('answers hex= (the # began a fragment) with a 400 naming the parameter', async () => {
    const answer = await get('/color/info?hex=')
    assert.equal(answer.status, 400)
    const body = jsonOf(answer)
    assertEnvelope(body, 400)
    assert.match(body.message, /hex/)
  })

  it('reads hex without #, with %23, in any case, and the 3-digit form', async () => {
    for (const target of ['/color/info?hex=00ff00', '/color/info?hex=%2300FF00', '/color/info?hex=00FF00', '/color/info?hex=0f0']) {
      const body = jsonOf(await get(target))
      assertEnvelope(body, 200)
      assert.deepEqual([body.r, body.g, body.b, body.hex], [0, 255, 0, '#00ff00'], target)
      assert.equal(typeof body.name, 'string')
    }
  })
})

describe('/sfw/gif/{type}', () => {
  it('answers id and an absolute file URL that is fetched without Authorization', async () => {
    const body = jsonOf(await get('/sfw/gif/hug'))
    assertEnvelope(body, 200)
    assert.equal(typeof body.id, 'string')
    const file = new URL(body.file)
    assert.equal(file.origin, `http://127.0.0.1:${s.port}`)
    const gif = await get(file.pathname + file.search, [])
    assert.equal(gif.status, 200)
    assert.equal(gif.body.subarray(0, 6).toString('latin1'), 'GIF89a')
  })

  it('answers an unknown type with a 400 envelope', async () => {
    const answer = await get('/sfw/gif/no-such-type')
    assert.equal(answer.status, 400)
    assertEnvelope(jsonOf(answer), 400)
  })
})

describe('/gen/html', () => {
  it('a bodiless GET answers the error envelope, which the clients recognise by its first byte', async () => {
    const answer = await get('/gen/html')
    assert.equal(answer.status, 500)
    assert.equal(answer.body[0], 0x7b)
    assertEnvelope(jsonOf(answer), 500)
  })
})
