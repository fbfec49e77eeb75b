// When PostgreSQL fails (issue 25): every store call has a deadline and fails as
// StoreUnavailableError (never hangs, never an untyped error), calls waiting for a
// connection are bounded, a failure short-circuits the next calls for a moment, and what
// the caches hold keeps answering for a bounded time past its TTL. The first part runs
// on fakes with a hand-moved clock; the second on the real PostgreSQL, reached directly
// or through test/support/fault-proxy.ts so it can be cut or stalled.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import net from 'node:net'
import { after, before, describe, it } from 'node:test'
import { hashKey } from '../../../../src/access/keys.js'
import { withGifCache } from '../../../../src/store/cached-gifs.js'
import { withKeyCache } from '../../../../src/store/cached-keys.js'
import { sha256 } from '../../../../src/store/gif-files.js'
import { type ApiKeyRecord, type GifCatalogStore, type GifRecord, isStoreUnavailable, type KeyStore, type Store, StoreUnavailableError } from '../../../../src/store/interface.js'
import { CONNECT_TIMEOUT_MS, openPostgresPool, QUERY_TIMEOUT_MS, STATEMENT_TIMEOUT_MS } from '../../../../src/store/postgres/database.js'
import { classifyFailure, createStoreGuard, OPEN_MS, STORE_RETRY_AFTER_S } from '../../../../src/store/postgres/guard.js'
import { openPostgresStore } from '../../../../src/store/postgres/index.js'
import { dropSchema, postgresMissing, TEST_DATABASE_URL, uniqueName } from '../../../support/backends.js'
import { startFaultProxy } from '../../../support/fault-proxy.js'
import { tempDir } from '../../../support/helpers.js'

const outage = (): StoreUnavailableError => new StoreUnavailableError('PostgreSQL cannot be reached', STORE_RETRY_AFTER_S)

/** Rejects with what `promise` rejects with, and how long that took. */
async function failure (promise: Promise<unknown>): Promise<{ err: unknown, ms: number }> {
  const start = Date.now()
  try {
    await promise
  } catch (err) {
    return { err, ms: Date.now() - start }
  }
  assert.fail('expected the call to fail')
}

function keyRecord (name: string, status: ApiKeyRecord['status'] = 'active'): ApiKeyRecord {
  return { id: 1, name, prefix: 'um_x', hash: hashKey(name), status, source: 'cli', limits: { rateMax: null, rateWindowMs: null, quotaMax: null, quotaPeriod: null }, linkId: 'AAAAAAAAAAAAAAAA', linkSeed: 'seed', owner: null, meta: null, expiresAt: null, unitsTotal: 0, credits: null, previousHash: null, previousValidUntil: null, createdAt: new Date(0), updatedAt: new Date(0) }
}

describe('classifying failures', () => {
  it('reads network errors and node-postgres timeouts as connection failures, server timeouts as busy, the rest as ordinary errors', () => {
    assert.equal(classifyFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })), 'connection')
    assert.equal(classifyFailure(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })), 'connection')
    assert.equal(classifyFailure(new Error('timeout exceeded when trying to connect')), 'connection')
    assert.equal(classifyFailure(new Error('Query read timeout')), 'connection')
    assert.equal(classifyFailure(new Error('Connection terminated unexpectedly')), 'connection')
    assert.equal(classifyFailure(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })), 'connection')
    assert.equal(classifyFailure(Object.assign(new Error('sorry, too many clients already'), { code: '53300' })), 'connection')
    assert.equal(classifyFailure(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' })), 'busy')
    assert.equal(classifyFailure(Object.assign(new Error('duplicate key'), { code: '23505' })), undefined)
    assert.equal(classifyFailure(Object.assign(new Error('syntax error'), { code: '42601' })), undefined)
    assert.equal(classifyFailure(new Error('anything else')), undefined)
  })
})

