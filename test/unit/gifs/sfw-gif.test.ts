// GET /sfw/gif/{imageType} on a fresh install (the starter catalog), its errors, and
// the uniform spread of its picks.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { choosePositions, createGifCatalog } from '../../../src/gifs/catalog.js'
import { inspectGif } from '../../../src/gifs/gif-info.js'
import { ensureStarterCatalog, STARTER_GIFS_PER_TYPE } from '../../../src/gifs/starter.js'
import { GIF_TYPES } from '../../../src/gifs/types.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import type { NewGif, Store } from '../../../src/store/interface.js'
import { createTestApp, json, tempDir, type TestApp } from '../../support/helpers.js'
import { chiSquare, seeded } from './statistics.js'

function fakeGif (category: string, i: number): NewGif {
  return { category, hash: i.toString(16).padStart(64, '0'), url: null, size: 100, width: 10, height: 10, frames: 2, contentType: 'image/gif' }
}

let t: TestApp

before(async () => {
  t = await createTestApp({ config: { publicUrl: 'https://gifs.example.test' } })
  const result = await ensureStarterCatalog(t.store.gifs, t.store.gifFiles)
  assert.deepEqual(result, { generated: true, added: GIF_TYPES.length * STARTER_GIFS_PER_TYPE })
})
after(() => t.close())

describe('GET /sfw/gif/{imageType} on a fresh install', () => {
  it('answers every one of the 27 types with id and a public file URL that downloads an animated GIF without a key', async () => {
    assert.equal(GIF_TYPES.length, 27)
    for (const type of GIF_TYPES) {
      const res = await t.app.inject({ method: 'GET', url: `/sfw/gif/${type}`, headers: t.auth })
      assert.equal(res.statusCode, 200, `${type}: ${res.body}`)
      assert.match(String(res.headers['content-type']), /^application\/json/)
      const body = json(res)
      assert.deepEqual(Object.keys(body).sort(), ['anime_name', 'artist', 'artist_url', 'bytes', 'code', 'dominant_color', 'file', 'frames', 'height', 'id', 'message', 'source_url', 'success', 'width'])
      assert.deepEqual([body.anime_name, body.artist, body.artist_url, body.source_url], [null, null, null, null], 'the starter gifs have no attribution')
      assert.deepEqual([body.width, body.height, body.frames], [240, 160, 10])
      assert.match(body.dominant_color, /^#[0-9a-f]{6}$/)
      assert.equal(body.success, true)
      assert.equal(body.code, 200)
      assert.equal(body.message, '')
      assert.match(body.id, /^\d+$/)
      assert.match(body.file, /^https:\/\/gifs\.example\.test\/files\/gifs\/[0-9a-f]{64}\.gif$/)

      const file = await t.app.inject({ method: 'GET', url: new URL(body.file).pathname })
      assert.equal(file.statusCode, 200, `${type} file: ${file.body.slice(0, 200)}`)
      assert.equal(file.headers['content-type'], 'image/gif')
      const info = await inspectGif(file.rawPayload)
      assert.ok(info.frames > 1, `${type}: animated`)
      assert.equal(Number(file.headers['content-length']), file.rawPayload.length)
      assert.equal(body.bytes, file.rawPayload.length)
    }
  })

  it('gives a gif the same id and file URL every time it is picked', async () => {
    const seen = new Map<string, string>()
    for (let i = 0; i < 60; i++) {
      const body = json(await t.app.inject({ method: 'GET', url: '/sfw/gif/hug', headers: t.auth }))
      if (seen.has(body.id)) assert.equal(seen.get(body.id), body.file)
      seen.set(body.id, body.file)
    }
    assert.equal(seen.size, STARTER_GIFS_PER_TYPE)
    assert.equal(new Set(seen.values()).size, STARTER_GIFS_PER_TYPE)
  })

  it('accepts the type in any case', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sfw/gif/HUG', headers: t.auth })
    assert.equal(res.statusCode, 200)
  })

  it('covers a category with a roughly uniform spread over real requests (chi-square, false alarm 1e-9)', async () => {
    const ids = new Map<string, number>()
    const n = 1200
    for (let i = 0; i < n; i++) {
      const body = json(await t.app.inject({ method: 'GET', url: '/sfw/gif/pat', headers: t.auth }))
      ids.set(body.id, (ids.get(body.id) ?? 0) + 1)
    }
    assert.equal(ids.size, STARTER_GIFS_PER_TYPE)
    // 2 degrees of freedom: P(chi2 > 41.45) = 1e-9 for a uniform picker (Math.random).
    // A picker that never picks one gif scores about 600 here.
    assert.ok(chiSquare([...ids.values()], n) < 41.45, `counts ${[...ids.values()]}`)
  })

  it('answers ?amount=N with N distinct gifs (fewer when the category holds fewer)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sfw/gif/wave?amount=2', headers: t.auth })
    assert.equal(res.statusCode, 200)
    const body = json(res)
    assert.equal(body.gifs.length, 2)
    assert.notEqual(body.gifs[0].id, body.gifs[1].id)
    const { gifs, success, code, message, ...first } = body
    assert.deepEqual(first, gifs[0])
    assert.deepEqual([success, code, message], [true, 200, ''])
    const all = json(await t.app.inject({ method: 'GET', url: '/sfw/gif/wave?amount=20', headers: t.auth }))
    assert.equal(all.gifs.length, STARTER_GIFS_PER_TYPE)
    assert.equal(new Set(all.gifs.map((g: { id: string }) => g.id)).size, STARTER_GIFS_PER_TYPE)
  })

  for (const amount of ['0', '21', 'abc', '2.5']) {
    it(`refuses ?amount=${amount} with 400 VALIDATION`, async () => {
      const res = await t.app.inject({ method: 'GET', url: `/sfw/gif/wave?amount=${amount}`, headers: t.auth })
      assert.equal(res.statusCode, 400)
      const body = json(res)
      assert.equal(body.error, 'VALIDATION')
      assert.match(body.message, /amount/)
    })
  }

  it('answers an unknown type with 400 GIF_UNKNOWN_TYPE listing the valid types', async () => {
    for (const type of ['cuddle', '..%2F..%2Fetc', 'h%C3%BCg']) {
      const res = await t.app.inject({ method: 'GET', url: `/sfw/gif/${type}`, headers: t.auth })
      assert.equal(res.statusCode, 400)
      assert.match(String(res.headers['content-type']), /^application\/json/)
      const body = json(res)
      assert.equal(body.success, false)
      assert.equal(body.code, 400)
      assert.equal(body.error, 'GIF_UNKNOWN_TYPE')
      assert.deepEqual(body.validTypes, [...GIF_TYPES])
      assert.ok(body.message.includes('baka') && body.message.includes('wink'), body.message)
      assert.equal(typeof body.requestId, 'string')
    }
  })

  it('documents the route, its errors and the file route in the OpenAPI document', async () => {
    const doc = json(await t.app.inject({ method: 'GET', url: '/openapi.json' }))
    const route = doc.paths['/sfw/gif/{imageType}'].get
    assert.ok(route.responses['200'] && route.responses['400'] && route.responses['404'])
    assert.match(route.responses['404'].description, /GIF_CATEGORY_EMPTY/)
    const file = doc.paths['/files/gifs/{file}'].get
    assert.equal(file.security, undefined)
    assert.match(file.responses['416'].description, /RANGE_NOT_SATISFIABLE/)
  })
})

