// The console page's plain parts (web/console/api.ts), run in Node: what it sends (the
// token only in the Authorization header, the Idempotency-Key, no cookies), how it
// reads a refusal's envelope, and the numbers its chart and forms are made from.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ApiError, createApi, dailyTotals, lastDays, limitsPatch, niceMax, queryString, type UsageRow } from '../../../web/console/api.js'

interface Sent { url: string, init: RequestInit }

/** The ApiError a call was refused with (a call that succeeds fails the test). */
async function refusal (call: Promise<unknown>): Promise<ApiError> {
  const err = await call.then(() => undefined, (e: unknown) => e)
  assert.ok(err instanceof ApiError, `refused with an ApiError, got ${String(err)}`)
  return err
}

function fakeFetch (answer: () => Response): { sent: Sent[], fetch: (url: string, init: RequestInit) => Promise<Response> } {
  const sent: Sent[] = []
  return { sent, fetch: async (url, init) => { sent.push({ url, init }); return answer() } }
}

describe('the console\'s API calls', () => {
  it('sends the token as a Bearer token to a path of this origin, with no cookie and no referrer', async () => {
    const f = fakeFetch(() => Response.json({ success: true, token: { name: 'shop', scopes: ['keys'] } }))
    const api = createApi('umo_secret', f.fetch)
    assert.deepEqual(await api.whoami(), { success: true, token: { name: 'shop', scopes: ['keys'] } })
    assert.equal(f.sent[0]!.url, '/admin/v1/whoami')
    assert.deepEqual(f.sent[0]!.init.headers, { Authorization: 'Bearer umo_secret' })
    assert.equal(f.sent[0]!.init.credentials, 'omit')
    assert.equal(f.sent[0]!.init.referrerPolicy, 'no-referrer')
  })

  it('creates a key with its Idempotency-Key and a JSON body; lists with only the filters set', async () => {
    const f = fakeFetch(() => Response.json({ success: true, id: 'k1', name: 'n', key: 'um_x', keys: [], next_cursor: null }, { status: 201 }))
    const api = createApi('t', f.fetch)
    await api.createKey({ name: 'n', credits: 10 }, 'attempt-1')
    assert.equal(f.sent[0]!.init.method, 'POST')
    assert.deepEqual(f.sent[0]!.init.headers, { Authorization: 'Bearer t', 'Idempotency-Key': 'attempt-1', 'Content-Type': 'application/json' })
    assert.equal(f.sent[0]!.init.body, '{"name":"n","credits":10}')
    await api.listKeys({ owner: 'cus 1', name: '', status: 'active', limit: 50, cursor: null })
    assert.equal(f.sent[1]!.url, '/admin/v1/keys?owner=cus+1&status=active&limit=50')
    await api.rollKey('a/b', 60)
    assert.equal(f.sent[2]!.url, '/admin/v1/keys/a%2Fb/roll')
    assert.equal(f.sent[2]!.init.body, '{"grace_seconds":60}')
  })

  it('turns a refusal into the envelope\'s message, code and request id', async () => {
    const f = fakeFetch(() => Response.json({ success: false, code: 403, error: 'ADMIN_SCOPE', message: 'This token lacks the keys scope', requestId: 'req-7' }, { status: 403 }))
    const err = await refusal(createApi('t', f.fetch).listKeys({}))
    assert.equal(err.message, 'This token lacks the keys scope')
    assert.equal(err.detail, '403 ADMIN_SCOPE · request id req-7')
  })

  it('says what came when a refusal has no envelope: a 404 means no management API here, a dead server a failed request', async () => {
    const notFound = await refusal(createApi('t', fakeFetch(() => new Response('nope', { status: 404 })).fetch).whoami())
    assert.match(notFound.message, /not enabled here/)
    const limited = await refusal(createApi('t', fakeFetch(() => new Response('', { status: 429, headers: { 'retry-after': '30' } })).fetch).whoami())
    assert.equal(limited.message, 'The server answered 429 without a message')
    assert.equal(limited.retryAfter, 30)
    const down = await refusal(createApi('t', async () => { throw new TypeError('fetch failed') }).whoami())
    assert.equal(down.status, 0)
    assert.match(down.message, /fetch failed.*Is the server running/)
  })

  it('leaves empty values out of a query string', () => {
    assert.equal(queryString({ a: '', b: undefined, c: null, d: 0, e: 'x y' }), '?d=0&e=x+y')
    assert.equal(queryString({}), '')
  })
})

describe('the usage chart\'s numbers', () => {
  it('counts 30 UTC days ending today, oldest first', () => {
    const days = lastDays(Date.parse('2026-03-01T23:59:00Z'), 30)
    assert.equal(days.length, 30)
    assert.equal(days[0], '2026-01-31')
    assert.equal(days[28], '2026-02-28')
    assert.equal(days[29], '2026-03-01')
  })

  it('sums a key\'s endpoint groups per day, a zero for a day without use, nothing outside the days', () => {
    const row = (period: string, endpoint: string, requests: number, units: number): UsageRow => ({ period, key_id: 'k', key_name: 'n', endpoint_group: endpoint, requests, units })
    const totals = dailyTotals([row('2026-02-28', 'gen', 2, 10), row('2026-02-28', 'gifs', 3, 3), row('2026-03-01', 'gen', 1, 5), row('2026-01-01', 'gen', 9, 45)], ['2026-02-27', '2026-02-28', '2026-03-01'])
    assert.deepEqual(totals, [
      { day: '2026-02-27', requests: 0, units: 0 },
      { day: '2026-02-28', requests: 5, units: 13 },
      { day: '2026-03-01', requests: 1, units: 5 }
    ])
  })

  it('tops the scale at a round number at least the largest bar', () => {
    assert.deepEqual([0, 1, 3, 10, 11, 45, 999].map(niceMax), [1, 1, 5, 10, 20, 50, 1000])
  })
})

describe('the limits form', () => {
  it('sends null for an empty rate (the default) and an empty quota (none), numbers otherwise', () => {
    assert.deepEqual(limitsPatch('', '', '', 'day'), { rate: null, quota: null })
    assert.deepEqual(limitsPatch('600', '60', '1000', 'month'), { rate: { max: 600, window_seconds: 60 }, quota: { max: 1000, period: 'month' } })
  })

  it('refuses a half-filled rate or a number that is not whole, with a sentence', () => {
    assert.throws(() => limitsPatch('600', '', '', 'day'), /window \(seconds\) must be a whole number/)
    assert.throws(() => limitsPatch('1.5', '60', '', 'day'), /units must be a whole number/)
    assert.throws(() => limitsPatch('', '', '0', 'day'), /quota must be a whole number of at least 1/)
  })
})