describe('the guard', () => {
  const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })

  it('turns a connection failure into StoreUnavailableError, then fails fast without calling until OPEN_MS has passed, then lets one probe through', async () => {
    let t = 1_000_000
    let calls = 0
    const guard = createStoreGuard({ now: () => t })
    const { err } = await failure(guard.run(async () => { calls++; throw refused() }))
    assert.ok(isStoreUnavailable(err))
    assert.equal((err as StoreUnavailableError).retryAfterSeconds, STORE_RETRY_AFTER_S)
    assert.equal(((err as Error).cause as Error).message, 'connect ECONNREFUSED', 'the cause is kept for the log')
    assert.equal(guard.state, 'open')
    t += OPEN_MS - 1
    assert.ok(isStoreUnavailable((await failure(guard.run(async () => { calls++; return 1 }))).err))
    assert.equal(calls, 1, 'not called while open')
    t += 1
    let release!: () => void
    const probe = guard.run(() => new Promise<number>((resolve) => { calls++; release = () => resolve(2) }))
    assert.equal(guard.state, 'probing')
    assert.ok(isStoreUnavailable((await failure(guard.run(async () => { calls++; return 3 }))).err), 'others fail fast during the probe')
    release()
    assert.equal(await probe, 2)
    assert.equal(guard.state, 'closed')
    assert.equal(await guard.run(async () => 4), 4)
    assert.equal(calls, 2)
  })

  it('lets ordinary errors through unchanged, and a statement timeout fails as unavailable without opening', async () => {
    const guard = createStoreGuard()
    const conflict = Object.assign(new Error('duplicate key'), { code: '23505' })
    assert.equal((await failure(guard.run(async () => { throw conflict }))).err, conflict)
    const slow = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' })
    assert.ok(isStoreUnavailable((await failure(guard.run(async () => { throw slow }))).err))
    assert.equal(guard.state, 'closed')
  })

  it('fails at once when too many calls already wait for a connection (the bulkhead)', async () => {
    const guard = createStoreGuard({ connections: 2, maxWaiting: 1 })
    let release!: () => void
    const held = new Promise<void>((resolve) => { release = resolve })
    const running = [1, 2, 3].map(() => guard.run(() => held))
    let called = false
    const { err, ms } = await failure(guard.run(async () => { called = true }))
    assert.ok(isStoreUnavailable(err))
    assert.match((err as Error).message, /1 calls already wait/)
    assert.equal(called, false)
    assert.ok(ms < 50)
    release()
    await Promise.all(running)
    assert.equal(await guard.run(async () => 'ok'), 'ok', 'room again once they end')
  })
})

describe('the key cache while the store is unavailable', () => {
  function failingKeys () {
    const records = new Map<string, ApiKeyRecord>()
    const state = { down: false }
    const store = {
      async findByHash (hash: string) {
        if (state.down) throw outage()
        return records.get(hash)
      }
    } as unknown as KeyStore
    return { store, records, state }
  }

  it('answers a key it held for KEY_STALE_MS past its TTL, then fails; a key it never held fails at once', async () => {
    const inner = failingKeys()
    let now = 1_000_000
    const cached = withKeyCache(inner.store, 1000, { now: () => now, staleMs: 60_000 })
    inner.records.set(hashKey('bot'), keyRecord('bot'))
    assert.equal((await cached.findByHash(hashKey('bot')))!.name, 'bot')
    assert.equal(await cached.findByHash(hashKey('stranger')), undefined) // a cached miss
    inner.state.down = true
    now += 1000 + 59_999
    assert.equal((await cached.findByHash(hashKey('bot')))!.name, 'bot', 'within the bound')
    assert.equal(await cached.findByHash(hashKey('stranger')), undefined, 'a held miss stays a miss')
    assert.ok(isStoreUnavailable((await failure(cached.findByHash(hashKey('new')))).err), 'never held')
    now += 1
    assert.ok(isStoreUnavailable((await failure(cached.findByHash(hashKey('bot')))).err), 'past the bound')
    inner.state.down = false
    assert.equal((await cached.findByHash(hashKey('bot')))!.name, 'bot', 'back once the store answers')
  })

  it('does not hide other errors behind the cache', async () => {
    let now = 0
    const boom = new Error('bug')
    let fail = false
    const cached = withKeyCache({ async findByHash () { if (fail) throw boom; return keyRecord('a') } } as unknown as KeyStore, 10, { now: () => now })
    await cached.findByHash(hashKey('a'))
    fail = true
    now += 11
    assert.equal((await failure(cached.findByHash(hashKey('a')))).err, boom)
  })
})

