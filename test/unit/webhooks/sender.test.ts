// The webhook sender with an injected clock and POST: emit returns before anything is
// sent; each delivery is signed per Standard Webhooks (checked with the standardwebhooks
// package, an implementation independent of ours); retries back off with jitter and
// respect Retry-After; what cannot be delivered is dropped with a log line and a metric;
// what is queued at close is spilled and sent by the next sender under the same id.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { Webhook } from 'standardwebhooks'
import type { AccessEvent } from '../../../src/access/events.js'
import type { WebhookObserver } from '../../../src/metrics/metrics.js'
import { NO_KEY_LIMITS, type ApiKeyRecord } from '../../../src/store/interface.js'
import { eventId } from '../../../src/webhooks/message.js'
import { backoffMs, createWebhookSender, fetchPost, FIRST_RETRY_MS, MAX_IN_FLIGHT, MAX_RETRY_MS, type Post, type PostAnswer, retryAfterMs, type WebhookSenderOptions } from '../../../src/webhooks/sender.js'
import { tempDirs } from '../../support/helpers.js'
import { fakeClock, type FakeClock, settle } from './fake-clock.js'

const SECRET = `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`
const DAY = 86_400_000
const dirs = tempDirs()
after(() => dirs.removeAll())

function keyRecord (id = 7, limits = { ...NO_KEY_LIMITS, quotaMax: 100, quotaPeriod: 'day' as const }): ApiKeyRecord {
  return {
    id,
    name: `shop-${id}`,
    prefix: 'um_abcd',
    hash: 'f'.repeat(64),
    status: 'active',
    source: 'cli',
    limits,
    linkId: 'AAAAAAAAAAAAAAAA',
    linkSeed: 'seed',
    owner: id === 7 ? 'cus_123' : null,
    meta: null,
    expiresAt: null,
    unitsTotal: 0,
    credits: null,
    previousHash: null,
    previousValidUntil: null,
    createdAt: new Date('2026-11-01T00:00:00Z'),
    updatedAt: new Date('2026-11-01T00:00:00Z')
  }
}

const quotaEvent = (id = 7): AccessEvent => ({ type: 'quota.exhausted', key: keyRecord(id), period: 'day', periodStart: '2026-11-28' })

interface Sent { at: number, headers: Record<string, string>, body: string, signal: AbortSignal }

/** A POST that answers from `answers` in turn (the last one again when they run out); `'hang'` never answers until aborted. */
function scriptedPost (clock: FakeClock, answers: Array<PostAnswer | Error | 'hang'>): { post: Post, sent: Sent[] } {
  const sent: Sent[] = []
  const post: Post = async (_url, { headers, body, signal }) => {
    sent.push({ at: clock.now(), headers, body, signal })
    const answer = answers[Math.min(sent.length - 1, answers.length - 1)]!
    if (answer === 'hang') {
      return await new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }))))
    }
    if (answer instanceof Error) throw answer
    return answer
  }
  return { post, sent }
}

function recorder (): WebhookObserver & { calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    delivered: (type) => calls.push(`delivered ${type}`),
    retried: (type, reason) => calls.push(`retried ${type} ${reason}`),
    dropped: (type, reason) => calls.push(`dropped ${type} ${reason}`),
    queued () {}
  }
}

function logs (): WebhookSenderOptions['log'] & { lines: Array<{ level: string, fields: Record<string, unknown>, message: string }> } {
  const lines: Array<{ level: string, fields: Record<string, unknown>, message: string }> = []
  return {
    lines,
    info: (fields, message) => lines.push({ level: 'info', fields: fields as Record<string, unknown>, message }),
    warn: (fields, message) => lines.push({ level: 'warn', fields: fields as Record<string, unknown>, message }),
    error: (fields, message) => lines.push({ level: 'error', fields: fields as Record<string, unknown>, message })
  }
}

