// Prepaid credits, expiry and roll through the request gate: reserved at admission,
// settled with what was billed, refused before any work (402, nothing drawn), refilled
// lazily; X-Credits-Remaining on every answer; the events a storefront hears.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { createCreditLedger, lowCreditsThreshold } from '../../../src/access/credits.js'
import type { AccessEvent } from '../../../src/access/events.js'
import { createKeyService, hashKey, keyStatus } from '../../../src/access/keys.js'
import { billedUnits } from '../../../src/access/rate-limit.js'
import { createUsageRecorder } from '../../../src/access/usage-recorder.js'
import { AppError } from '../../../src/errors.js'
import { type KeyStore, StoreUnavailableError, type UsageEntry, type UsageStore } from '../../../src/store/interface.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { createTestApp, json, tempDir, type TestApp } from '../../support/helpers.js'

const apps: TestApp[] = []
after(async () => { for (const a of apps) await a.close() })

/** A test app with probe routes of cost 5 (a picture's), a cache hit's answer, a caller's mistake and a failure of ours. */
async function creditsApp (events: AccessEvent[] = []): Promise<TestApp> {
  let release: () => void = () => {}
  const t = await createTestApp({
    config: { rateLimitMax: 1000, usageFlushMs: 60_000 },
    events: { emit: (e) => { events.push(e) } },
    beforeReady (app) {
      const tags = ['probe']
      app.get('/probe/picture', { config: { cost: 5 }, schema: { tags } }, async () => ({ success: true, code: 200, message: '' }))
      app.get('/probe/slow-picture', { config: { cost: 5 }, schema: { tags } }, async () => {
        await new Promise<void>((resolve) => { const r = release; release = () => { r(); resolve() } })
        return { success: true, code: 200, message: '' }
      })
      app.get('/probe/cached', { config: { cost: 5 }, schema: { tags } }, async (_request, reply) => { reply.servedCost = 1; return { success: true, code: 200, message: '' } })
      app.get('/probe/mistake', { config: { cost: 5, errors: ['VALIDATION'] }, schema: { tags } }, async () => { throw new AppError('VALIDATION', 'a mistyped parameter') })
      app.get('/probe/ours', { config: { cost: 5, errors: ['SERVICE_UNAVAILABLE'] }, schema: { tags } }, async () => { throw new AppError('SERVICE_UNAVAILABLE', 'busy', { headers: { 'retry-after': '1' } }) })
    }
  })
  Object.assign(t, { releaseSlow: () => release() })
  apps.push(t)
  return t
}

async function meteredKey (t: TestApp, name: string, credits: number): Promise<{ authorization: string, id: number }> {
  const { key, record } = await t.app.services.keys.createWith({ name, credits })
  return { authorization: key, id: record.id }
}

describe('billed units', () => {
  it('bills nothing for a refusal for want of credits (402), as for 429 and our 5xx', () => {
    assert.equal(billedUnits(402, 5), 0)
    assert.equal(billedUnits(429, 5), 0)
    assert.equal(billedUnits(503, 5), 0)
    assert.equal(billedUnits(400, 5), 1)
    assert.equal(billedUnits(200, 5), 5)
  })

  it('counts credits as low at or under 10 % of the last grant', () => {
    assert.equal(lowCreditsThreshold(10), 1)
    assert.equal(lowCreditsThreshold(1000), 100)
    assert.equal(lowCreditsThreshold(5), 0)
    assert.equal(lowCreditsThreshold(null), 0)
  })
})

