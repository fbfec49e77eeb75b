// The key look-up cache: changes through the store are seen at once, changes made
// elsewhere within the TTL, and misses are cached too.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { hashKey } from '../../../src/access/keys.js'
import { withKeyCache } from '../../../src/store/cached-keys.js'
import type { ApiKeyRecord, KeyStore } from '../../../src/store/interface.js'

function countingStore (): { store: KeyStore, lookups: () => number, records: Map<string, ApiKeyRecord> } {
  const records = new Map<string, ApiKeyRecord>()
  let lookups = 0
  let id = 0
  const store: KeyStore = {
    async create (k) {
      const r: ApiKeyRecord = { id: ++id, name: k.name, prefix: k.prefix, hash: k.hash, source: k.source, status: 'active', limits: { rateMax: null, rateWindowMs: null, quotaMax: null, quotaPeriod: null }, linkId: `link-${id}`, linkSeed: 'seed', owner: null, meta: null, expiresAt: null, unitsTotal: 0, credits: null, previousHash: null, previousValidUntil: null, createdAt: new Date(), updatedAt: new Date() }
      records.set(k.hash, r)
      return r
    },
    async findByHash (hash) { lookups++; const r = records.get(hash); return r && { ...r } },
    async findByName (name) { return [...records.values()].find((r) => r.name === name) },
    async findByLinkId (linkId) { lookups++; const r = [...records.values()].find((x) => x.linkId === linkId); return r && { ...r } },
    async rollLinkSeed (id) { const r = [...records.values()].find((x) => x.id === id); if (r) r.linkSeed = `seed-${Date.now()}`; return r && { ...r } },
    async list () { return [...records.values()] },
    async setStatus (name, status) { const r = [...records.values()].find((x) => x.name === name); if (r) r.status = status; return r && { ...r } },
    async setLimits (name, limits) { const r = [...records.values()].find((x) => x.name === name); if (r) r.limits = { ...r.limits, ...limits }; return r && { ...r } },
    async rename (name, newName) { const r = [...records.values()].find((x) => x.name === name); if (r) r.name = newName; return r && { ...r } },
    async count () { return records.size },
    async findById (id) { const r = [...records.values()].find((x) => x.id === id); return r && { ...r } },
    async update (id, patch) { const r = [...records.values()].find((x) => x.id === id); if (r && patch.name !== undefined) r.name = patch.name; return r && { ...r } },
    async roll (id, next) {
      const r = [...records.values()].find((x) => x.id === id)
      if (!r) return undefined
      records.delete(r.hash)
      Object.assign(r, { previousHash: r.hash, previousValidUntil: next.previousValidUntil, hash: next.hash, prefix: next.prefix })
      records.set(r.hash, r)
      records.set(r.previousHash!, r)
      return { ...r }
    },
    async refill () { return undefined },
    async expiringBetween () { return [] }
  }
  return { store, lookups: () => lookups, records }
}

describe('key look-up cache', () => {
  it('asks the store once per TTL for a busy key, and for an unknown one', async () => {
    const inner = countingStore()
    const cached = withKeyCache(inner.store, 60_000)
    await cached.create({ name: 'a', prefix: 'um_a', hash: hashKey('a'), source: 'cli' })
    for (let i = 0; i < 5; i++) assert.equal((await cached.findByHash(hashKey('a')))!.name, 'a')
    for (let i = 0; i < 5; i++) assert.equal(await cached.findByHash(hashKey('nope')), undefined)
    assert.equal(inner.lookups(), 2)
  })

  it('sees changes made through it at once', async () => {
    const inner = countingStore()
    const cached = withKeyCache(inner.store, 60_000)
    assert.equal(await cached.findByHash(hashKey('b')), undefined) // a cached miss…
    await cached.create({ name: 'b', prefix: 'um_b', hash: hashKey('b'), source: 'cli' })
    assert.equal((await cached.findByHash(hashKey('b')))!.status, 'active') // …dropped by create
    await cached.setStatus('b', 'revoked')
    assert.equal((await cached.findByHash(hashKey('b')))!.status, 'revoked')
    await cached.setLimits('b', { rateMax: 3 })
    assert.equal((await cached.findByHash(hashKey('b')))!.limits.rateMax, 3)
  })

  it('sees changes made elsewhere once the TTL has passed', async () => {
    const inner = countingStore()
    let now = 1_000_000
    const cached = withKeyCache(inner.store, 30, { now: () => now })
    await inner.store.create({ name: 'c', prefix: 'um_c', hash: hashKey('c'), source: 'cli' })
    assert.equal((await cached.findByHash(hashKey('c')))!.status, 'active')
    inner.records.get(hashKey('c'))!.status = 'disabled' // another process
    now += 29
    assert.equal((await cached.findByHash(hashKey('c')))!.status, 'active', 'within the TTL')
    now += 1
    assert.equal((await cached.findByHash(hashKey('c')))!.status, 'disabled', 'once the TTL has passed')
  })

  it('caches the look-up by link id the same way: once per TTL, dropped by a change through it, a change elsewhere seen after the TTL', async () => {
    const inner = countingStore()
    let now = 1_000_000
    const cached = withKeyCache(inner.store, 30, { now: () => now })
    const { linkId } = await cached.create({ name: 'l', prefix: 'um_l', hash: hashKey('l'), source: 'cli' })
    const before = inner.lookups()
    for (let i = 0; i < 3; i++) assert.equal((await cached.findByLinkId(linkId))!.status, 'active')
    assert.equal(inner.lookups(), before + 1)
    await cached.setStatus('l', 'disabled')
    assert.equal((await cached.findByLinkId(linkId))!.status, 'disabled', 'dropped by the change made through it')
    const seed = (await cached.findByLinkId(linkId))!.linkSeed
    const rolled = await cached.rollLinkSeed((await cached.findByLinkId(linkId))!.id)
    assert.notEqual(rolled!.linkSeed, seed)
    assert.equal((await cached.findByLinkId(linkId))!.linkSeed, rolled!.linkSeed, 'a roll is seen at once')
    inner.records.get(hashKey('l'))!.status = 'revoked' // another process
    assert.equal((await cached.findByLinkId(linkId))!.status, 'disabled', 'within the TTL')
    now += 30
    assert.equal((await cached.findByLinkId(linkId))!.status, 'revoked', 'once the TTL has passed')
  })

  it('is off with a TTL of 0', async () => {
    const inner = countingStore()
    assert.equal(withKeyCache(inner.store, 0), inner.store)
  })
})
