// The gif catalog beyond the pick (issue 28): attribution on the wire and on the file,
// the type listing, reports, hidden gifs, `exclude` and `norepeat`.
import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { MAX_NOREPEAT } from '../../../src/gifs/catalog.js'
import { REPORTS_PER_WINDOW } from '../../../src/gifs/routes.js'
import { renderStarterGif } from '../../../src/gifs/starter-art.js'
import { GIF_TYPES } from '../../../src/gifs/types.js'
import { createKeyService } from '../../../src/access/keys.js'
import type { GifRecord } from '../../../src/store/interface.js'
import { createTestApp, json, type TestApp } from '../../support/helpers.js'

const sha256 = (b: Uint8Array): string => crypto.createHash('sha256').update(b).digest('hex')

let t: TestApp
/** Ten local gifs in `pat`, with their files; the first with full attribution. */
let pats: GifRecord[]

before(async () => {
  t = await createTestApp({ config: { publicUrl: 'https://gifs.example.test' } })
  const gifs = []
  for (let i = 0; i < 10; i++) {
    const bytes = renderStarterGif(`pat${i}`, i % 3, 48, 32)
    const hash = sha256(bytes)
    await t.store.gifFiles.put(hash, bytes)
    gifs.push({ category: 'pat', hash, url: null, size: bytes.length, width: 48, height: 32, frames: 10, contentType: 'image/gif', dominantColor: '#102030' })
  }
  gifs[0] = { ...gifs[0]!, animeName: 'Frieren: Beyond Journey’s End', artist: 'Ａ artist', artistUrl: 'https://example.com/a?x=1&y=2', sourceUrl: 'https://example.com/s' }
  pats = await t.store.gifs.add(gifs)
})
after(() => t.close())

const get = async (url: string, headers: Record<string, string> = t.auth) => t.app.inject({ method: 'GET', url, headers })
const report = async (id: number | string, body: unknown, headers: Record<string, string> = t.auth) =>
  t.app.inject({ method: 'POST', url: `/sfw/gif/${id}/report`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) })

describe('attribution and sizes', () => {
  it('answers every field, snake_case, null when unknown, in the pick and in each item of gifs', async () => {
    const body = json(await get(`/sfw/gif/pat?exclude=${pats.slice(1).map((g) => g.id).join(',')}&amount=3`))
    const expected = {
      id: String(pats[0]!.id),
      file: `https://gifs.example.test/files/gifs/${pats[0]!.hash}.gif`,
      anime_name: 'Frieren: Beyond Journey’s End',
      artist: 'Ａ artist',
      artist_url: 'https://example.com/a?x=1&y=2',
      source_url: 'https://example.com/s',
      width: 48,
      height: 32,
      frames: 10,
      bytes: pats[0]!.size,
      dominant_color: '#102030'
    }
    assert.deepEqual(body, { success: true, code: 200, message: '', ...expected, gifs: [expected] })
  })

  it('answers null for the sizes of an external gif added without them', async () => {
    const [external] = await t.store.gifs.add([{ category: 'wink', hash: null, url: 'https://cdn.example.com/w.gif', size: 0, width: 0, height: 0, frames: 0, contentType: 'image/gif' }])
    const body = json(await get('/sfw/gif/wink'))
    assert.deepEqual(body, {
      success: true,
      code: 200,
      message: '',
      id: String(external!.id),
      file: 'https://cdn.example.com/w.gif',
      anime_name: null,
      artist: null,
      artist_url: null,
      source_url: null,
      width: null,
      height: null,
      frames: null,
      bytes: null,
      dominant_color: null
    })
    await t.store.gifs.remove(external!.id)
  })

  it('sends the attribution of a file in X- headers, percent-encoded, and none for a gif without', async () => {
    const res = await get(`/files/gifs/${pats[0]!.hash}.gif`, {})
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-anime-name'], encodeURIComponent('Frieren: Beyond Journey’s End'))
    assert.equal(decodeURIComponent(String(res.headers['x-anime-name'])), 'Frieren: Beyond Journey’s End')
    assert.equal(res.headers['x-artist'], '%EF%BC%A1%20artist')
    assert.equal(res.headers['x-artist-url'], encodeURIComponent('https://example.com/a?x=1&y=2'))
    assert.equal(res.headers['x-source-url'], encodeURIComponent('https://example.com/s'))
    const plain = await t.app.inject({ method: 'HEAD', url: `/files/gifs/${pats[1]!.hash}.gif` })
    assert.equal(plain.statusCode, 200)
    assert.equal(plain.headers['x-anime-name'], undefined)
    assert.equal(plain.headers['x-artist'], undefined)
  })
})

