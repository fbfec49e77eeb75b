// Every entry of the error catalogue answers with its status and the envelope, and the
// failures Fastify itself detects come out through the same table.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Type } from 'typebox'
import { AppError, ERROR_CATALOGUE, type ErrorCode } from '../../src/errors.js'
import { createTestApp, json, type TestApp } from '../support/helpers.js'
import { assertErrorEnvelope } from '../support/envelope.js'

let t: TestApp

before(async () => {
  t = await createTestApp({
    config: { requestTimeoutMs: 200, bodyLimit: 2048 },
    beforeReady (app) {
      // Probe routes for the shared mechanisms: a route that throws any catalogue code,
      // a JSON route, a route that fails unexpectedly, and a slow route.
      // It answers every code of the catalogue, and says so.
      app.get('/probe/throw/:code', { config: { errors: Object.keys(ERROR_CATALOGUE) as ErrorCode[] } }, async (request) => {
        throw new AppError((request.params as { code: ErrorCode }).code)
      })
      app.route({
        method: ['GET', 'POST'],
        url: '/probe/json',
        config: { body: 'json' },
        schema: { body: Type.Object({ name: Type.String({ minLength: 1 }), size: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })) }) },
        handler: async (request) => ({ success: true, code: 200, message: '', got: request.body })
      })
      app.get('/probe/crash', async () => { throw new Error('secret internals: /var/lib/db password=hunter2') })
      app.get('/probe/slow', async (request) => {
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, 5000)
          request.raw.once('close', () => clearTimeout(timer))
          ;(request as unknown as { signal: AbortSignal }).signal?.addEventListener('abort', () => { clearTimeout(timer); resolve(undefined) })
        })
        return { late: true }
      })
    }
  })
})
after(() => t.close())

describe('error catalogue', () => {
  it('answers every entry with its status, its message and the envelope', async () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      const res = await t.app.inject({ method: 'GET', url: `/probe/throw/${code}`, headers: t.auth })
      const body = assertErrorEnvelope(res, entry.status, code)
      assert.equal(body.message, entry.message)
    }
  })

  it('gives every entry a status that is an error status and a distinct, actionable message', () => {
    const messages = new Set<string>()
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      assert.ok(entry.status >= 400 && entry.status <= 599, code)
      assert.ok(!messages.has(entry.message), `duplicate message for ${code}`)
      messages.add(entry.message)
    }
  })
})

describe('failures detected by the framework', () => {
  it('answers malformed JSON with 400 MALFORMED_JSON, whatever the content type', async () => {
    for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'text/plain; charset=utf-8' }, {}]) {
      const res = await t.app.inject({ method: 'POST', url: '/probe/json', headers: { ...t.auth, ...headers }, payload: '{"name": "x",' })
      const body = assertErrorEnvelope(res, 400, 'MALFORMED_JSON')
      assert.match(body.message, /not valid JSON/)
    }
  })

  it('answers invalid UTF-8 with 400 INVALID_UTF8', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/probe/json', headers: { ...t.auth, 'content-type': 'application/json' }, payload: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) })
    assertErrorEnvelope(res, 400, 'INVALID_UTF8')
  })

  it('answers a body over the limit with 413 BODY_TOO_LARGE naming the route and its limit (BODY_LIMIT here)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/probe/json', headers: { ...t.auth, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'x'.repeat(5000) }) })
    assertErrorEnvelope(res, 413, 'BODY_TOO_LARGE')
    assert.equal(JSON.parse(res.body).message, 'The request body is too large: /probe/json accepts at most 2 KiB (2048 bytes) per request')
    assert.equal(JSON.parse(res.body).limit, 2048)
  })

  it('answers an unreadable Content-Type header with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/probe/json', headers: { ...t.auth, 'content-type': '/// not a type' }, payload: '{"name":"x"}' })
    assertErrorEnvelope(res, 415, 'UNSUPPORTED_MEDIA_TYPE')
  })

  it('names the field in validation errors', async () => {
    let res = await t.app.inject({ method: 'POST', url: '/probe/json', headers: t.auth, payload: { size: 3 } })
    assert.match(assertErrorEnvelope(res, 400, 'VALIDATION').message, /Missing body field "name"/)
    res = await t.app.inject({ method: 'POST', url: '/probe/json', headers: t.auth, payload: { name: 'a', size: 99 } })
    assert.match(assertErrorEnvelope(res, 400, 'VALIDATION').message, /"size".*<= 10/)
    res = await t.app.inject({ method: 'GET', url: '/gen/html?code=abc', headers: t.auth })
    assert.match(assertErrorEnvelope(res, 400, 'VALIDATION').message, /query parameter "code"/)
  })

  it('hides internals of unexpected failures behind 500 INTERNAL with the request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/probe/crash', headers: { ...t.auth, 'x-request-id': 'trace-me-123' } })
    const body = assertErrorEnvelope(res, 500, 'INTERNAL')
    assert.equal(body.requestId, 'trace-me-123')
    assert.doesNotMatch(res.body, /secret|hunter2|\/var\/lib|stack/)
  })

  it('stops a request that runs too long with 503 TIMEOUT', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/probe/slow', headers: t.auth })
    assertErrorEnvelope(res, 503, 'TIMEOUT')
  })

  it('keeps serving after every kind of failure', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(json(res), { status: 'ok' })
  })
})

describe('GET /gen/html, the deliberate test error', () => {
  it('answers 500 with the envelope by default', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/gen/html', headers: t.auth })
    const body = assertErrorEnvelope(res, 500, 'TEST_ERROR')
    assert.match(body.message, /test error/)
  })

  it('answers the status chosen by ?code=, in 400..599', async () => {
    for (const code of [400, 404, 418, 429, 503, 599]) {
      const res = await t.app.inject({ method: 'GET', url: `/gen/html?code=${code}`, headers: t.auth })
      assertErrorEnvelope(res, code, 'TEST_ERROR')
    }
  })

  it('refuses a status outside 400..599 with 400 naming the parameter', async () => {
    for (const code of ['200', '399', '600', '1e3']) {
      const res = await t.app.inject({ method: 'GET', url: `/gen/html?code=${code}`, headers: t.auth })
      assert.match(assertErrorEnvelope(res, 400, 'VALIDATION').message, /"code"/)
    }
  })
})
