// /gen/leaderboard through the app: players as a JSON body (POST, or GET as existing
// clients send it), as JSON text in the query string, a page of 20 of 100 players with
// only that page's avatars fetched, and every bad value a 400 naming it.
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { parseAllowList } from '../../../../src/remote-fetch/address.js'
import { createTestApp, json, type TestApp } from '../../../support/helpers.js'
import { assertErrorEnvelope } from '../../../support/envelope.js'

let t: TestApp
let server: http.Server
let base: string
const fetched: string[] = []

before(async () => {
  const avatar = await sharp({ create: { width: 128, height: 128, channels: 3, background: '#3366cc' } }).png().toBuffer()
  server = http.createServer((req, res) => { fetched.push(req.url ?? ''); res.writeHead(200, { 'content-type': 'image/png' }); res.end(avatar) })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  t = await createTestApp({ config: { remoteFetchAllow: parseAllowList(['127.0.0.1']) } })
})
after(async () => { await t.close(); server.closeAllConnections(); server.close() })

const players = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ username: `player${i + 1}`, display_name: `Player ${i + 1}`, avatar: `${base}/${tag}/${i + 1}.png`, level: 100 - i, xp: 100_000 - i * 997 }))

async function size (body: Buffer): Promise<[string | undefined, number | undefined, number | undefined]> {
  const m = await sharp(body).metadata()
  return [m.format, m.width, m.height]
}

describe('/gen/leaderboard', () => {
  it('is listed by /list/templates', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/list/templates', headers: t.auth })
    assert.ok(json(res).list.includes('leaderboard'))
  })

  it('draws page 5 of 100 players, 20 a page, fetching only that page\'s avatars', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/gen/leaderboard', headers: t.auth, payload: { players: players(100, 'full'), page: 5, per_page: 20, title: 'Top 100', highlight: 'player90' } })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(await size(res.rawPayload), ['png', 720, 1718])
    const mine = fetched.filter((u) => u.startsWith('/full/')).map((u) => Number(u.slice(6, -4))).sort((a, b) => a - b)
    assert.deepEqual(mine, Array.from({ length: 20 }, (_, i) => 81 + i))
  })

  it('reads a JSON body sent with GET as text/plain, keys in any case (the C# client)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/gen/leaderboard', headers: { ...t.auth, 'content-type': 'text/plain; charset=utf-8' }, payload: JSON.stringify({ Players: [{ DisplayName: 'Ada', Username: 'ada', Level: 3, XP: 1200 }], Per_Page: '5', Output: 'webp' }) })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(await size(res.rawPayload), ['webp', 720, 170 + 76 + 28])
  })

  it('reads players as JSON text in the query string, and one player draws one row', async () => {
    const query = new URLSearchParams({ players: JSON.stringify([{ username: 'solo', value: 3, label: 'wins' }]), title: 'Solo' })
    const res = await t.app.inject({ method: 'GET', url: `/gen/leaderboard?${query}`, headers: t.auth })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(await size(res.rawPayload), ['png', 720, 274])
  })

  it('answers every bad value with a 400 naming it', async () => {
    const one = [{ username: 'a' }]
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{}, 'players', 'VALIDATION'],
      [{ players: 'nope' }, 'players', 'VALIDATION'],
      [{ players: [] }, 'players', 'VALIDATION'],
      [{ players: players(101, 'many') }, 'players', 'VALIDATION'],
      [{ players: [{ username: 'a' }, { username: 'b', xp: 'lots' }] }, 'players[1].xp', 'VALIDATION'],
      [{ players: [{ level: 2 }] }, 'players[0].username', 'VALIDATION'],
      [{ players: one, page: 2 }, 'page', 'VALIDATION'],
      [{ players: one, per_page: 21 }, 'per_page', 'VALIDATION'],
      [{ players: one, per_page: 'ten' }, 'per_page', 'VALIDATION'],
      [{ players: one, abbreviate: 'maybe' }, 'abbreviate', 'VALIDATION'],
      [{ players: one, title: 't'.repeat(101) }, 'title', 'VALIDATION'],
      [{ players: one, label: 'l'.repeat(41) }, 'label', 'VALIDATION'],
      [{ players: one, color_accent: 'not-a-colour' }, 'color_accent', 'INVALID_COLOR'],
      [{ players: one, image: 'no-such-icon' }, 'image', 'UNKNOWN_ASSET']
    ]
    for (const [payload, field, code] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/gen/leaderboard', headers: t.auth, payload })
      assertErrorEnvelope(res, 400, code, { field })
    }
    // A bad player in an array is named by the schema's check, its place included.
    assertErrorEnvelope(await t.app.inject({ method: 'POST', url: '/gen/leaderboard', headers: t.auth, payload: { players: [{ username: 'a' }, { username: ['b'] }] } }), 400, 'VALIDATION', { message: /"players\.1\.username"/ })
    // Nothing fetched for a refused request.
    assert.equal(fetched.filter((u) => u.startsWith('/many/')).length, 0)
  })
})