describe('GET /sfw/gif: the types', () => {
  it('lists the 27 types with their counts and formats, keyed', async () => {
    const res = await get('/sfw/gif')
    assert.equal(res.statusCode, 200)
    const body = json(res)
    assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'success', 'types'])
    assert.deepEqual(body.types.map((x: { name: string }) => x.name), [...GIF_TYPES])
    assert.deepEqual(body.types.find((x: { name: string }) => x.name === 'pat'), { name: 'pat', count: 10, formats: ['gif', 'webp'] })
    assert.deepEqual(body.types.find((x: { name: string }) => x.name === 'hug'), { name: 'hug', count: 0, formats: ['gif', 'webp'] })
    assert.equal((await get('/sfw/gif', {})).statusCode, 401)
  })
})

describe('POST /sfw/gif/{id}/report', () => {
  it('records a report and answers 202 with the envelope; the same report again adds nothing', async () => {
    const res = await report(pats[2]!.id, { reason: 'wrong_category' })
    assert.equal(res.statusCode, 202, res.body)
    const body = json(res)
    assert.deepEqual({ ...body, id: 'x' }, { success: true, code: 202, message: '', id: 'x', gif: String(pats[2]!.id), reason: 'wrong_category' })
    const again = json(await report(pats[2]!.id, { Reason: 'wrong_category' }))
    assert.equal(again.id, body.id, 'keys are matched case-insensitively; one report per key, gif and reason')
    const reports = await t.store.gifs.reports({ gifId: pats[2]!.id })
    assert.deepEqual(reports.map((r) => r.reason), ['wrong_category'])
    assert.ok(reports[0]!.keyId! > 0)
  })

  it('refuses an unknown reason (400 VALIDATION), an unknown gif (404 GIF_NOT_FOUND) and a missing key (401)', async () => {
    const bad = await report(pats[2]!.id, { reason: 'boring' })
    assert.equal(bad.statusCode, 400)
    assert.equal(json(bad).error, 'VALIDATION')
    // The list of reasons, not Ajv's "must be equal to constant" (issue 39 item 7).
    assert.equal(json(bad).message, 'Invalid body field "reason": it must be one of: not_sfw, wrong_category, broken, duplicate, other')
    assert.equal(json(await report(pats[2]!.id, {})).error, 'VALIDATION')
    const unknown = await report(999_999, { reason: 'broken' })
    assert.deepEqual([unknown.statusCode, json(unknown).error], [404, 'GIF_NOT_FOUND'])
    assert.equal((await report('abc', { reason: 'broken' })).statusCode, 400)
    assert.equal((await report(pats[2]!.id, { reason: 'broken' }, {})).statusCode, 401)
  })

  it(`limits a key to ${REPORTS_PER_WINDOW} reports an hour, with Retry-After, other keys unaffected`, async () => {
    const { key } = await createKeyService(t.store.keys).create('reporter')
    const auth = { authorization: key }
    const reasons = ['not_sfw', 'wrong_category', 'broken', 'duplicate', 'other']
    for (let i = 0; i < REPORTS_PER_WINDOW; i++) {
      assert.equal((await report(pats[i % 10]!.id, { reason: reasons[Math.floor(i / 10)] }, auth)).statusCode, 202, `report ${i + 1}`)
    }
    const refused = await report(pats[5]!.id, { reason: 'other' }, auth)
    assert.equal(refused.statusCode, 429)
    assert.equal(json(refused).error, 'RATE_LIMITED')
    assert.match(json(refused).message, /reports/)
    const retry = Number(refused.headers['retry-after'])
    assert.ok(retry >= 1 && retry <= 3600, String(retry))
    assert.equal((await report(pats[5]!.id, { reason: 'other' })).statusCode, 202, 'another key')
  })
})

