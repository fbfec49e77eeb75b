// Behaviour every route shares: bodies on GET and POST read as JSON whatever the
// content type, JSON keys matched case-insensitively, request ids, one envelope.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Type } from 'typebox'
import { normalizeKeys } from '../../../src/http/body.js'
import { readinessReport } from '../../../src/system/routes.js'
import { createTestApp, json, TEST_STORE, type TestApp } from '../../support/helpers.js'

let t: TestApp

const ProbeSchema = Type.Object({
  base: Type.Optional(Type.Object({ width: Type.Integer(), height: Type.Integer() })),
  images: Type.Optional(Type.Array(Type.Object({ url: Type.String(), maxWidth: Type.Optional(Type.Integer()) }))),
  textSize: Type.Optional(Type.Integer())
})

before(async () => {
  t = await createTestApp({
    beforeReady (app) {
      app.route({
        method: ['GET', 'POST'],
        url: '/probe/echo',
        config: { body: 'json' },
        schema: { body: ProbeSchema },
        handler: async (request) => ({ success: true, code: 200, message: '', method: request.method, got: request.body })
      })
      app.route({
        method: ['GET', 'POST'],
        url: '/probe/text',
        config: { body: 'json-or-text' },
        handler: async (request) => ({ success: true, code: 200, message: '', got: request.body })
      })
    }
  })
})
after(() => t.close())

const payload = JSON.stringify({ Base: { Width: 10, HEIGHT: 20 }, Images: [{ URL: 'https://example.com/a.png', maxwidth: 5 }], TEXTSIZE: 3 })
const expected = { base: { width: 10, height: 20 }, images: [{ url: 'https://example.com/a.png', maxWidth: 5 }], textSize: 3 }

describe('request bodies', () => {
  it('reads a JSON body on GET and POST, whatever the declared content type (compat: C#, Rust, others)', async () => {
    const variants: Array<{ method: 'GET' | 'POST', headers: Record<string, string> }> = [
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      { method: 'GET', headers: { 'content-type': 'text/plain; charset=utf-8' } }, // C#
      { method: 'GET', headers: {} }, // Rust: no content type
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } }
    ]
    for (const v of variants) {
      const res = await t.app.inject({ method: v.method, url: '/probe/echo', headers: { ...t.auth, ...v.headers }, payload })
      assert.equal(res.statusCode, 200, `${v.method} ${JSON.stringify(v.headers)}: ${res.body}`)
      assert.deepEqual(json(res).got, expected)
      assert.equal(json(res).method, v.method)
    }
  })

  it('matches JSON keys case-insensitively, at every depth, to the declared spelling', () => {
    assert.deepEqual(normalizeKeys(JSON.parse(payload), ProbeSchema), expected)
    // An exact spelling sent beside a case variant wins; unknown keys are kept as sent.
    assert.deepEqual(normalizeKeys({ TextSize: 1, textSize: 2, Other: 1 }, ProbeSchema), { textSize: 2, Other: 1 })
  })

  it('reads null as an absent field at every depth (compat: the C# client sends every field, null when unset)', async () => {
    // Before the fix, `texts: null` failed the schema with 400 instead of meaning "no texts".
    const body = '{"Base": {"Width": 10, "height": 20, "depth": null}, "images": [{"url": "https://example.com/a.png", "maxWidth": null}], "textSize": null, "other": null}'
    const res = await t.app.inject({ method: 'GET', url: '/probe/echo', headers: { ...t.auth, 'content-type': 'text/plain; charset=utf-8' }, payload: body })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(json(res).got, { base: { width: 10, height: 20 }, images: [{ url: 'https://example.com/a.png' }] })
    // A required field sent as null is missing, and the answer says so.
    const missing = await t.app.inject({ method: 'POST', url: '/probe/echo', headers: t.auth, payload: '{"base": {"width": 10, "height": null}}' })
    assert.equal(missing.statusCode, 400)
    assert.match(json(missing).message, /base\.height/)
    // A null exact spelling does not hide a case variant that carries a value.
    assert.deepEqual(normalizeKeys({ textSize: null, TextSize: 4 }, ProbeSchema), { textSize: 4 })
    const whole = await t.app.inject({ method: 'POST', url: '/probe/echo', headers: t.auth, payload: 'null' })
    assert.equal(whole.statusCode, 200, whole.body)
    assert.deepEqual(json(whole).got, {})
  })

  it('reads an empty body as {} on JSON routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/probe/echo', headers: t.auth })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(json(res).got, {})
  })

  it('drops __proto__ keys instead of honouring them', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/probe/echo', headers: { ...t.auth, 'content-type': 'application/json' }, payload: '{"textSize": 1, "__proto__": {"polluted": true}}' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(json(res).got, { textSize: 1 })
    assert.equal(({} as Record<string, unknown>).polluted, undefined)
  })

  it('drops __proto__ spelled with escapes, and constructor.prototype, at any depth', async () => {
    const bodies = [
      '{"textSize": 1, "\\u005f_proto__": {"polluted": true}}',
      '{"textSize": 1, "nested": {"__pr\\u006fto__": {"polluted": true}}}',
      '{"textSize": 1, "constructor": {"prototype": {"polluted": true}}}'
    ]
    for (const payload of bodies) {
      const res = await t.app.inject({ method: 'POST', url: '/probe/echo', headers: { ...t.auth, 'content-type': 'application/json' }, payload })
      assert.equal(res.statusCode, 200, payload)
      const got = json(res).got as Record<string, unknown>
      assert.equal(got.textSize, 1, payload)
      assert.equal(Object.keys(got).includes('__proto__'), false, payload)
      assert.equal(Object.keys(got).includes('constructor'), false, payload)
      assert.equal(JSON.stringify(got).includes('polluted'), false, payload)
      assert.equal(({} as Record<string, unknown>).polluted, undefined)
    }
  })

  it('gives json-or-text routes JSON when the body is JSON and the text otherwise', async () => {
    const cases: Array<[string, unknown]> = [
      ['{"markdown": "# hi"}', { markdown: '# hi' }],
      ['"# hi"', '# hi'],
      ['# hi\n\n{not json', '# hi\n\n{not json'],
      ['{broken', '{broken'],
      ['', '']
    ]
    for (const [body, got] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/probe/text', headers: { ...t.auth, 'content-type': 'text/plain' }, payload: body })
      assert.equal(res.statusCode, 200)
      assert.deepEqual(json(res).got, got, body)
    }
  })
})

