// Owner, meta, expiry, credits, refill and roll on keys (migration 8): the same tests
// over SQLite and PostgreSQL.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, describe, it } from 'node:test'
import { hashKey } from '../../../src/access/keys.js'
import { type Store, storedCredits, StoreConflictError } from '../../../src/store/interface.js'
import { openPostgresStore } from '../../../src/store/postgres/index.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { dropSchema, postgresMissing, TEST_DATABASE_URL, uniqueName } from '../../support/backends.js'
import { tempDir } from '../../support/helpers.js'

interface Backend { name: string, skip: Promise<string | undefined>, open (): Promise<{ store: Store, cleanup (): Promise<void> }> }

const backends: Backend[] = [
  {
    name: 'sqlite',
    skip: Promise.resolve(undefined),
    async open () {
      const dir = tempDir()
      // No key cache: every call reaches the backend under test.
      const store = openSqliteStore(dir, { keyCacheTtlMs: 0 })
      return { store, async cleanup () { await store.close(); fs.rmSync(dir, { recursive: true, force: true }) } }
    }
  },
  {
    name: 'postgres',
    skip: postgresMissing(),
    async open () {
      const schema = uniqueName('credits')
      const dir = tempDir()
      const store = await openPostgresStore(TEST_DATABASE_URL, { schema, dataDir: dir, keyCacheTtlMs: 0 })
      return { store, async cleanup () { await store.close(); await dropSchema(schema); fs.rmSync(dir, { recursive: true, force: true }) } }
    }
  }
]

let n = 0
const key = (name: string, extra: Record<string, unknown> = {}) => ({ name, prefix: 'um_test', hash: hashKey(`${name}-${n++}`), source: 'cli' as const, ...extra })

