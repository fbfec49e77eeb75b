// What operators read: one JSON line per answered request, carrying the request id sent
// back to the client and the key's name (never the key); failures logged with the same
// id through the request's own logger.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, type TestApp } from '../../support/helpers.js'

function captured (level: string): { logger: object, lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = []
  return { lines, logger: { level, stream: { write: (line: string) => { lines.push(JSON.parse(line)) } } } }
}

describe('request logs', () => {
  const info = captured('info')
  let t: TestApp
  before(async () => {
    t = await createTestApp({
      logger: info.logger,
      beforeReady (app) {
        app.get('/probe/crash', async () => { throw new Error('boom') })
      }
    })
  })
  after(() => t.close())

  it('writes one line per request with its id, route, status, duration and key name', async () => {
    info.lines.length = 0
    const res = await t.app.inject({ method: 'GET', url: '/color/random', headers: { ...t.auth, 'x-request-id': 'trace-log-1' } })
    assert.equal(res.statusCode, 200)
    const requestLines = info.lines.filter((l) => l.msg === 'request')
    assert.equal(requestLines.length, 1)
    const line = requestLines[0]!
    assert.equal(line.reqId, 'trace-log-1')
    assert.equal(res.headers['x-request-id'], 'trace-log-1')
    assert.equal(line.method, 'GET')
    assert.equal(line.url, undefined)
    assert.equal(line.route, '/color/random')
    assert.equal(line.status, 200)
    assert.equal(typeof line.ms, 'number')
    assert.equal(line.key, 'test')
    assert.doesNotMatch(JSON.stringify(info.lines), new RegExp(t.key))
  })

  it('names the route pattern, never what users put in the query (regression: usernames and avatar URLs in every line)', async () => {
    info.lines.length = 0
    const secret = 'alice-private-name'
    await t.app.inject({ method: 'GET', url: `/gen/welcome?username=${secret}&avatar=https%3A%2F%2Fcdn.example%2F${secret}.png`, headers: t.auth })
    await t.app.inject({ method: 'GET', url: `/color/info?name=${secret}`, headers: t.auth })
    await t.app.inject({ method: 'GET', url: `/sfw/gif/hug?amount=2&user=${secret}`, headers: t.auth })
    await t.app.inject({ method: 'GET', url: `/no/such/path?user=${secret}`, headers: t.auth })
    const requestLines = info.lines.filter((l) => l.msg === 'request')
    assert.equal(requestLines.length, 4)
    assert.deepEqual(requestLines.map((l) => [l.route ?? l.path, typeof l.status]), [
      ['/gen/:template', 'number'], ['/color/info', 'number'], ['/sfw/gif/:imageType', 'number'], ['/no/such/path', 'number']
    ])
    assert.doesNotMatch(JSON.stringify(requestLines), new RegExp(secret))
  })

  it('logs the public pages too: the docs, the document, health', async () => {
    info.lines.length = 0
    for (const url of ['/docs', '/openapi.json', '/healthz']) await t.app.inject({ method: 'GET', url })
    assert.deepEqual(info.lines.filter((l) => l.msg === 'request').map((l) => l.route), ['/docs', '/openapi.json', '/healthz'])
  })

  it('logs refused and unknown requests too, without a key name', async () => {
    info.lines.length = 0
    await t.app.inject({ method: 'GET', url: '/color/random', headers: { authorization: 'um_not-a-key' } })
    await t.app.inject({ method: 'GET', url: '/no/such/path', headers: t.auth })
    const [refused, unknown] = info.lines.filter((l) => l.msg === 'request')
    assert.equal(refused!.status, 401)
    assert.equal(refused!.key, undefined)
    assert.equal(unknown!.status, 404)
    assert.equal(unknown!.route, undefined)
    assert.equal(unknown!.path, '/no/such/path')
  })

  it('logs a failure through the request logger, with the request id', async () => {
    info.lines.length = 0
    const res = await t.app.inject({ method: 'GET', url: '/probe/crash', headers: { ...t.auth, 'x-request-id': 'trace-log-2' } })
    assert.equal(res.statusCode, 500)
    const failure = info.lines.find((l) => l.msg === 'request failed')
    assert.ok(failure, 'the failure is logged')
    assert.equal(failure.reqId, 'trace-log-2')
    assert.equal(failure.level, 50)
    assert.equal(info.lines.filter((l) => l.msg === 'request' && l.reqId === 'trace-log-2').length, 1)
  })

  it('writes no request line when LOG_LEVEL is above info', async () => {
    const warn = captured('warn')
    const quiet = await createTestApp({ logger: warn.logger })
    try {
      await quiet.app.inject({ method: 'GET', url: '/color/random', headers: quiet.auth })
      assert.equal(warn.lines.filter((l) => l.msg === 'request').length, 0)
    } finally {
      await quiet.close()
    }
  })
})
