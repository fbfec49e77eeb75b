// One contract, every store: the same tests over SQLite and PostgreSQL.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, describe, it } from 'node:test'
import { hashKey } from '../../src/access/keys.js'
import { type Store, StoreConflictError } from '../../src/store/interface.js'
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.js'
import { openPostgresStore } from '../../src/store/postgres/index.js'
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import { dropSchema, postgresMissing, TEST_DATABASE_URL, uniqueName } from '../backends.js'
import { tempDir } from '../helpers.js'

interface Backend { name: string, skip: Promise<string | undefined>, open (): Promise<{ store: Store, cleanup (): Promise<void> }> }

const backends: Backend[] = [
  {
    name: 'sqlite',
    skip: Promise.resolve(undefined),
    async open () {
      const dir = tempDir()
      const store = openSqliteStore(dir)
      return { store, async cleanup () { await store.close(); fs.rmSync(dir, { recursive: true, force: true }) } }
    }
  },
  {
    name: 'postgres',
    skip: postgresMissing(),
    async open () {
      const schema = uniqueName('contract')
      const dir = tempDir()
      const store = await openPostgresStore(TEST_DATABASE_URL, { schema, dataDir: dir })
      return { store, async cleanup () { await store.close(); await dropSchema(schema); fs.rmSync(dir, { recursive: true, force: true }) } }
    }
  }
]

it('keeps the SQLite and PostgreSQL migrations in step (same versions, same names)', () => {
  assert.deepEqual(POSTGRES_MIGRATIONS.map((m) => [m.version, m.name]), SQLITE_MIGRATIONS.map((m) => [m.version, m.name]))
})

