// One contract, every store: the same tests over SQLite and PostgreSQL.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, describe, it } from 'node:test'
import { hashKey } from '../../../src/access/keys.js'
import { type Store, StoreConflictError } from '../../../src/store/interface.js'
import { POSTGRES_MIGRATIONS } from '../../../src/store/postgres/migrations.js'
import { openPostgresStore } from '../../../src/store/postgres/index.js'
import { SQLITE_MIGRATIONS } from '../../../src/store/sqlite/migrations.js'
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

    it('gives every key a link id and seed, finds it by link id, and rolls only the seed', async () => {
      const a = await store.keys.create({ name: 'linked-a', prefix: 'um_link', hash: hashKey('linked-a'), source: 'cli' })
      const b = await store.keys.create({ name: 'linked-b', prefix: 'um_link', hash: hashKey('linked-b'), source: 'cli', linkId: 'BBBBBBBBBBBBBBBB', linkSeed: 'given-seed' })
      assert.match(a.linkId, /^[A-Za-z0-9_-]{16}$/)
      assert.ok(a.linkSeed.length >= 16)
      assert.deepEqual([b.linkId, b.linkSeed], ['BBBBBBBBBBBBBBBB', 'given-seed'])
      assert.equal((await store.keys.findByLinkId(a.linkId))!.id, a.id)
      assert.equal(await store.keys.findByLinkId('CCCCCCCCCCCCCCCC'), undefined)
      const rolled = await store.keys.rollLinkSeed(a.id)
      assert.equal(rolled!.linkId, a.linkId)
      assert.notEqual(rolled!.linkSeed, a.linkSeed)
      assert.equal((await store.keys.findByLinkId(a.linkId))!.linkSeed, rolled!.linkSeed)
      assert.equal(await store.keys.rollLinkSeed(999_999), undefined)
      await assert.rejects(store.keys.create({ name: 'linked-c', prefix: 'um_link', hash: hashKey('linked-c'), source: 'cli', linkId: 'BBBBBBBBBBBBBBBB' }))
    })

    it('keeps minted links by id, the first one saved standing', async () => {
      const key = await store.keys.create({ name: 'minter', prefix: 'um_mint', hash: hashKey('minter'), source: 'cli' })
      await store.links.save({ id: 'x'.repeat(22), keyId: key.id, target: '/gen/custom?body=e30' })
      await store.links.save({ id: 'x'.repeat(22), keyId: key.id, target: '/gen/custom?body=other' })
      const link = await store.links.get('x'.repeat(22))
      assert.deepEqual({ id: link!.id, keyId: link!.keyId, target: link!.target }, { id: 'x'.repeat(22), keyId: key.id, target: '/gen/custom?body=e30' })
      assert.ok(link!.createdAt instanceof Date)
      assert.equal(await store.links.get('y'.repeat(22)), undefined)
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
      // untilDay bounds the range, both ends included
      assert.deepEqual(await store.usage.list({ keyId: alpha.id, sinceDay: '2026-11-01', untilDay: '2026-11-01' }), [
        { keyId: alpha.id, day: '2026-11-01', group: 'colors', requests: 2, units: 2 }
      ])
      assert.deepEqual((await store.usage.list({ untilDay: '2026-11-01' })).map((e) => [e.keyId, e.day]), [[alpha.id, '2026-11-01']])
      assert.deepEqual((await store.usage.list({ sinceDay: '2026-11-02', untilDay: '2026-11-02' })).map((e) => [e.keyId, e.group]), [[alpha.id, 'conversion'], [beta.id, 'colors']])
      assert.deepEqual(await store.usage.list({ sinceDay: '2026-11-03', untilDay: '2026-11-30' }), [])
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

    it('keeps attribution, colour and perceptual hash, and changes them with setAttribution', async () => {
      const gif = (n: number) => ({ category: 'smug', hash: (0x3000 + n).toString(16).padStart(64, '0'), url: null, size: n, width: 10, height: 20, frames: 3, contentType: 'image/gif' })
      const [plain, full] = await store.gifs.add([gif(1), {
        ...gif(2), animeName: 'Frieren', artist: 'Someone', artistUrl: 'https://example.com/a', sourceUrl: 'https://example.com/s', dominantColor: '#A0B1C2', phash: 'F0F0F0F0F0F0F0F0'
      }])
      assert.deepEqual([plain!.animeName, plain!.artist, plain!.artistUrl, plain!.sourceUrl, plain!.dominantColor, plain!.phash, plain!.hidden], [null, null, null, null, null, null, false])
      assert.deepEqual([full!.animeName, full!.artist, full!.artistUrl, full!.sourceUrl, full!.dominantColor, full!.phash], ['Frieren', 'Someone', 'https://example.com/a', 'https://example.com/s', '#a0b1c2', 'f0f0f0f0f0f0f0f0'])
      assert.deepEqual(await store.gifs.get(full!.id), full)
      const listed = await store.gifs.list({ category: 'smug' })
      assert.deepEqual(listed.map((g) => g.phash), [null, 'f0f0f0f0f0f0f0f0'], 'list answers the perceptual hash (near-duplicate search)')
      const before = await store.gifs.categoryState('smug')
      const changed = await store.gifs.setAttribution(plain!.id, { animeName: 'Mushishi', artist: 'A. Artist', phash: '0123456789abcdef' })
      assert.deepEqual([changed!.animeName, changed!.artist, changed!.artistUrl, changed!.phash], ['Mushishi', 'A. Artist', null, '0123456789abcdef'])
      assert.ok((await store.gifs.categoryState('smug')).version > before.version, 'cached records carry attribution: the version rises')
      assert.equal((await store.gifs.categoryState('smug')).count, 2)
      const cleared = await store.gifs.setAttribution(full!.id, { artist: null })
      assert.deepEqual([cleared!.animeName, cleared!.artist], ['Frieren', null], 'undefined keeps a field, null clears it')
      assert.equal(await store.gifs.setAttribution(999_999, { artist: 'x' }), undefined)
      assert.deepEqual(await store.gifs.pickOne('smug', 0.9), await store.gifs.get(full!.id))
    })

    it('hides a gif out of the picks and the count, keeps its row, and shows it again', async () => {
      const gif = (n: number) => ({ category: 'stare', hash: (0x4000 + n).toString(16).padStart(64, '0'), url: null, size: n, width: 10, height: 20, frames: 3, contentType: 'image/gif' })
      const [a, b, c] = await store.gifs.add([gif(1), gif(2), gif(3)])
      const before = await store.gifs.categoryState('stare')
      const hidden = await store.gifs.hide(a!.id)
      assert.equal(hidden!.hidden, true)
      const after = await store.gifs.categoryState('stare')
      assert.equal(after.count, 2)
      assert.ok(after.version > before.version)
      // The last entry took the freed position: every position answers a visible gif.
      assert.deepEqual((await store.gifs.pick('stare', (n) => [...Array(n).keys()])).map((g) => g.size).sort(), [2, 3])
      for (const f of [0, 0.3, 0.6, 0.99]) assert.notEqual((await store.gifs.pickOne('stare', f))!.id, a!.id)
      assert.deepEqual(await store.gifs.counts().then((n) => n.stare), 2)
      assert.deepEqual(await store.gifs.hide(a!.id), hidden, 'hiding twice changes nothing')
      assert.deepEqual(await store.gifs.categoryState('stare'), after)
      assert.equal((await store.gifs.get(a!.id))!.hidden, true, 'the row stays')
      assert.equal((await store.gifs.findByHash(gif(1).hash))!.hidden, true)
      assert.ok((await store.gifs.hashes()).has(gif(1).hash), 'its file is still referred to')
      assert.deepEqual((await store.gifs.list({ category: 'stare' })).map((g) => [g.size, g.hidden]), [[1, true], [2, false], [3, false]])
      assert.equal(await store.gifs.has('stare', { hash: gif(1).hash }), true, 'a re-import does not add it again')
      // Another category holding the same content visible: that one is found by hash.
      await store.gifs.add([{ ...gif(1), category: 'wag' }])
      assert.equal((await store.gifs.findByHash(gif(1).hash))!.category, 'wag')
      // Hiding a gif at the last position, then showing both back.
      await store.gifs.hide(c!.id)
      assert.equal((await store.gifs.categoryState('stare')).count, 1)
      assert.equal((await store.gifs.pickOne('stare', 0.99))!.id, b!.id)
      const shown = await store.gifs.unhide(a!.id)
      assert.equal(shown!.hidden, false)
      assert.deepEqual(await store.gifs.unhide(a!.id), shown, 'showing twice changes nothing')
      await store.gifs.unhide(c!.id)
      assert.equal((await store.gifs.categoryState('stare')).count, 3)
      assert.deepEqual((await store.gifs.pick('stare', (n) => [...Array(n).keys()])).map((g) => g.size).sort(), [1, 2, 3])
      assert.equal(await store.gifs.hide(999_999), undefined)
      assert.equal(await store.gifs.unhide(999_999), undefined)
      // Removing a hidden gif deletes its row and leaves the positions alone.
      await store.gifs.hide(b!.id)
      const removed = await store.gifs.remove(b!.id)
      assert.equal(removed!.id, b!.id)
      assert.equal(await store.gifs.get(b!.id), undefined)
      assert.equal((await store.gifs.categoryState('stare')).count, 2)
      assert.deepEqual((await store.gifs.pick('stare', (n) => [...Array(n).keys()])).map((g) => g.size).sort(), [1, 3])
    })

    it('records reports of a gif, lists them, and drops them with the gif', async () => {
      const key = await store.keys.create({ name: 'reporter', prefix: 'um_rep', hash: hashKey('reporter-key'), source: 'cli' })
      const [g1, g2] = await store.gifs.add([1, 2].map((n) => ({ category: 'poke', hash: (0x5000 + n).toString(16).padStart(64, '0'), url: null, size: n, width: 10, height: 20, frames: 3, contentType: 'image/gif' })))
      const at = new Date('2026-11-02T03:04:05.000Z')
      const r1 = await store.gifs.report({ gifId: g1!.id, keyId: key.id, reason: 'not_sfw', at })
      assert.deepEqual({ ...r1!, id: 0 }, { id: 0, gifId: g1!.id, keyId: key.id, reason: 'not_sfw', createdAt: at, dismissedAt: null })
      const r2 = await store.gifs.report({ gifId: g2!.id, keyId: key.id, reason: 'broken' })
      const r3 = await store.gifs.report({ gifId: g1!.id, keyId: null, reason: 'duplicate' })
      assert.equal(await store.gifs.report({ gifId: 999_999, keyId: key.id, reason: 'other' }), undefined)
      await assert.rejects(store.gifs.report({ gifId: g1!.id, keyId: key.id, reason: 'boring' as 'other' }), 'the schema holds the fixed list')
      assert.deepEqual((await store.gifs.reports()).map((r) => r.id), [r1!.id, r2!.id, r3!.id])
      assert.deepEqual((await store.gifs.reports({ gifId: g1!.id })).map((r) => r.reason), ['not_sfw', 'duplicate'])
      assert.deepEqual((await store.gifs.reports({ afterId: r1!.id, limit: 1 })).map((r) => r.id), [r2!.id])
      const dismissed = await store.gifs.dismissReport(r3!.id, at)
      assert.deepEqual(dismissed?.dismissedAt, at)
      assert.deepEqual((await store.gifs.dismissReport(r3!.id, new Date()))?.dismissedAt, at, 'dismissed once: the first time stays')
      assert.deepEqual((await store.gifs.reports({ status: 'open' })).map((r) => r.id), [r1!.id, r2!.id])
      assert.deepEqual((await store.gifs.reports({ status: 'dismissed' })).map((r) => r.id), [r3!.id])
      assert.deepEqual((await store.gifs.reports({ gifId: g1!.id, status: 'open' })).map((r) => r.id), [r1!.id])
      assert.equal(await store.gifs.dismissReport(999_999), undefined)
      await store.gifs.remove(g1!.id)
      assert.deepEqual((await store.gifs.reports()).map((r) => r.id), [r2!.id])
    })

    it('keeps operator tokens, the audit log and idempotency keys (migration 9)', async () => {
      const admin = store.admin
      assert.equal(await admin.activeTokenCount(), 0)
      const made = await admin.createToken({ name: 'shop', prefix: 'umo_abcd', hash: 'h'.repeat(64), scopes: ['keys', 'usage'] })
      assert.deepEqual({ ...made, id: 0, createdAt: null }, { id: 0, name: 'shop', prefix: 'umo_abcd', hash: 'h'.repeat(64), scopes: ['keys', 'usage'], status: 'active', createdAt: null, lastUsedAt: null })
      await assert.rejects(admin.createToken({ name: 'shop', prefix: 'umo_x', hash: 'i'.repeat(64), scopes: ['gifs'] }), StoreConflictError)
      assert.equal(await admin.activeTokenCount(), 1)
      const used = new Date('2026-11-03T00:00:00.000Z')
      await admin.touchToken(made.id, used)
      assert.deepEqual((await admin.findTokenByHash('h'.repeat(64)))?.lastUsedAt, used)
      assert.equal((await admin.revokeToken('shop'))?.status, 'revoked')
      assert.equal(await admin.activeTokenCount(), 0)
      assert.equal(await admin.revokeToken('nobody'), undefined)
      const first = await admin.appendAudit({ at: used, actor: 'cli', action: 'token.create', target: 'token:shop', details: { scopes: ['keys'] }, address: null })
      const second = await admin.appendAudit({ at: used, actor: 'token:shop', action: 'key.create', target: 'key:1', details: null, address: '127.0.0.1' })
      assert.deepEqual((await admin.auditEntries({ limit: 10 })).map((e) => e.id), [second.id, first.id])
      assert.deepEqual((await admin.auditEntries({ limit: 10, action: 'token.create' }))[0]?.details, { scopes: ['keys'] })
      assert.deepEqual((await admin.auditEntries({ limit: 10, beforeId: second.id })).map((e) => e.id), [first.id])
      const claim = { actor: 'token:shop', key: 'evt_1', bodyHash: 'b1', at: used }
      assert.equal(await admin.claimIdempotency(claim), undefined, 'the first claim is this call\'s')
      assert.deepEqual(await admin.claimIdempotency({ ...claim, bodyHash: 'b2' }), { actor: 'token:shop', key: 'evt_1', bodyHash: 'b1', keyId: null, answer: null, createdAt: used })
      await admin.completeIdempotency('token:shop', 'evt_1', 42, 'sealed')
      assert.equal((await admin.claimIdempotency(claim))?.answer, 'sealed')
      assert.equal(await admin.forgetAnswers(new Date(used.getTime() + 1)), 1)
      assert.deepEqual(await admin.claimIdempotency(claim), { actor: 'token:shop', key: 'evt_1', bodyHash: 'b1', keyId: 42, answer: null, createdAt: used })
      assert.equal(await admin.claimIdempotency({ ...claim, key: 'evt_2' }), undefined)
      await admin.releaseIdempotency('token:shop', 'evt_2')
      assert.equal(await admin.claimIdempotency({ ...claim, key: 'evt_2' }), undefined, 'released: claimable again')
    })

    it('answers ping, and closes once even when asked twice', async () => {
      await store.ping()
    })
  })
}