describe('request ids', () => {
  it('puts a request id on every answer, success or failure', async () => {
    const ids = new Set<string>()
    for (const [url, headers] of [['/healthz', {}], ['/gen/html', t.auth], ['/nope', {}], ['/gen/html', {}]] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers })
      const id = res.headers['x-request-id']
      assert.match(String(id), /^[0-9a-f-]{36}$/)
      ids.add(String(id))
    }
    assert.equal(ids.size, 4)
  })

  it('echoes a valid incoming X-Request-Id and replaces an unsafe one', async () => {
    let res = await t.app.inject({ method: 'GET', url: '/gen/html', headers: { ...t.auth, 'x-request-id': 'bot-42.abc_DEF' } })
    assert.equal(res.headers['x-request-id'], 'bot-42.abc_DEF')
    assert.equal(json(res).requestId, 'bot-42.abc_DEF')
    for (const bad of ['has space', 'x'.repeat(200), '<script>', 'a\u00e9']) {
      res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': bad } })
      assert.notEqual(res.headers['x-request-id'], bad)
      assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/)
    }
  })
})

describe('health', () => {
  it('answers /healthz and /readyz without a key', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/healthz' })
    assert.deepEqual(json(live), { status: 'ok' })
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' })
    assert.equal(ready.statusCode, 200)
    // Only each dependency's state: where the database lives and which backends run are the operator's (the metrics port).
    assert.deepEqual(json(ready), { success: true, code: 200, message: '', status: 'ready', database: { state: 'ok' }, counters: { state: 'ok' } })
  })

  it('gives the operator the details on readinessReport (the metrics port\'s /readyz), never on the public answer', async () => {
    const report = await readinessReport(t.store, t.app.services.counters)
    assert.equal(report.status, 'ready')
    assert.equal(report.store, TEST_STORE)
    assert.deepEqual(report.counters, { state: 'ok', kind: 'memory' })
    assert.equal(report.database.state, 'ok')
    if (TEST_STORE === 'sqlite') assert.equal(typeof report.database.inode, 'number')
    const publicBody = (await t.app.inject({ method: 'GET', url: '/readyz' })).body
    assert.doesNotMatch(publicBody, /inode|device|path|sqlite|postgres|memory/)
  })

  it('answers /readyz with 503 when the store does not answer', async () => {
    const broken = await createTestApp()
    try {
      await broken.store.close()
      const res = await broken.app.inject({ method: 'GET', url: '/readyz' })
      assert.equal(res.statusCode, 503)
      const body = json(res)
      assert.deepEqual(body, {
        status: 'not ready',
        database: { state: 'down' },
        counters: { state: 'ok' },
        success: false,
        code: 503,
        message: 'The service is not ready: its database is down',
        error: 'SERVICE_UNAVAILABLE',
        requestId: res.headers['x-request-id']
      })
      assert.equal((await readinessReport(broken.store, broken.app.services.counters)).database.problem, 'the store does not answer')
      assert.equal((await broken.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200)
    } finally {
      await broken.close()
    }
  })
})