for (const backend of backends) {
  describe(`store contract: ${backend.name}`, async () => {
    const skip = await backend.skip
    if (skip) {
      it(`skipped: ${skip}`, { skip })
      return
    }
    const { store, cleanup } = await backend.open()
    after(cleanup)

    it('creates keys and finds them by hash and by name', async () => {
      const created = await store.keys.create({ name: 'alpha', prefix: 'um_abcd', hash: hashKey('alpha-key'), source: 'cli' })
      assert.equal(created.name, 'alpha')
      assert.equal(created.status, 'active')
      assert.deepEqual(created.limits, { rateMax: null, rateWindowMs: null, quotaMax: null, quotaPeriod: null })
      assert.ok(created.createdAt instanceof Date && Math.abs(created.createdAt.getTime() - Date.now()) < 60_000)
      assert.deepEqual(await store.keys.findByHash(hashKey('alpha-key')), created)
      assert.deepEqual(await store.keys.findByName('alpha'), created)
      assert.equal(await store.keys.findByHash(hashKey('nope')), undefined)
      assert.equal(await store.keys.count(), 1)
    })

    it('refuses a duplicate name or key with a conflict naming the field', async () => {
      await assert.rejects(store.keys.create({ name: 'alpha', prefix: 'x', hash: hashKey('other'), source: 'cli' }), (e: unknown) => e instanceof StoreConflictError && e.field === 'name')
      await assert.rejects(store.keys.create({ name: 'beta', prefix: 'x', hash: hashKey('alpha-key'), source: 'cli' }), (e: unknown) => e instanceof StoreConflictError && e.field === 'hash')
    })

    it('changes status and limits, and lists keys in creation order', async () => {
      await store.keys.create({ name: 'beta', prefix: 'um_beta', hash: hashKey('beta-key'), source: 'env', limits: { quotaMax: 10, quotaPeriod: 'day' } })
      assert.equal((await store.keys.setStatus('alpha', 'disabled'))!.status, 'disabled')
      assert.equal(await store.keys.setStatus('ghost', 'disabled'), undefined)
      const limited = await store.keys.setLimits('alpha', { rateMax: 5, rateWindowMs: 1000 })
      assert.deepEqual(limited!.limits, { rateMax: 5, rateWindowMs: 1000, quotaMax: null, quotaPeriod: null })
      const partly = await store.keys.setLimits('alpha', { quotaMax: 7, quotaPeriod: 'month' })
      assert.deepEqual(partly!.limits, { rateMax: 5, rateWindowMs: 1000, quotaMax: 7, quotaPeriod: 'month' })
      assert.equal(await store.keys.setLimits('ghost', { rateMax: 1 }), undefined)
      const list = await store.keys.list()
      assert.deepEqual(list.map((k) => [k.name, k.status, k.source]), [['alpha', 'disabled', 'cli'], ['beta', 'active', 'env']])
      assert.deepEqual(list[1]!.limits, { rateMax: null, rateWindowMs: null, quotaMax: 10, quotaPeriod: 'day' })
    })

    it('renames a key, keeping its id and hash; refuses a taken name with a conflict', async () => {
      await store.keys.create({ name: 'gamma', prefix: 'um_gamm', hash: hashKey('gamma-key'), source: 'cli' })
      const renamed = await store.keys.rename('gamma', 'gamma-2')
      assert.equal(renamed!.name, 'gamma-2')
      assert.equal((await store.keys.findByHash(hashKey('gamma-key')))!.name, 'gamma-2')
      assert.equal(await store.keys.findByName('gamma'), undefined)
      assert.equal(await store.keys.rename('ghost', 'anything'), undefined)
      await assert.rejects(store.keys.rename('gamma-2', 'alpha'), (e: unknown) => e instanceof StoreConflictError && e.field === 'name')
      assert.equal((await store.keys.findByName('gamma-2'))!.id, renamed!.id)
    })

    it('sums usage per key, day and group, and totals units since a day', async () => {
      const alpha = (await store.keys.findByName('alpha'))!
      const beta = (await store.keys.findByName('beta'))!
      await store.usage.add([
        { keyId: alpha.id, day: '2026-11-01', group: 'colors', requests: 2, units: 2 },
        { keyId: alpha.id, day: '2026-11-02', group: 'conversion', requests: 1, units: 5 },
        { keyId: beta.id, day: '2026-11-02', group: 'colors', requests: 1, units: 1 }
      ])
      await store.usage.add([{ keyId: alpha.id, day: '2026-11-02', group: 'conversion', requests: 3, units: 15 }])
      await store.usage.add([])
      assert.equal(await store.usage.unitsSince(alpha.id, '2026-11-01'), 22)
      assert.equal(await store.usage.unitsSince(alpha.id, '2026-11-02'), 20)
      assert.equal(await store.usage.unitsSince(alpha.id, '2026-11-03'), 0)
      assert.deepEqual(await store.usage.list({ keyId: alpha.id, sinceDay: '2026-11-02' }), [
        { keyId: alpha.id, day: '2026-11-02', group: 'conversion', requests: 4, units: 20 }
      ])
      assert.equal((await store.usage.list({})).length, 3)
    })

    it('applies a usage batch at most once by its id (a retry after a lost reply adds nothing)', async () => {
      const alpha = (await store.keys.findByName('alpha'))!
      const before = await store.usage.unitsSince(alpha.id, '2026-12-01')
      const batch = [{ keyId: alpha.id, day: '2026-12-01', group: 'generation', requests: 2, units: 10 }]
      await store.usage.add(batch, '0f4e2c1a-0000-4000-8000-000000000001')
      await store.usage.add(batch, '0f4e2c1a-0000-4000-8000-000000000001')
      await store.usage.add(batch, '0f4e2c1a-0000-4000-8000-000000000002')
      assert.equal(await store.usage.unitsSince(alpha.id, '2026-12-01'), before + 20)
    })

    it('keeps a gif catalog with dense positions, picks by position, and refuses duplicates', async () => {
      const gif = (category: string, n: number) => ({ category, hash: n.toString(16).padStart(64, '0'), url: null, size: 100 + n, width: 10, height: 20, frames: 3, contentType: 'image/gif' })
      const added = await store.gifs.add([gif('hug', 1), gif('hug', 2), gif('hug', 3), gif('pat', 4)])
      assert.deepEqual(added.map((g) => [g.category, g.size]), [['hug', 101], ['hug', 102], ['hug', 103], ['pat', 104]])
      assert.deepEqual(await store.gifs.counts(), { hug: 3, pat: 1 })
      await assert.rejects(store.gifs.add([gif('hug', 9), gif('hug', 1)]), StoreConflictError)
      assert.deepEqual(await store.gifs.counts(), { hug: 3, pat: 1 }, 'all or nothing')
      assert.equal((await store.gifs.pickOne('hug', 0))!.size, 101)
      assert.equal((await store.gifs.pickOne('hug', 0.5))!.size, 102)
      assert.equal((await store.gifs.pickOne('hug', 0.9999))!.size, 103)
      assert.equal(await store.gifs.pickOne('wave', 0.5), undefined)
      // Removing the first moves the last into its place: positions stay 0..n-1.
      assert.equal((await store.gifs.remove(added[0]!.id))!.size, 101)
      assert.equal(await store.gifs.remove(added[0]!.id), undefined)
      assert.deepEqual((await store.gifs.pick('hug', (n) => [...Array(n).keys()])).map((g) => g.size), [103, 102])
      assert.deepEqual(await store.gifs.pick('wave', () => { throw new Error('not called for an empty category') }), [])
      assert.equal((await store.gifs.findByHash(gif('pat', 4).hash))!.category, 'pat')
      assert.equal(await store.gifs.has('pat', { hash: gif('pat', 4).hash }), true)
      assert.equal(await store.gifs.has('hug', { hash: gif('pat', 4).hash }), false)
      assert.deepEqual([...await store.gifs.hashes()].sort(), [gif('hug', 2).hash, gif('hug', 3).hash, gif('pat', 4).hash].sort())
      assert.deepEqual((await store.gifs.list({ category: 'hug' })).map((g) => g.size), [102, 103])
    })

    it('raises a category\'s version on every add and remove in it, and on nothing else', async () => {
      const gif = (n: number) => ({ category: 'tickle', hash: (0x1000 + n).toString(16).padStart(64, '0'), url: null, size: n, width: 10, height: 20, frames: 3, contentType: 'image/gif' })
      assert.deepEqual(await store.gifs.categoryState('tickle'), { count: 0, version: 0 })
      const pat = await store.gifs.categoryState('pat')
      assert.equal(pat.count, 1)
      const [first] = await store.gifs.add([gif(1), gif(2)])
      const added = await store.gifs.categoryState('tickle')
      assert.equal(added.count, 2)
      assert.ok(added.version > 0, `version ${added.version}`)
      await assert.rejects(store.gifs.add([gif(3), gif(1)]), StoreConflictError)
      await store.gifs.pickOne('tickle', 0.5)
      await store.gifs.pick('tickle', () => [0, 1])
      assert.deepEqual(await store.gifs.categoryState('tickle'), added, 'a refused add and reads change nothing')
      await store.gifs.add([gif(3)])
      const addedAgain = await store.gifs.categoryState('tickle')
      assert.equal(addedAgain.count, 3)
      assert.ok(addedAgain.version > added.version, `${addedAgain.version} after ${added.version}`)
      await store.gifs.remove(first!.id)
      const removed = await store.gifs.categoryState('tickle')
      assert.equal(removed.count, 2)
      assert.ok(removed.version > addedAgain.version, `${removed.version} after ${addedAgain.version}`)
      assert.equal(await store.gifs.remove(first!.id), undefined)
      assert.deepEqual(await store.gifs.categoryState('tickle'), removed, 'removing an unknown id changes nothing')
      assert.deepEqual(await store.gifs.categoryState('pat'), pat, 'other categories keep their version')
    })

    it('removes several gifs in one call, across categories, skipping unknown ids', async () => {
      const gif = (category: string, n: number) => ({ category, hash: (0x2000 + n).toString(16).padStart(64, '0'), url: null, size: n, width: 10, height: 20, frames: 3, contentType: 'image/gif' })
      const added = await store.gifs.add([gif('wave', 1), gif('wave', 2), gif('wave', 3), gif('wink', 4)])
      const before = await store.gifs.categoryState('wave')
      const removed = await store.gifs.removeMany([added[0]!.id, added[3]!.id, 999_999, added[0]!.id])
      assert.deepEqual(removed.map((g) => [g.category, g.size]), [['wave', 1], ['wink', 4]])
      assert.equal((await store.gifs.categoryState('wave')).count, 2)
      assert.ok((await store.gifs.categoryState('wave')).version > before.version)
      assert.equal((await store.gifs.categoryState('wink')).count, 0)
      // Positions stay dense: both remaining gifs are picked by position.
      assert.deepEqual((await store.gifs.pick('wave', (n) => [...Array(n).keys()])).map((g) => g.size).sort(), [2, 3])
      assert.deepEqual(await store.gifs.removeMany([]), [])
    })

    it('answers ping, and closes once even when asked twice', async () => {
      await store.ping()
    })
  })
}