describe('hidden gifs', () => {
  it('are never picked, their file answers 404, and they come back when shown again', async () => {
    const hidden = pats[4]!
    await t.store.gifs.hide(hidden.id)
    for (let i = 0; i < 200; i++) assert.notEqual(json(await get('/sfw/gif/pat')).id, String(hidden.id))
    const all = json(await get('/sfw/gif/pat?amount=20'))
    assert.equal(all.gifs.length, 9)
    assert.ok(all.gifs.every((g: { id: string }) => g.id !== String(hidden.id)))
    const file = await get(`/files/gifs/${hidden.hash}.gif`, {})
    assert.deepEqual([file.statusCode, json(file).error], [404, 'GIF_FILE_NOT_FOUND'])
    assert.equal(json(await get('/sfw/gif')).types.find((x: { name: string }) => x.name === 'pat').count, 9)
    await t.store.gifs.unhide(hidden.id)
    assert.equal((await get(`/files/gifs/${hidden.hash}.gif`, {})).statusCode, 200)
    const seen = new Set<string>()
    for (let i = 0; i < 300 && !seen.has(String(hidden.id)); i++) seen.add(json(await get('/sfw/gif/pat')).id)
    assert.ok(seen.has(String(hidden.id)), 'picked again')
  })
})

describe('exclude', () => {
  it('never answers an excluded id, and answers 404 GIF_ALL_EXCLUDED when nothing is left', async () => {
    const excluded = pats.slice(0, 7).map((g) => g.id)
    for (let i = 0; i < 100; i++) {
      const body = json(await get(`/sfw/gif/pat?exclude=${excluded.join(',')}`))
      assert.ok(!excluded.includes(Number(body.id)), body.id)
    }
    const rest = json(await get(`/sfw/gif/pat?exclude=${excluded.join(',')}&amount=5`))
    assert.deepEqual(rest.gifs.map((g: { id: string }) => Number(g.id)).sort((a: number, b: number) => a - b), pats.slice(7).map((g) => g.id))
    const none = await get(`/sfw/gif/pat?exclude=${pats.map((g) => g.id).join(',')}`)
    assert.deepEqual([none.statusCode, json(none).error], [404, 'GIF_ALL_EXCLUDED'])
    assert.equal(json(await get('/sfw/gif/hug?exclude=1')).error, 'GIF_CATEGORY_EMPTY')
  })

  for (const exclude of ['', 'a', '1,,2', '1;2', Array.from({ length: 101 }, (_, i) => i).join(',')]) {
    it(`refuses exclude=${exclude.slice(0, 20)} with 400 VALIDATION`, async () => {
      const res = await get(`/sfw/gif/pat?exclude=${exclude}`)
      assert.deepEqual([res.statusCode, json(res).error], [400, 'VALIDATION'])
    })
  }
})

describe('norepeat', () => {
  it('over 1,000 picks of a 10-gif category, never answers a gif within N picks of its last showing', async () => {
    for (const n of [1, 5, 9]) {
      const { key } = await createKeyService(t.store.keys).create(`norepeat-${n}`)
      const last = new Map<string, number>()
      const counts = new Map<string, number>()
      for (let i = 0; i < 1000; i++) {
        const body = json(await get(`/sfw/gif/pat?norepeat=${n}`, { authorization: key }))
        const at = last.get(body.id)
        if (at !== undefined) assert.ok(i - at > n, `N=${n}: ${body.id} at ${i} after ${at}`)
        last.set(body.id, i)
        counts.set(body.id, (counts.get(body.id) ?? 0) + 1)
      }
      assert.equal(counts.size, 10, `N=${n}: every gif is still shown`)
    }
  })

  it('gives way when N is as large as the category: each pick differs from the previous n - 1', async () => {
    const { key } = await createKeyService(t.store.keys).create('norepeat-max')
    const shown: string[] = []
    for (let i = 0; i < 100; i++) {
      const body = json(await get(`/sfw/gif/pat?norepeat=${MAX_NOREPEAT}`, { authorization: key }))
      assert.ok(!shown.slice(-9).includes(body.id), `${body.id} among ${shown.slice(-9)}`)
      shown.push(body.id)
    }
  })

  it('is kept per key and per category, and counts the gifs of amount=N picks', async () => {
    const { key } = await createKeyService(t.store.keys).create('norepeat-amount')
    const first = json(await get('/sfw/gif/pat?norepeat=8&amount=8', { authorization: key }))
    const next = json(await get('/sfw/gif/pat?norepeat=8&amount=2', { authorization: key }))
    assert.deepEqual(new Set([...first.gifs, ...next.gifs].map((g: { id: string }) => g.id)).size, 10)
  })

  for (const n of ['0', '51', 'x']) {
    it(`refuses norepeat=${n} with 400 VALIDATION`, async () => {
      const res = await get(`/sfw/gif/pat?norepeat=${n}`)
      assert.deepEqual([res.statusCode, json(res).error], [400, 'VALIDATION'])
    })
  }
})