function sender (clock: FakeClock, post: Post, extra: Partial<WebhookSenderOptions> = {}) {
  const observer = recorder()
  const log = logs()
  const s = createWebhookSender({
    url: 'https://shop.example/hooks',
    secret: SECRET,
    events: ['quota.exhausted', 'credits.low', 'key.expired'],
    timeoutMs: 5000,
    retryForMs: DAY,
    log,
    observer,
    userAgent: 'test',
    clock,
    post,
    random: () => 0,
    ...extra
  })
  return { s, observer, log }
}

const ok: PostAnswer = { status: 204, retryAfter: null }
const failing: PostAnswer = { status: 500, retryAfter: null }

describe('webhook sender', () => {
  it('returns from emit before anything is sent, then sends a body the reference implementation verifies', async () => {
    const clock = fakeClock()
    const { post, sent } = scriptedPost(clock, [ok])
    const { s, observer } = sender(clock, post)
    s.emit(quotaEvent())
    assert.equal(sent.length, 0, 'nothing sent on the emitting call')
    assert.equal(s.queued, 1)
    await clock.advance(0)
    assert.equal(sent.length, 1)
    const { headers, body } = sent[0]!
    assert.match(headers['webhook-id']!, /^msg_[0-9a-f]{32}$/)
    assert.equal(headers['webhook-timestamp'], String(Math.floor(clock.now() / 1000)))
    assert.match(headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]{43}=$/)
    assert.equal(headers['content-type'], 'application/json')
    const payload = new Webhook(SECRET).verify(body, headers)
    assert.deepEqual(payload, {
      type: 'quota.exhausted',
      timestamp: new Date(sent[0]!.at).toISOString(),
      data: { key: { id: '7', name: 'shop-7', owner: 'cus_123' }, period: 'day', period_start: '2026-11-28', quota: 100, resets_at: '2026-11-29T00:00:00.000Z' }
    })
    // Another secret, or a body changed in transit, does not verify.
    assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(body, headers), /No matching signature/)
    assert.throws(() => new Webhook(SECRET).verify(body.replace('shop-7', 'shop-8'), headers), /No matching signature/)
    assert.equal(s.queued, 0)
    assert.deepEqual(observer.calls, ['delivered quota.exhausted'])
    await s.close()
  })

  it('sends the same event once, under an id that another instance derives too', async () => {
    const clock = fakeClock()
    const { post, sent } = scriptedPost(clock, [ok])
    const { s } = sender(clock, post)
    for (let i = 0; i < 50; i++) s.emit(quotaEvent())
    s.emit({ ...quotaEvent(), periodStart: '2026-11-29' } as AccessEvent)
    await clock.advance(0)
    await clock.advance(0)
    assert.equal(sent.length, 2, 'one per period')
    const other = scriptedPost(clock, [ok])
    const { s: s2 } = sender(clock, other.post)
    s2.emit(quotaEvent())
    await clock.advance(0)
    assert.equal(other.sent[0]!.headers['webhook-id'], sent[0]!.headers['webhook-id'])
    assert.notEqual(sent[1]!.headers['webhook-id'], sent[0]!.headers['webhook-id'])
    // Each event's subject is part of its id: the expiry, the threshold.
    const expired = (at: number): AccessEvent => ({ type: 'key.expired', key: keyRecord(), expiredAt: at })
    assert.equal(eventId(expired(1000), 0), eventId(expired(1000), 5 * DAY))
    assert.notEqual(eventId(expired(1000), 0), eventId(expired(2000), 0))
    assert.notEqual(eventId(quotaEvent(7), 0), eventId(quotaEvent(8), 0))
    await s.close()
    await s2.close()
  })

  it('does not send the event types WEBHOOK_EVENTS leaves out', async () => {
    const clock = fakeClock()
    const { post, sent } = scriptedPost(clock, [ok])
    const { s } = sender(clock, post, { events: ['key.expired'] })
    s.emit(quotaEvent())
    s.emit({ type: 'credits.low', key: keyRecord(), remaining: 3, threshold: 10 })
    s.emit({ type: 'key.expired', key: keyRecord(), expiredAt: Date.UTC(2026, 10, 28) })
    await clock.advance(0)
    assert.deepEqual(sent.map((x) => JSON.parse(x.body).type), ['key.expired'])
    assert.deepEqual(JSON.parse(sent[0]!.body).data, { key: { id: '7', name: 'shop-7', owner: 'cus_123' }, expired_at: '2026-11-28T00:00:00.000Z' })
    await s.close()
  })

  it('retries a 500 after the backoff under the same id, signed anew, until a 2xx', async () => {
    const clock = fakeClock()
    const { post, sent } = scriptedPost(clock, [failing, failing, ok])
    const { s, observer, log } = sender(clock, post)
    s.emit(quotaEvent())
    await clock.advance(0)
    assert.equal(sent.length, 1)
    // random() = 0: half of FIRST_RETRY_MS, then half of twice that.
    await clock.advance(FIRST_RETRY_MS / 2 - 1)
    assert.equal(sent.length, 1, 'not before the backoff')
    await clock.advance(1)
    assert.equal(sent.length, 2)
    await clock.advance(FIRST_RETRY_MS - 1)
    assert.equal(sent.length, 2)
    await clock.advance(1)
    assert.equal(sent.length, 3)
    assert.equal(new Set(sent.map((x) => x.headers['webhook-id'])).size, 1, 'one webhook-id')
    assert.deepEqual(sent.map((x) => x.at - sent[0]!.at), [0, 2500, 7500])
    assert.notEqual(sent[2]!.headers['webhook-timestamp'], sent[0]!.headers['webhook-timestamp'])
    for (const x of sent) assert.ok(new Webhook(SECRET).verify(x.body, x.headers))
    assert.deepEqual(observer.calls, ['retried quota.exhausted status_5xx', 'retried quota.exhausted status_5xx', 'delivered quota.exhausted'])
    assert.deepEqual(log.lines.map((l) => `${l.level} ${l.message}`), [
      'warn webhook not delivered: retried later',
      'warn webhook not delivered: retried later',
      'info webhook delivered'
    ])
    assert.equal(log.lines[0]!.fields.status, 500)
    assert.equal(s.queued, 0)
    await s.close()
  })

  it('waits at least what Retry-After asks on a 429 (seconds or a date), at most MAX_RETRY_MS', async () => {
    const clock = fakeClock()
    const { post, sent } = scriptedPost(clock, [{ status: 429, retryAfter: '120' }, ok])
    const { s, observer } = sender(clock, post)
    s.emit(quotaEvent())
    await clock.advance(0)
    await clock.advance(119_999)
    assert.equal(sent.length, 1)
    await clock.advance(1)
    assert.equal(sent.length, 2)
    assert.deepEqual(observer.calls, ['retried quota.exhausted status_429', 'delivered quota.exhausted'])
    assert.equal(retryAfterMs(new Date(1_000_000 + 30_000).toUTCString(), 1_000_000), 30_000)
    assert.equal(retryAfterMs('soon', 0), undefined)
    await s.close()
  })

  it('backs off exponentially with jitter, up to MAX_RETRY_MS', () => {
    assert.equal(backoffMs(1, () => 0), FIRST_RETRY_MS / 2)
    const almostOne = (): number => 1 - 1e-12
    assert.equal(backoffMs(1, almostOne), FIRST_RETRY_MS)
    assert.equal(backoffMs(4, () => 0), FIRST_RETRY_MS * 4)
    assert.equal(backoffMs(4, () => 0.5), FIRST_RETRY_MS * 6)
    assert.equal(backoffMs(40, almostOne), MAX_RETRY_MS)
    assert.equal(backoffMs(40, () => 0), MAX_RETRY_MS / 2)
  })

  it('retries network errors and timeouts, and drops what is refused or redirected at once', async () => {
    const clock = fakeClock()
    const timeout = Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' })
    const { post, sent } = scriptedPost(clock, [new TypeError('fetch failed'), timeout, { status: 400, retryAfter: null }])
    const { s, observer, log } = sender(clock, post)
    s.emit(quotaEvent())
    await clock.advance(0)
    await clock.advance(FIRST_RETRY_MS / 2)
    await clock.advance(FIRST_RETRY_MS)
    assert.equal(sent.length, 3)
    assert.deepEqual(observer.calls, ['retried quota.exhausted network', 'retried quota.exhausted timeout', 'dropped quota.exhausted refused'])
    assert.equal(log.lines.at(-1)!.level, 'error')
    assert.match(log.lines.at(-1)!.message, /refused by the receiver/)
    assert.equal(s.queued, 0)

    const redirected = scriptedPost(clock, [{ status: 302, retryAfter: null }])
    const r = sender(clock, redirected.post)
    r.s.emit(quotaEvent())
    await clock.advance(0)
    await clock.advance(DAY)
    assert.equal(redirected.sent.length, 1, 'a redirect is not retried')
    assert.deepEqual(r.observer.calls, ['dropped quota.exhausted redirect'])
    assert.match(r.log.lines.at(-1)!.message, /redirect, which is not followed.*WEBHOOK_URL/)
    await s.close()
    await r.s.close()
  })

  it('gives up after WEBHOOK_RETRY_FOR with an error line and a metric', async () => {
    const clock = fakeClock()
    const { post, sent } = scriptedPost(clock, [failing])
    const { s, observer, log } = sender(clock, post, { retryForMs: 60_000 })
    s.emit(quotaEvent())
    await clock.advance(0)
    await clock.advance(10 * 60_000)
    // 0, 2.5 s, 7.5 s, 17.5 s, 37.5 s; the next (after 40 s more) would pass the minute.
    assert.equal(sent.length, 5)
    assert.equal(observer.calls.at(-1), 'dropped quota.exhausted expired')
    assert.equal(observer.calls.filter((c) => c.startsWith('retried')).length, 4)
    const last = log.lines.at(-1)!
    assert.equal(last.level, 'error')
    assert.match(last.message, /not delivered within WEBHOOK_RETRY_FOR \(5 attempts\): dropped/)
    assert.equal(last.fields.lastFailure, 'status_5xx')
    assert.equal(s.queued, 0)
    assert.equal(clock.pending, 0, 'no timer left')
    await s.close()
  })

  it(`holds ${MAX_IN_FLIGHT} POSTs at most, and drops new events past its bound, said and counted`, async () => {
    const clock = fakeClock()
    const { post, sent } = scriptedPost(clock, ['hang'])
    const { s, observer, log } = sender(clock, post, { maxQueued: 4 })
    for (let id = 1; id <= 5; id++) s.emit(quotaEvent(id))
    await clock.advance(0)
    assert.equal(sent.length, MAX_IN_FLIGHT)
    assert.equal(s.queued, 4)
    assert.deepEqual(observer.calls, ['dropped quota.exhausted queue_full'])
    assert.match(log.lines.at(-1)!.message, /webhook queue full \(4 deliveries waiting for the receiver\): this event is dropped/)
    await s.close()
  })

  it('spills what is queued at close (in flight included) and the next sender delivers it under the same id', async () => {
    const spillDir = path.join(dirs.make('uma-webhooks-'), 'webhooks-pending')
    const clock = fakeClock()
    const first = scriptedPost(clock, ['hang'])
    const a = sender(clock, first.post, { spillDir })
    a.s.emit(quotaEvent(1))
    a.s.emit(quotaEvent(2))
    a.s.emit(quotaEvent(3))
    await clock.advance(0)
    assert.equal(first.sent.length, 2)
    await a.s.close()
    assert.ok(first.sent.every((x) => x.signal.aborted), 'the POSTs in flight are ended')
    const files = fs.readdirSync(spillDir).sort()
    assert.equal(files.length, 3, files.join())
    assert.ok(files.every((f) => /^webhook-msg_[0-9a-f]{32}\.json$/.test(f)))
    assert.match(a.log.lines.at(-1)!.message, /spilled to DATA_DIR\/webhooks-pending/)

    const later = fakeClock(clock.now() + 60_000)
    const second = scriptedPost(later, [ok])
    const b = sender(later, second.post, { spillDir })
    assert.equal(b.s.queued, 3)
    b.s.emit(quotaEvent(1)) // emitted again after the restart: still one delivery
    await later.advance(0)
    await later.advance(0)
    assert.equal(second.sent.length, 3)
    const ids = (sent: Sent[]): string[] => sent.map((x) => x.headers['webhook-id']!).sort()
    assert.deepEqual(ids(second.sent), [eventId(quotaEvent(1), 0), eventId(quotaEvent(2), 0), eventId(quotaEvent(3), 0)].sort())
    assert.ok(ids(first.sent).every((id) => ids(second.sent).includes(id)))
    for (const x of second.sent) assert.ok(new Webhook(SECRET).verify(x.body, x.headers))
    assert.deepEqual(fs.readdirSync(spillDir), [], 'each file removed once delivered')
    assert.equal(b.log.lines[0]!.message, 'webhook deliveries spilled by the last run: sent now')
    await b.s.close()
    assert.deepEqual(fs.readdirSync(spillDir), [], 'nothing to spill')
  })

  it('keeps counting the retry window across a restart', async () => {
    const spillDir = path.join(dirs.make('uma-webhooks-'), 'webhooks-pending')
    const clock = fakeClock()
    const first = scriptedPost(clock, [failing])
    const a = sender(clock, first.post, { spillDir, retryForMs: 60_000 })
    a.s.emit(quotaEvent())
    await clock.advance(0)
    await a.s.close()
    // Started again two minutes later: one more attempt, then dropped (its minute is over).
    const later = fakeClock(clock.now() + 120_000)
    const second = scriptedPost(later, [failing])
    const b = sender(later, second.post, { spillDir, retryForMs: 60_000 })
    await later.advance(0)
    assert.equal(second.sent.length, 1)
    assert.deepEqual(b.observer.calls, ['dropped quota.exhausted expired'])
    assert.equal(b.log.lines.at(-1)!.fields.attempts, 2)
    assert.deepEqual(fs.readdirSync(spillDir), [])
    await b.s.close()
  })
})