describe('the gif cache while the store is unavailable', () => {
  const gifs: GifRecord[] = [0, 1, 2, 3].map((i) => ({ id: i + 1, category: 'hug', hash: sha256(Buffer.from([i])), url: null, size: 10, width: 1, height: 1, frames: 1, contentType: 'image/gif', addedAt: new Date(0), hidden: false }))
  function failingCatalog () {
    const state = { down: false }
    const store = {
      async categoryState () { if (state.down) throw outage(); return { count: gifs.length, version: 1 } },
      async pick (_category: string, choose: (n: number) => number[]) { if (state.down) throw outage(); return choose(gifs.length).map((i) => gifs[i]!) }
    } as unknown as GifCatalogStore
    return { store, state }
  }

  it('picks among the held gifs for GIF_STALE_MS past the TTL, then fails; a category never picked fails at once', async () => {
    const inner = failingCatalog()
    let now = 1_000_000
    const cached = withGifCache(inner.store, 1000, { now: () => now, staleMs: 60_000 })
    assert.equal((await cached.pickOne('hug', 0.1))!.id, 1)
    assert.equal((await cached.pickOne('hug', 0.9))!.id, 4)
    inner.state.down = true
    now += 1000 + 59_999
    // Held: positions 0 and 3. A held position answers itself; another is a pick among the held.
    assert.equal((await cached.pickOne('hug', 0.1))!.id, 1)
    assert.equal((await cached.pickOne('hug', 0.9))!.id, 4)
    assert.equal((await cached.pickOne('hug', 0.3))!.id, 1)
    assert.equal((await cached.pickOne('hug', 0.6))!.id, 4)
    const two = await cached.pick('hug', (n) => { assert.equal(n, 2); return [1, 0] })
    assert.deepEqual(two.map((g) => g.id), [4, 1])
    assert.ok(isStoreUnavailable((await failure(cached.pickOne('pat', 0.5))).err), 'never picked')
    now += 1
    assert.ok(isStoreUnavailable((await failure(cached.pickOne('hug', 0.1))).err), 'past the bound')
    inner.state.down = false
    assert.equal((await cached.pickOne('hug', 0.6))!.id, 3, 'back once the store answers')
  })
})

const missing = await postgresMissing()

/** A port nothing listens on: bound a moment ago, then closed. */
function closedPort (): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port
      server.close(() => resolve(port))
    })
  })
}