describe('credits through the request gate', () => {
  it('serves two pictures of 10 credits and refuses the third before any work, nothing drawn', async () => {
    const events: AccessEvent[] = []
    const t = await creditsApp(events)
    const k = await meteredKey(t, 'ten', 10)
    const first = await t.app.inject({ url: '/probe/picture', headers: k })
    assert.equal(first.statusCode, 200)
    assert.equal(first.headers['x-credits-remaining'], '5')
    const second = await t.app.inject({ url: '/probe/picture', headers: k })
    assert.equal(second.statusCode, 200)
    assert.equal(second.headers['x-credits-remaining'], '0')
    const third = await t.app.inject({ url: '/probe/picture', headers: k })
    assert.equal(third.statusCode, 402)
    assert.equal(json(third).error, 'CREDITS_EXHAUSTED')
    assert.match(json(third).message, /0 credits left and this request costs 5/)
    assert.equal(third.headers['x-credits-remaining'], '0')
    // Billed: the two pictures, and nothing for the refusal.
    await t.app.services.usage.flush()
    assert.equal(await t.store.usage.unitsSince(k.id, '2000-01-01'), 10)
    assert.equal((await t.store.keys.findById(k.id))!.unitsTotal, 10)
    assert.deepEqual(events.map((e) => e.type), ['credits.low'])
    assert.deepEqual(events[0], { type: 'credits.low', key: events[0]!.key, remaining: 0, threshold: 1 })
    // Adding credits serves again at once (the change is made through this instance).
    await t.app.services.keys.update(k.id, { addCredits: 10 })
    const again = await t.app.inject({ url: '/probe/picture', headers: k })
    assert.equal(again.statusCode, 200)
    assert.equal(again.headers['x-credits-remaining'], '5')
    // /me is free and says what is left.
    const me = json(await t.app.inject({ url: '/me', headers: k }))
    assert.deepEqual(me.credits, { remaining: 5, refill: null })
    assert.equal(me.expiresAt, null)
  })

  it('bills a cache hit 1 unit, a caller\'s mistake 1 and a failure of ours nothing', async () => {
    const t = await creditsApp()
    const k = await meteredKey(t, 'mixed', 12)
    const hit = await t.app.inject({ url: '/probe/cached', headers: k })
    assert.equal(hit.headers['x-credits-remaining'], '11')
    const mistake = await t.app.inject({ url: '/probe/mistake', headers: k })
    assert.equal(mistake.statusCode, 400)
    assert.equal(mistake.headers['x-credits-remaining'], '10')
    const ours = await t.app.inject({ url: '/probe/ours', headers: k })
    assert.equal(ours.statusCode, 503)
    assert.equal(ours.headers['x-credits-remaining'], '10')
    // 10 left pays for two pictures: the full cost is what a request must fit.
    assert.equal((await t.app.inject({ url: '/probe/picture', headers: k })).statusCode, 200)
    assert.equal((await t.app.inject({ url: '/probe/picture', headers: k })).statusCode, 200)
    assert.equal((await t.app.inject({ url: '/probe/cached', headers: k })).statusCode, 402)
  })

  it('never admits more than the credits pay for, however many requests run at once', async () => {
    const t = await creditsApp()
    const k = await meteredKey(t, 'busy', 12)
    const answers = Array.from({ length: 8 }, async () => await t.app.inject({ url: '/probe/slow-picture', headers: k }))
    // The refusals come back while the admitted two still hold their units.
    await new Promise((resolve) => setImmediate(resolve))
    const refusals = await Promise.race([Promise.all(answers), new Promise((resolve) => setTimeout(resolve, 300, 'held'))])
    assert.equal(refusals, 'held', 'the admitted requests are still running')
    ;(t as unknown as { releaseSlow: () => void }).releaseSlow()
    const statuses = (await Promise.all(answers)).map((r) => r.statusCode).sort()
    assert.deepEqual(statuses, [200, 200, 402, 402, 402, 402, 402, 402])
    await t.app.services.usage.flush()
    assert.equal((await t.store.keys.findById(k.id))!.unitsTotal, 10)
  })

  it('refills lazily once the period it last refilled is over, without lowering what is left', async () => {
    const t = await creditsApp()
    const { key, record } = await t.app.services.keys.createWith({ name: 'daily', credits: 3, refill: { amount: 10, period: 'day' } })
    // As if made yesterday: the refill is due.
    await t.store.keys.update(record.id, { refill: { amount: 10, period: 'day' }, refilledPeriod: '2000-01-01' })
    const res = await t.app.inject({ url: '/probe/picture', headers: { authorization: key } })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-credits-remaining'], '5')
    const stored = (await t.store.keys.findById(record.id))!
    assert.equal(stored.credits!.refilledPeriod, new Date().toISOString().slice(0, 10))
    const me = json(await t.app.inject({ url: '/me', headers: { authorization: key } }))
    assert.equal(me.credits.remaining, 5)
    assert.equal(me.credits.refill.amount, 10)
    assert.equal(me.credits.refill.period, 'day')
    assert.equal(Date.parse(me.credits.refill.nextAt) % 86_400_000, 0)
  })

  it('refuses an expired key with its own message, and says so once to the storefront', async () => {
    const events: AccessEvent[] = []
    const t = await creditsApp(events)
    const { key, record } = await t.app.services.keys.createWith({ name: 'gone-soon', expiresAt: new Date(Date.now() - 1000) })
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ url: '/probe/picture', headers: { authorization: key } })
      assert.equal(res.statusCode, 401)
      assert.equal(json(res).error, 'AUTH_KEY_EXPIRED')
      assert.match(json(res).message, /expired at \d{4}-\d\d-\d\dT/)
    }
    assert.deepEqual(events.map((e) => [e.type, e.key.id]), [['key.expired', record.id]])
    assert.equal(keyStatus(record), 'expired')
  })

  it('says quota.exhausted once per key and period', async () => {
    const events: AccessEvent[] = []
    const t = await creditsApp(events)
    const { key } = await t.app.services.keys.createWith({ name: 'quota', limits: { quotaMax: 5, quotaPeriod: 'day' } })
    assert.equal((await t.app.inject({ url: '/probe/picture', headers: { authorization: key } })).statusCode, 200)
    for (let i = 0; i < 2; i++) assert.equal(json(await t.app.inject({ url: '/probe/picture', headers: { authorization: key } })).error, 'QUOTA_EXCEEDED')
    assert.deepEqual(events.map((e) => e.type), ['quota.exhausted'])
  })
})

