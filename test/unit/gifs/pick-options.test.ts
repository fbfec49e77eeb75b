// exclude and norepeat at the catalog level, on a seeded random sequence: every allowed
// gif equally likely (chi-square), the cost bounded by the exclusion and never by the
// category's size, and plain picks unchanged (one position, no memory).
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createMemoryCounterStore } from '../../../src/store/counters/memory.js'
import { createGifCatalog } from '../../../src/gifs/catalog.js'
import type { GifCatalogStore, NewGif, Store } from '../../../src/store/interface.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { tempDir } from '../../support/helpers.js'
import { chiSquare, seeded } from './statistics.js'

const fake = (category: string, i: number): NewGif => ({ category, hash: (0x9000 + i).toString(16).padStart(64, '0'), url: null, size: 100, width: 10, height: 10, frames: 2, contentType: 'image/gif' })

/** The store, counting the positions asked for and the memory calls. */
function counting (inner: GifCatalogStore): { store: GifCatalogStore, positions: number[], pickOnes: number } {
  const seen = { positions: [] as number[], pickOnes: 0 }
  const store: GifCatalogStore = {
    ...inner,
    pick: (category, choose) => inner.pick(category, (n) => { const p = choose(n); seen.positions.push(p.length); return p }),
    pickOne: (category, fraction) => { seen.pickOnes++; return inner.pickOne(category, fraction) }
  }
  return Object.assign(seen, { store })
}

let store: Store
before(() => { store = openSqliteStore(tempDir()) })
after(async () => { await store.close() })

describe('picks with exclude and norepeat', () => {
  it('spreads exclude picks uniformly over the allowed gifs (seeded, chi-square)', async () => {
    const added = await store.gifs.add(Array.from({ length: 12 }, (_, i) => fake('lick', i)))
    const excluded = [added[0]!.id, added[5]!.id, added[11]!.id]
    const catalog = createGifCatalog({ store: store.gifs, publicUrl: 'http://x.test', random: seeded(4242) })
    const counts = new Map<string, number>()
    const n = 18_000
    for (let i = 0; i < n; i++) {
      const [gif] = await catalog.random('lick', { exclude: excluded })
      counts.set(gif!.id, (counts.get(gif!.id) ?? 0) + 1)
    }
    assert.deepEqual([...counts.keys()].map(Number).sort((a, b) => a - b), added.map((g) => g.id).filter((id) => !excluded.includes(id)))
    // 8 degrees of freedom: P(chi2 > 58.1) ≈ 1e-9 under uniformity.
    assert.ok(chiSquare([...counts.values()], n) < 58.1, `counts ${[...counts.values()]}`)
  })

  it('shows every gif equally often over many norepeat picks (seeded, chi-square), none within N of its last showing', async () => {
    const added = await store.gifs.add(Array.from({ length: 10 }, (_, i) => fake('feed', i)))
    const catalog = createGifCatalog({ store: store.gifs, publicUrl: 'http://x.test', random: seeded(7), recent: createMemoryCounterStore() })
    const counts = new Map<string, number>()
    const last = new Map<string, number>()
    const n = 5000
    for (let i = 0; i < n; i++) {
      const [gif] = await catalog.random('feed', { norepeat: 4, viewer: 'k1' })
      const at = last.get(gif!.id)
      if (at !== undefined) assert.ok(i - at > 4, `${gif!.id} at ${i} after ${at}`)
      last.set(gif!.id, i)
      counts.set(gif!.id, (counts.get(gif!.id) ?? 0) + 1)
    }
    assert.equal(counts.size, added.length)
    // 9 degrees of freedom: P(chi2 > 60.66) = 1e-9 (norepeat picks are less spread than
    // independent ones, so this bound is loose for them).
    assert.ok(chiSquare([...counts.values()], n) < 60.66, `counts ${[...counts.values()]}`)
  })

  it('looks up amount + |excluded| positions at most, whatever the category\'s size; plain picks one position', async () => {
    const big = await store.gifs.add(Array.from({ length: 3000 }, (_, i) => fake('wag', 10_000 + i)))
    const spy = counting(store.gifs)
    const catalog = createGifCatalog({ store: spy.store, publicUrl: 'http://x.test', random: seeded(1), recent: createMemoryCounterStore() })
    await catalog.random('wag')
    assert.deepEqual([spy.pickOnes, spy.positions], [1, []], 'a plain pick: one position')
    await catalog.random('wag', { exclude: big.slice(0, 7).map((g) => g.id), amount: 3 })
    assert.deepEqual(spy.positions, [10])
    for (let i = 0; i < 20; i++) await catalog.random('wag', { norepeat: 50, viewer: 'k2' })
    assert.ok(spy.positions.slice(1).every((p) => p <= 51), `positions asked: ${spy.positions}`)
    assert.equal(spy.pickOnes, 2, 'the first norepeat pick has no history yet: a plain pick')
  })
})
