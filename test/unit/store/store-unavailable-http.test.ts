// How the API answers a store that does not answer (issue 25): 503 STORE_UNAVAILABLE
// with Retry-After, never 500; and a reset of some other socket (the store's) while the
// client is still there is never answered as the client's leaving (CLIENT_CLOSED).
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { StoreUnavailableError } from '../../../src/store/interface.js'
import { createTestApp, json, type TestApp } from '../../support/helpers.js'

let t: TestApp

before(async () => {
  t = await createTestApp({
    beforeReady (app) {
      app.get('/probe/store-down', { config: { errors: ['STORE_UNAVAILABLE'] } }, async () => {
        throw new StoreUnavailableError('PostgreSQL cannot be reached', 2, { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) })
      })
      // A dependency's socket reset by its server: the error carries ECONNRESET, the client is still there.
      app.post('/probe/dependency-reset', { config: { body: 'json' } }, async () => {
        throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' })
      })
    }
  })
})
after(() => t.close())

describe('a store that does not answer', () => {
  it('is answered 503 STORE_UNAVAILABLE with Retry-After and the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/probe/store-down', headers: t.auth })
    assert.equal(res.statusCode, 503)
    assert.equal(res.headers['retry-after'], '2')
    assert.match(String(res.headers['content-type']), /^application\/json/)
    const body = json(res)
    assert.deepEqual(body, {
      success: false,
      code: 503,
      message: 'The service\'s database does not answer right now: retry after the number of seconds in Retry-After',
      error: 'STORE_UNAVAILABLE',
      requestId: res.headers['x-request-id']
    })
    assert.doesNotMatch(res.body, /ECONNRESET|PostgreSQL/, 'no internals')
  })

  it('a reset of another connection, the request being whole and its client there, is ours (500), not CLIENT_CLOSED', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/probe/dependency-reset', headers: { ...t.auth, 'content-type': 'application/json' }, payload: '{}' })
    assert.equal(res.statusCode, 500)
    assert.equal(json(res).error, 'INTERNAL')
  })
})
