// The in-memory gif pick over the real SQLite catalog: the store is asked at most once
// per TTL per category and once per position, changes through the cache are seen at
// once, changes made elsewhere once the TTL has passed, and memory stays bounded.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { withGifCache } from '../../../src/store/cached-gifs.js'
import type { GifCatalogStore, GifRecord, NewGif, Store } from '../../../src/store/interface.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { tempDir } from '../../support/helpers.js'

let serial = 0
function gif (category: string): NewGif {
  return { category, hash: (++serial).toString(16).padStart(64, '0'), url: null, size: 100, width: 10, height: 10, frames: 2, contentType: 'image/gif' }
}

/** The uncached SQLite catalog, counting the calls the cache makes. */
function counting (inner: GifCatalogStore) {
  const calls = { states: 0, picks: 0 }
  const store: GifCatalogStore = {
    ...inner,
    categoryState (category) { calls.states++; return inner.categoryState(category) },
    pick (category, choose) { calls.picks++; return inner.pick(category, choose) }
  }
  return { store, calls }
}

/** A clock the test moves by hand. */
function clock () {
  let t = 1_000_000
  return { now: () => t, advance (ms: number) { t += ms } }
}

/** One pick at the middle of every position of an n-gif category, in order: the ids answered. */
async function sweep (store: GifCatalogStore, category: string, n: number): Promise<number[]> {
  const ids: number[] = []
  for (let seq = 0; seq < n; seq++) ids.push((await store.pickOne(category, (seq + 0.5) / n))!.id)
  return ids
}

const ids = (records: GifRecord[]): number[] => records.map((r) => r.id)