describe('an empty category', () => {
  it('answers 404 GIF_CATEGORY_EMPTY with the envelope', async () => {
    const e = await createTestApp()
    try {
      const res = await e.app.inject({ method: 'GET', url: '/sfw/gif/hug', headers: e.auth })
      assert.equal(res.statusCode, 404)
      const body = json(res)
      assert.deepEqual({ success: body.success, code: body.code, error: body.error }, { success: false, code: 404, error: 'GIF_CATEGORY_EMPTY' })
      assert.match(body.message, /gifs import/)
    } finally {
      await e.close()
    }
  })
})

describe('the random pick', () => {
  let store: Store
  let dir: string
  before(() => {
    dir = tempDir()
    store = openSqliteStore(dir)
  })
  after(async () => { await store.close() })

  it('spreads uniformly over a category, and stays uniform after removals (seeded, chi-square)', async () => {
    const added = await store.gifs.add(Array.from({ length: 12 }, (_, i) => fakeGif('kiss', i + 1)))
    // Removing from the middle moves the last entry into the hole: positions stay dense.
    await store.gifs.remove(added[3]!.id)
    await store.gifs.remove(added[0]!.id)
    const catalog = createGifCatalog({ store: store.gifs, publicUrl: 'http://x.test', random: seeded(20240601) })
    const counts = new Map<string, number>()
    const n = 20_000
    for (let i = 0; i < n; i++) {
      const [gif] = await catalog.random('kiss')
      counts.set(gif!.id, (counts.get(gif!.id) ?? 0) + 1)
    }
    assert.deepEqual([...counts.keys()].sort(), added.filter((_, i) => i !== 0 && i !== 3).map((g) => String(g.id)).sort())
    // 9 degrees of freedom: P(chi2 > 60.66) = 1e-9 under uniformity.
    assert.ok(chiSquare([...counts.values()], n) < 60.66, `counts ${[...counts.values()]}`)
  })

  it('chooses distinct positions, all of them when asked for more than there are', () => {
    const random = seeded(7)
    for (let trial = 0; trial < 200; trial++) {
      const picks = choosePositions(10, 4, random)
      assert.equal(picks.length, 4)
      assert.equal(new Set(picks).size, 4)
      assert.ok(picks.every((p) => p >= 0 && p < 10))
    }
    assert.deepEqual(choosePositions(5, 20, random).sort(), [0, 1, 2, 3, 4])
    assert.deepEqual(choosePositions(3, 1, () => 0.9999999999999999), [2])
  })

  it('gives each position the same chance as the first of several picks and as a later one (seeded, chi-square)', () => {
    const random = seeded(99)
    const first = new Array<number>(8).fill(0)
    const third = new Array<number>(8).fill(0)
    const n = 16_000
    for (let i = 0; i < n; i++) {
      const picks = choosePositions(8, 3, random)
      first[picks[0]!]!++
      third[picks[2]!]!++
    }
    // 7 degrees of freedom: P(chi2 > 55.9) < 1e-9.
    assert.ok(chiSquare(first, n) < 55.9, `first ${first}`)
    assert.ok(chiSquare(third, n) < 55.9, `third ${third}`)
  })
})