describe('PostgreSQL failing, for real', { skip: missing }, () => {
  const target = new URL(TEST_DATABASE_URL)
  const schema = uniqueName('faults')
  const dataDir = tempDir('uma-pg-faults-')
  let proxy: Awaited<ReturnType<typeof startFaultProxy>>
  let store: Store
  const gifBytes = Buffer.from('GIF89a fault test bytes')
  const gifHash = sha256(gifBytes)

  before(async () => {
    proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) })
    const viaProxy = new URL(TEST_DATABASE_URL)
    viaProxy.port = String(proxy.port)
    store = await openPostgresStore(viaProxy.toString(), { schema, dataDir, keyCacheTtlMs: 200, gifCacheTtlMs: 200, staleMs: 60_000, guard: { openMs: 300 } })
    await store.keys.create({ name: 'held', prefix: 'um_held', hash: hashKey('held-key'), source: 'cli' })
    await store.gifFiles.put(gifHash, gifBytes)
    await store.gifs.add([{ category: 'hug', hash: gifHash, url: null, size: gifBytes.length, width: 1, height: 1, frames: 1, contentType: 'image/gif' }])
    // Held by the caches: the key, the category and its one gif.
    assert.equal((await store.keys.findByHash(hashKey('held-key')))!.name, 'held')
    assert.equal((await store.gifs.pickOne('hug', 0.5))!.hash, gifHash)
  })

  after(async () => {
    await proxy?.pass()
    await store?.close()
    await proxy?.close()
    await dropSchema(schema)
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('a store opened against a closed port fails at once with StoreUnavailableError', async () => {
    const url = new URL(TEST_DATABASE_URL)
    url.port = String(await closedPort())
    const { err, ms } = await failure(openPostgresStore(url.toString(), { dataDir }))
    assert.ok(isStoreUnavailable(err), String(err))
    assert.doesNotMatch((err as Error).message, /postgres:\/\//, 'the URL (it may hold a password) is not in the message')
    assert.ok(ms < 1000, `${ms} ms`)
  })

  it('a statement longer than the statement timeout fails as unavailable soon after the timeout', async () => {
    const pool = await openPostgresPool(TEST_DATABASE_URL)
    try {
      const guard = createStoreGuard()
      const { err, ms } = await failure(guard.run(() => pool.query(`SELECT pg_sleep(${STATEMENT_TIMEOUT_MS / 1000 + 3})`)))
      assert.ok(isStoreUnavailable(err), String(err))
      assert.equal(((err as Error).cause as { code?: string }).code, '57014')
      assert.ok(ms >= STATEMENT_TIMEOUT_MS - 100 && ms < STATEMENT_TIMEOUT_MS + 1000, `${ms} ms`)
      assert.equal((await pool.query('SELECT 1 AS one')).rows[0].one, 1, 'the pool still works')
    } finally {
      await pool.end()
    }
  })

  it('bounds the calls waiting for a connection: past the bound a call fails at once', async () => {
    const pool = await openPostgresPool(TEST_DATABASE_URL)
    try {
      const guard = createStoreGuard({ maxWaiting: 5 })
      // 10 connections busy and 5 calls waiting for one: the 5 past them fail at once.
      const start = Date.now()
      const settled = await Promise.allSettled(Array.from({ length: 20 }, () => guard.run(() => pool.query('SELECT pg_sleep(0.5)'))))
      const refused = settled.filter((r) => r.status === 'rejected')
      assert.equal(settled.filter((r) => r.status === 'fulfilled').length, 15)
      assert.ok(Date.now() - start < 1500, `${Date.now() - start} ms: the waiting ones ran once a connection was free`)
      assert.ok(refused.length === 5 && refused.every((r) => isStoreUnavailable(r.reason)))
    } finally {
      await pool.end()
    }
  })

  it('cut: the held key, the held gifs and the gif file answer; other calls fail fast as unavailable; all back once it returns', async () => {
    await proxy.cut()
    await new Promise((resolve) => setTimeout(resolve, 250)) // past the TTLs
    const start = Date.now()
    assert.equal((await store.keys.findByHash(hashKey('held-key')))!.name, 'held')
    assert.equal((await store.gifs.pickOne('hug', 0.1))!.hash, gifHash)
    const file = await store.gifs.findByHash(gifHash)
    assert.equal(file!.hash, gifHash)
    assert.equal(file!.size, gifBytes.length)
    const opened = await store.gifFiles.open(gifHash)
    assert.equal(opened!.size, gifBytes.length)
    await opened!.close()
    for (const call of [store.keys.findByHash(hashKey('unknown-key')), store.ping(), store.usage.unitsSince(1, '2026-01-01'), store.gifs.pickOne('pat', 0.5), store.gifs.findByHash(sha256(Buffer.from('not held')))]) {
      assert.ok(isStoreUnavailable((await failure(call)).err))
    }
    assert.ok(Date.now() - start < 1000, `${Date.now() - start} ms`)

    await proxy.pass()
    await new Promise((resolve) => setTimeout(resolve, 350)) // the guard's open period
    await store.ping()
    assert.equal(await store.keys.findByHash(hashKey('unknown-key')), undefined)
  })

  it('reset: a connection reset by the server side is unavailable, not an untyped error', async () => {
    await store.ping() // a pooled connection to reset
    await proxy.reset()
    try {
      const { err } = await failure(store.ping())
      assert.ok(isStoreUnavailable(err), String(err))
    } finally {
      await proxy.pass()
    }
    await new Promise((resolve) => setTimeout(resolve, 350))
    await store.ping()
  })

  it('black hole: calls fail within the deadlines while the held entries answer at once', async () => {
    await store.ping()
    await proxy.blackHole()
    try {
      await new Promise((resolve) => setTimeout(resolve, 250))
      // The first call waits for the deadline (the pooled connection's answer never comes:
      // QUERY_TIMEOUT_MS; a new connection: CONNECT_TIMEOUT_MS), once: a transaction's
      // ROLLBACK does not wait behind the unanswered query for a second timeout…
      const first = await failure(store.gifs.pick('pat', () => [0]))
      assert.ok(isStoreUnavailable(first.err), String(first.err))
      assert.ok(first.ms < Math.max(QUERY_TIMEOUT_MS, CONNECT_TIMEOUT_MS) + 1000, `${first.ms} ms`)
      // …then the guard answers at once, and 100 calls at once all end quickly.
      const start = Date.now()
      const results = await Promise.allSettled(Array.from({ length: 100 }, () => store.ping()))
      assert.ok(results.every((r) => r.status === 'rejected' && isStoreUnavailable(r.reason)))
      assert.ok(Date.now() - start < 200, `${Date.now() - start} ms`)
      const held = Date.now()
      assert.equal((await store.keys.findByHash(hashKey('held-key')))!.name, 'held')
      assert.equal((await store.gifs.pickOne('hug', 0.7))!.hash, gifHash)
      assert.equal((await store.gifs.findByHash(gifHash))!.hash, gifHash)
      assert.ok(Date.now() - held < 200, `${Date.now() - held} ms`)
    } finally {
      await proxy.pass()
    }
  })
})