describe('gif pick cache', () => {
  let dir: string
  let sqlite: Store
  let inner: GifCatalogStore
  beforeEach(() => {
    dir = tempDir()
    sqlite = openSqliteStore(dir, { gifCacheTtlMs: 0 })
    inner = sqlite.gifs
  })
  afterEach(async () => {
    await sqlite.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('asks a busy category\'s state once per TTL and each position once, answering what the store answers', async () => {
    const added = await inner.add(Array.from({ length: 10 }, () => gif('hug')))
    const { store, calls } = counting(inner)
    const time = clock()
    const cached = withGifCache(store, 1000, { now: time.now })
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 50; i++) {
        const fraction = ((i * 7) % 50 + 0.25) / 50
        assert.deepEqual(await cached.pickOne('hug', fraction), await inner.pickOne('hug', fraction))
      }
      time.advance(100)
    }
    // 2,000 ms of picks: one check at the start, one when the TTL had passed.
    assert.equal(calls.states, 2)
    assert.equal(calls.picks, 10)
    assert.deepEqual(await sweep(cached, 'hug', 10), ids(added))
  })

  it('gives every position the same share: k picks per gif over k·n evenly spread fractions', async () => {
    const added = await inner.add(Array.from({ length: 7 }, () => gif('pat')))
    const cached = withGifCache(inner, 60_000)
    const counts = new Map<number, number>()
    const picks = 7 * 300
    for (let i = 0; i < picks; i++) {
      const id = (await cached.pickOne('pat', (i + 0.5) / picks))!.id
      counts.set(id, (counts.get(id) ?? 0) + 1)
    }
    assert.deepEqual([...counts.keys()].sort((a, b) => a - b), ids(added))
    assert.deepEqual([...counts.values()], new Array(7).fill(300))
    assert.equal((await cached.pickOne('pat', 0.9999999999999999))!.id, added[6]!.id)
  })

  it('shares one check among concurrent picks of a category', async () => {
    await inner.add(Array.from({ length: 4 }, () => gif('hug')))
    const { store, calls } = counting(inner)
    const cached = withGifCache(store, 60_000)
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => cached.pickOne('hug', (i % 4) / 4)))
    assert.ok(answers.every((a) => a !== undefined))
    assert.equal(calls.states, 1)
  })

  it('sees adds and removes made through it at once', async () => {
    const added = await inner.add(Array.from({ length: 3 }, () => gif('kiss')))
    const cached = withGifCache(inner, 60_000)
    assert.deepEqual(await sweep(cached, 'kiss', 3), ids(added))
    const [fresh] = await cached.add([gif('kiss')])
    // Added at the last position.
    assert.equal((await cached.pickOne('kiss', 0.99))!.id, fresh!.id)
    assert.equal((await cached.remove(added[0]!.id))!.id, added[0]!.id)
    const answered = await sweep(cached, 'kiss', 3)
    assert.ok(!answered.includes(added[0]!.id), `answered ${answered}`)
    assert.deepEqual(answered.sort((a, b) => a - b), [added[1]!.id, added[2]!.id, fresh!.id])
    for (const fraction of [0, 0.2, 0.4, 0.6, 0.8, 0.99]) assert.notEqual((await cached.pickOne('kiss', fraction))!.id, added[0]!.id)
  })

  it('sees changes made elsewhere once the TTL has passed, and never serves them stale after it', async () => {
    const added = await inner.add(Array.from({ length: 4 }, () => gif('wave')))
    const time = clock()
    const cached = withGifCache(inner, 1000, { now: time.now })
    assert.deepEqual(await sweep(cached, 'wave', 4), ids(added))

    await inner.remove(added[1]!.id) // another process
    time.advance(999)
    assert.equal((await cached.pickOne('wave', 0.3))!.id, added[1]!.id, 'within the TTL the cached entry answers')
    time.advance(1)
    const answered = await sweep(cached, 'wave', 3)
    assert.deepEqual(answered.sort((a, b) => a - b), [added[0]!.id, added[2]!.id, added[3]!.id])
    for (let i = 0; i < 40; i++) assert.notEqual((await cached.pickOne('wave', i / 40))!.id, added[1]!.id)

    for (const id of [added[0]!.id, added[2]!.id, added[3]!.id]) await inner.remove(id)
    time.advance(1000)
    for (let i = 0; i < 10; i++) assert.equal(await cached.pickOne('wave', i / 10), undefined)

    const [back] = await inner.add([gif('wave')])
    assert.equal(await cached.pickOne('wave', 0.5), undefined, 'an empty category is trusted for the TTL too')
    time.advance(1000)
    assert.equal((await cached.pickOne('wave', 0.5))!.id, back!.id)
  })

  it('answers a changed count from the store without caching it, when the change lands between check and fill', async () => {
    const added = await inner.add(Array.from({ length: 4 }, () => gif('poke')))
    const { store, calls } = counting(inner)
    const cached = withGifCache(store, 60_000)
    assert.equal((await cached.pickOne('poke', 0))!.id, added[0]!.id) // checked: 4 gifs
    await inner.remove(added[0]!.id) // elsewhere: the last gif moves to position 0
    // Position 1 of 4 is not cached yet; the store, holding 3, answers its position 0.
    assert.equal((await cached.pickOne('poke', 0.3))!.id, added[3]!.id, 'the store\'s current answer')
    assert.equal(calls.states, 1)
    // The stale state was dropped: the next pick checks again and sees 3 gifs.
    assert.deepEqual((await sweep(cached, 'poke', 3)).sort((a, b) => a - b), ids(added.slice(1)))
    assert.equal(calls.states, 2)
  })

  it('keeps at most its bound of records over all categories, and answers past it from the store', async () => {
    await inner.add(Array.from({ length: 4 }, () => gif('hug')))
    await inner.add(Array.from({ length: 4 }, () => gif('pat')))
    const { store, calls } = counting(inner)
    const cached = withGifCache(store, 60_000, { maxCached: 5 })
    await sweep(cached, 'hug', 4)
    await sweep(cached, 'pat', 4)
    assert.equal(calls.picks, 8)
    await sweep(cached, 'hug', 4)
    const pat = await sweep(cached, 'pat', 4)
    assert.equal(calls.picks, 8 + 3, 'the 3 pat positions past the bound go to the store each time')
    assert.deepEqual(pat, ids(await inner.list({ category: 'pat' })))
    // A change drops its category's records, which makes room again.
    await cached.add([gif('hug')])
    await sweep(cached, 'pat', 4)
    await sweep(cached, 'pat', 4)
    assert.equal(calls.picks, 8 + 3 + 3)
  })

  it('sends several-gif picks and everything else to the store', async () => {
    const added = await inner.add(Array.from({ length: 3 }, () => gif('hug')))
    const { store, calls } = counting(inner)
    const cached = withGifCache(store, 60_000)
    assert.deepEqual(ids(await cached.pick('hug', () => [2, 0])), [added[2]!.id, added[0]!.id])
    assert.deepEqual(ids(await cached.pick('hug', () => [1])), [added[1]!.id])
    assert.equal(calls.picks, 2)
    assert.deepEqual(await cached.counts(), { hug: 3 })
    assert.deepEqual(await cached.categoryState('hug'), await inner.categoryState('hug'))
    assert.equal((await cached.get(added[1]!.id))!.id, added[1]!.id)
  })

  it('is off with a TTL of 0', () => {
    assert.equal(withGifCache(inner, 0), inner)
  })
})