describe('roll', () => {
  it('keeps the key\'s identity; the old secret works within the grace, then is refused', async () => {
    const dir = tempDir()
    const store = openSqliteStore(dir)
    let now = Date.now()
    const keys = createKeyService(store.keys, { now: () => now })
    const { key: oldKey, record } = await keys.createWith({ name: 'roller', credits: 50, owner: 'cus_r' })
    const rolled = (await keys.roll(record.id, 60))!
    assert.equal(rolled.record.id, record.id)
    assert.equal(rolled.record.owner, 'cus_r')
    assert.notEqual(rolled.key, oldKey)
    assert.equal((await keys.authenticate(rolled.key)).id, record.id)
    assert.equal((await keys.authenticate(oldKey)).id, record.id)
    now += 61_000
    await assert.rejects(keys.authenticate(oldKey), (err: AppError) => err.code === 'AUTH_KEY_ROLLED')
    assert.equal((await keys.authenticate(rolled.key)).id, record.id)
    await assert.rejects(keys.roll(record.id, 604_801), /grace/)
    await store.close()
  })
})

describe('credits ledger against its dependencies', () => {
  it('answers 503 STORE_UNAVAILABLE when the credits cannot be read, and reserves nothing', async () => {
    const dir = tempDir()
    const store = openSqliteStore(dir)
    const { record } = await createKeyService(store.keys).createWith({ name: 'down', credits: 10 })
    const failing: KeyStore = { ...store.keys, findById: async () => { throw new StoreUnavailableError('PostgreSQL does not answer', 2) } }
    const usage = createUsageRecorder(store.usage, { flushMs: 60_000 })
    const ledger = createCreditLedger({ keys: failing, usage, refreshMs: 1000 })
    await assert.rejects(ledger.reserve(record, 5, Date.now()), StoreUnavailableError)
    const stalled: KeyStore = { ...store.keys, findById: async () => await new Promise(() => {}) }
    const late = createCreditLedger({ keys: stalled, usage, refreshMs: 1000, readDeadlineMs: 50 })
    await assert.rejects(late.reserve(record, 5, Date.now()), StoreUnavailableError)
    await usage.close()
    await store.close()
  })

  it('counts a batch once whether it is written before, during or after a read', async () => {
    const dir = tempDir()
    const store = openSqliteStore(dir)
    const { record } = await createKeyService(store.keys).createWith({ name: 'racing', credits: 100 })
    // A usage store whose write takes a while: reads started meanwhile must wait for it.
    let writes = 0
    const slow: UsageStore = {
      ...store.usage,
      async add (entries: UsageEntry[], batchId?: string) {
        writes++
        await new Promise((resolve) => setTimeout(resolve, 50))
        await store.usage.add(entries, batchId)
      }
    }
    const usage = createUsageRecorder(slow, { flushMs: 60_000 })
    const ledger = createCreditLedger({ keys: store.keys, usage, refreshMs: 0 })
    const now = Date.now()
    for (let round = 0; round < 5; round++) {
      const hold = (await ledger.reserve(record, 5, now))!
      usage.record(record.id, 'probe', 5, now)
      ledger.settle(hold, 5)
      const flushing = usage.flush()
      // refreshMs 0: each view reads the store again, here while the batch is being written.
      const during = await ledger.view(record, now + 1)
      await flushing
      const afterwards = await ledger.view(record, now + 2)
      assert.equal(during!.remaining, 100 - 5 * (round + 1))
      assert.equal(afterwards!.remaining, 100 - 5 * (round + 1))
    }
    assert.equal(writes, 5)
    await usage.close()
    await store.close()
  })

  it('counts a batch whose reply was lost once: written again before the credits are read, 503 while it cannot be', async () => {
    const dir = tempDir()
    const store = openSqliteStore(dir)
    const { record } = await createKeyService(store.keys).createWith({ name: 'lost-reply', credits: 15 })
    // The store applies the first batch, but its reply is lost; the next write is refused; then all goes well.
    const faults: Array<'after' | 'before'> = ['after', 'before']
    const lossy: UsageStore = {
      ...store.usage,
      async add (entries: UsageEntry[], batchId?: string) {
        const fault = faults.shift()
        if (fault === 'before') throw new Error('connection refused')
        await store.usage.add(entries, batchId)
        if (fault === 'after') throw new Error('connection reset before the reply')
      }
    }
    const usage = createUsageRecorder(lossy, { flushMs: 60_000 })
    const ledger = createCreditLedger({ keys: store.keys, usage, refreshMs: 0 })
    const now = Date.now()
    for (let i = 0; i < 10; i++) {
      const hold = (await ledger.reserve(record, 1, now))!
      usage.record(record.id, 'probe', 1, now)
      ledger.settle(hold, 1)
    }
    await assert.rejects(usage.flush(), /before the reply/)
    // The store holds the 10 units, and so does the recorder (unwritten): a read now would count them twice.
    assert.equal((await store.keys.findById(record.id))!.unitsTotal, 10)
    // The batch cannot be written again: the credits are not read (503), nothing reserved.
    await assert.rejects(ledger.reserve(record, 1, now + 1), StoreUnavailableError)
    // It can: written again under its id (applied once), then read: 5 left, exactly.
    assert.equal((await ledger.view(record, now + 2))!.remaining, 5)
    assert.equal(usage.unwritten, 0)
    assert.equal((await store.keys.findById(record.id))!.unitsTotal, 10)
    for (let i = 0; i < 5; i++) {
      const hold = (await ledger.reserve(record, 1, now + 3))!
      usage.record(record.id, 'probe', 1, now + 3)
      ledger.settle(hold, 1)
    }
    await assert.rejects(ledger.reserve(record, 1, now + 3), (err: AppError) => err.code === 'CREDITS_EXHAUSTED')
    await usage.close()
    assert.equal((await store.keys.findById(record.id))!.unitsTotal, 15)
    await store.close()
  })

  it('meters a key given credits elsewhere as soon as its looked-up record has them, even if it was read unmetered within the refresh interval', async () => {
    const dir = tempDir()
    const store = openSqliteStore(dir)
    const { record } = await createKeyService(store.keys).createWith({ name: 'granted-elsewhere' })
    const usage = createUsageRecorder(store.usage, { flushMs: 60_000 })
    const ledger = createCreditLedger({ keys: store.keys, usage, refreshMs: 60_000 })
    const now = Date.now()
    assert.equal(await ledger.view(record, now), null) // /me here: no credits, read now
    // Another instance gives the key 10 credits (its ledger, not this one, forgets the key).
    const granted = await createKeyService(store.keys).update(record.id, { credits: 10 })
    assert.equal(granted!.credits?.base, 10)
    // This instance's key cache asks the store again (KEY_CACHE_TTL_MS): the key has credits.
    for (let i = 0; i < 2; i++) {
      const hold = await ledger.reserve(granted!, 5, now + 1)
      assert.notEqual(hold, null, 'metered')
      usage.record(record.id, 'probe', 5, now + 1)
      ledger.settle(hold!, 5)
    }
    await assert.rejects(ledger.reserve(granted!, 5, now + 1), (err: AppError) => err.code === 'CREDITS_EXHAUSTED')
    await usage.close()
    await store.close()
  })

  it('finds a rolled key\'s old hash in the cache during the grace, and refuses it after', async () => {
    const dir = tempDir()
    const store = openSqliteStore(dir, { keyCacheTtlMs: 60_000 })
    let now = Date.now()
    const keys = createKeyService(store.keys, { now: () => now })
    const { key: oldKey, record } = await keys.createWith({ name: 'cached-roll' })
    assert.equal((await keys.authenticate(oldKey)).id, record.id) // cached under the old hash
    await keys.roll(record.id, 10)
    assert.equal((await store.keys.findByHash(hashKey(oldKey)))!.previousHash, hashKey(oldKey))
    assert.equal((await keys.authenticate(oldKey)).id, record.id)
    now += 10_000
    await assert.rejects(keys.authenticate(oldKey), (err: AppError) => err.code === 'AUTH_KEY_ROLLED')
    await store.close()
  })
})