for (const backend of backends) {
  describe(`key credits contract: ${backend.name}`, async () => {
    const skip = await backend.skip
    if (skip) {
      it(`skipped: ${skip}`, { skip })
      return
    }
    const { store, cleanup } = await backend.open()
    after(cleanup)

    it('keeps owner, meta and expiry; a key without credits is not metered', async () => {
      const expiresAt = new Date(Date.UTC(2030, 0, 1))
      const k = await store.keys.create(key('owned', { owner: 'cus_1', meta: { plan: 'pro', seats: 3 }, expiresAt }))
      assert.equal(k.owner, 'cus_1')
      assert.deepEqual(k.meta, { plan: 'pro', seats: 3 })
      assert.deepEqual(k.expiresAt, expiresAt)
      assert.equal(k.credits, null)
      assert.equal(storedCredits(k), null)
      assert.deepEqual(await store.keys.findById(k.id), k)
      assert.equal(await store.keys.findById(999_999), undefined)
    })

    it('raises units_total in the usage batch\'s transaction, once per batch id, and credits follow it', async () => {
      const k = await store.keys.create(key('metered', { credits: 100 }))
      assert.deepEqual(k.credits, { base: 100, mark: 0, granted: 100, refill: null, refilledPeriod: null })
      const entries = [{ keyId: k.id, day: '2026-11-28', group: 'generation', requests: 2, units: 10 }, { keyId: k.id, day: '2026-11-28', group: 'colors', requests: 1, units: 1 }]
      await store.usage.add(entries, 'b8a8c0c6-0000-4000-8000-000000000001')
      // The same batch again (a retry after a lost reply) changes nothing.
      await store.usage.add(entries, 'b8a8c0c6-0000-4000-8000-000000000001')
      const after = (await store.keys.findById(k.id))!
      assert.equal(after.unitsTotal, 11)
      assert.equal(storedCredits(after), 89)
      // Without a batch id too.
      await store.usage.add([{ keyId: k.id, day: '2026-11-28', group: 'colors', requests: 1, units: 4 }])
      assert.equal(storedCredits((await store.keys.findById(k.id))!), 85)
    })

    it('sets credits from now on, adds to what is left, and starts a key without credits from 0', async () => {
      const k = await store.keys.create(key('topped'))
      await store.usage.add([{ keyId: k.id, day: '2026-11-28', group: 'colors', requests: 7, units: 7 }], 'b8a8c0c6-0000-4000-8000-000000000002')
      let r = (await store.keys.update(k.id, { addCredits: 10 }))!
      assert.equal(storedCredits(r), 10, 'units billed before credits are not taken from them')
      assert.equal(r.credits!.granted, 10)
      await store.usage.add([{ keyId: k.id, day: '2026-11-28', group: 'colors', requests: 3, units: 3 }], 'b8a8c0c6-0000-4000-8000-000000000003')
      r = (await store.keys.update(k.id, { addCredits: 5 }))!
      assert.equal(storedCredits(r), 12)
      assert.equal(r.credits!.granted, 12)
      r = (await store.keys.update(k.id, { credits: 50 }))!
      assert.equal(storedCredits(r), 50)
      r = (await store.keys.update(k.id, { credits: null }))!
      assert.equal(r.credits, null)
    })

    it('refills once per period, never lowering what is left', async () => {
      const k = await store.keys.create(key('refilled', { credits: 20, refill: { amount: 20, period: 'day' }, refilledPeriod: '2026-11-27' }))
      await store.usage.add([{ keyId: k.id, day: '2026-11-28', group: 'colors', requests: 15, units: 15 }], 'b8a8c0c6-0000-4000-8000-000000000004')
      const r = (await store.keys.refill(k.id, '2026-11-28'))!
      assert.equal(storedCredits(r), 20)
      assert.equal(r.credits!.refilledPeriod, '2026-11-28')
      // Another instance asking for the same period: nothing to do.
      assert.equal(await store.keys.refill(k.id, '2026-11-28'), undefined)
      // More than the amount left: a refill does not lower it.
      await store.keys.update(k.id, { addCredits: 30 })
      const next = (await store.keys.refill(k.id, '2026-11-29'))!
      assert.equal(storedCredits(next), 50)
      // No refill set: nothing to do.
      const plain = await store.keys.create(key('no-refill', { credits: 5 }))
      assert.equal(await store.keys.refill(plain.id, '2026-11-29'), undefined)
    })

    it('rolls: same id, usage and credits; the old hash is still found, with its grace', async () => {
      const oldHash = hashKey('roll-old')
      const k = await store.keys.create({ ...key('rolled', { credits: 9 }), hash: oldHash })
      const until = new Date(Date.now() + 30_000)
      const r = (await store.keys.roll(k.id, { hash: hashKey('roll-new'), prefix: 'um_new', previousValidUntil: until }))!
      assert.equal(r.id, k.id)
      assert.equal(r.hash, hashKey('roll-new'))
      assert.equal(r.prefix, 'um_new')
      assert.equal(r.previousHash, oldHash)
      assert.deepEqual(r.previousValidUntil, until)
      assert.equal(storedCredits(r), 9)
      assert.equal((await store.keys.findByHash(oldHash))!.id, k.id)
      assert.equal((await store.keys.findByHash(hashKey('roll-new')))!.id, k.id)
      // A second roll forgets the first secret.
      await store.keys.roll(k.id, { hash: hashKey('roll-newer'), prefix: 'um_nwr', previousValidUntil: until })
      assert.equal(await store.keys.findByHash(oldHash), undefined)
      assert.equal((await store.keys.findByHash(hashKey('roll-new')))!.previousHash, hashKey('roll-new'))
    })

    it('lists by owner, part of the name, status (expired too) and pages by id', async () => {
      const now = Date.now()
      const a = await store.keys.create(key('shop-a1', { owner: 'cus_list' }))
      const b = await store.keys.create(key('shop-A2', { owner: 'cus_list', expiresAt: new Date(now - 1000) }))
      const c = await store.keys.create(key('shop-a3', { owner: 'cus_list' }))
      await store.keys.update(c.id, { status: 'disabled' })
      const ids = async (filter: Parameters<Store['keys']['list']>[0]) => (await store.keys.list(filter)).map((r) => r.id)
      assert.deepEqual(await ids({ owner: 'cus_list' }), [a.id, b.id, c.id])
      assert.deepEqual(await ids({ name: 'SHOP-A' }), [a.id, b.id, c.id])
      assert.deepEqual(await ids({ owner: 'cus_list', status: 'active', now }), [a.id])
      assert.deepEqual(await ids({ owner: 'cus_list', status: 'expired', now }), [b.id])
      assert.deepEqual(await ids({ owner: 'cus_list', status: 'disabled' }), [c.id])
      assert.deepEqual(await ids({ owner: 'cus_list', afterId: a.id, limit: 1 }), [b.id])
      assert.deepEqual(await ids({ owner: 'nobody' }), [])
    })

    it('finds the active keys expiring in a window, soonest first', async () => {
      const base = Date.UTC(2031, 5, 1)
      const late = await store.keys.create(key('exp-late', { expiresAt: new Date(base + 2000) }))
      const soon = await store.keys.create(key('exp-soon', { expiresAt: new Date(base + 1000) }))
      const off = await store.keys.create(key('exp-off', { expiresAt: new Date(base + 1500) }))
      await store.keys.update(off.id, { status: 'revoked' })
      await store.keys.create(key('exp-after', { expiresAt: new Date(base + 3000) }))
      assert.deepEqual((await store.keys.expiringBetween(base, base + 3000)).map((r) => r.id), [soon.id, late.id])
    })

    it('updates several fields at once and refuses a taken name', async () => {
      const k = await store.keys.create(key('patched'))
      const r = (await store.keys.update(k.id, { name: 'patched-2', owner: 'cus_9', meta: { a: 1 }, limits: { quotaMax: 100, quotaPeriod: 'day' }, expiresAt: new Date(Date.UTC(2032, 0, 1)), refill: { amount: 5, period: 'month' }, refilledPeriod: '2026-11', credits: 5 }))!
      assert.equal(r.name, 'patched-2')
      assert.equal(r.owner, 'cus_9')
      assert.deepEqual(r.meta, { a: 1 })
      assert.deepEqual(r.limits, { rateMax: null, rateWindowMs: null, quotaMax: 100, quotaPeriod: 'day' })
      assert.deepEqual(r.credits, { base: 5, mark: 0, granted: 5, refill: { amount: 5, period: 'month' }, refilledPeriod: '2026-11' })
      const cleared = (await store.keys.update(k.id, { owner: null, meta: null, expiresAt: null, refill: null }))!
      assert.equal(cleared.owner, null)
      assert.equal(cleared.meta, null)
      assert.equal(cleared.expiresAt, null)
      assert.equal(cleared.credits!.refill, null)
      await assert.rejects(store.keys.update(k.id, { name: 'owned' }), StoreConflictError)
      assert.equal(await store.keys.update(999_999, { owner: 'x' }), undefined)
    })
  })
}