describe('fetchPost (the real POST)', () => {
  it('ends a POST the receiver does not answer at its deadline, with a TimeoutError', async () => {
    const server = http.createServer(() => {}) // never answers
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const started = Date.now()
      await assert.rejects(
        fetchPost(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { headers: {}, body: '{}', timeoutMs: 300, signal: new AbortController().signal }),
        (err: Error) => err.name === 'TimeoutError'
      )
      const took = Date.now() - started
      assert.ok(took >= 250 && took < 5000, `ended after ${took} ms`)
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })

  it('does not follow a redirect, and reads Retry-After', async () => {
    const hits: string[] = []
    const server = http.createServer((req, res) => {
      hits.push(req.url!)
      if (req.url === '/moved') res.writeHead(307, { location: '/elsewhere' }).end()
      else res.writeHead(503, { 'retry-after': '7' }).end('busy')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const request = { headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 5000, signal: new AbortController().signal }
      assert.deepEqual(await fetchPost(`${base}/moved`, request), { status: 307, retryAfter: null })
      assert.deepEqual(await fetchPost(`${base}/busy`, request), { status: 503, retryAfter: '7' })
      assert.deepEqual(hits, ['/moved', '/busy'])
    } finally {
      server.close()
    }
  })

  it('is ended by the close signal', async () => {
    const server = http.createServer(() => {})
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const closing = new AbortController()
      const pending = fetchPost(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { headers: {}, body: '{}', timeoutMs: 60_000, signal: closing.signal })
      await settle()
      closing.abort()
      await assert.rejects(pending, (err: Error) => err.name === 'AbortError')
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})
