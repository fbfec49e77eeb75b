// /gen/leaderboard from the built server over real sockets (issue 40): a page of 20 of
// 100 players, only that page's avatars fetched (from a local image server allowed
// through REMOTE_FETCH_ALLOW), within the default admission and budgets; a bad value's
// 400 naming it; and the JSON body existing clients send with GET (the C# client as
// text/plain, the Rust client with no content type).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { assertErrorEnvelope } from '../../support/envelope.js'
import { type ImageServer, startImageServer } from '../../support/image-server.js'
import { request, type ServerProcess, startServerProcess } from '../../support/processes.js'

const KEY = 'leaderboard-process-key-0123456789'

describe('/gen/leaderboard from the built server', () => {
  let server: ServerProcess
  let images: ImageServer | undefined
  let origin: string
  let dataDir: string
  let hits: string[] = []

  before(async () => {
    // Discord's avatars are 128 px at the size bots ask for.
    const avatar = await sharp({ create: { width: 128, height: 128, channels: 3, background: '#3366cc' } }).png().toBuffer()
    images = await startImageServer({}, avatar)
    origin = images.origin
    hits = images.served
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-leaderboard-'))
    server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn', REMOTE_FETCH_ALLOW: '127.0.0.1' })
  })
  after(async () => {
    await server.stop()
    images?.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  const players = (n: number, tag: string): unknown[] => Array.from({ length: n }, (_, i) => ({ displayName: `Player ${i + 1} 🎮`, username: `player${i + 1}`, avatar: `${origin}/${tag}/${i + 1}.png`, level: 100 - i, xp: 1_000_000 - i * 9_973 }))

  it('draws the fifth page of 20 of 100 players, fetching that page\'s 20 avatars only', async () => {
    const res = await request(`${server.url}/gen/leaderboard`, {
      method: 'POST',
      headers: { authorization: KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ players: players(100, 'hundred'), page: 5, per_page: 20, title: 'Top 100', image: `${origin}/server-icon.png`, highlight: 'player90' })
    })
    assert.equal(res.status, 200, res.body.toString().slice(0, 300))
    assert.equal(res.headers['content-type'], 'image/png')
    const meta = await sharp(res.body).metadata()
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 720, 1718])
    const avatars = hits.filter((u) => u.startsWith('/hundred/')).map((u) => Number(path.basename(u, '.png'))).sort((a, b) => a - b)
    assert.deepEqual(avatars, Array.from({ length: 20 }, (_, i) => 81 + i))
  })

  it('answers a bad value with a 400 envelope naming it, fetching nothing', async () => {
    const res = await request(`${server.url}/gen/leaderboard`, {
      method: 'POST',
      headers: { authorization: KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ players: players(30, 'bad'), per_page: 10, page: 4 })
    })
    const body = assertErrorEnvelope(res, 400, 'VALIDATION', { field: 'page' })
    assert.match(body.message, /1 to 3/)
    assert.equal(hits.filter((u) => u.startsWith('/bad/')).length, 0)
  })

  it('reads the JSON body existing clients send with GET: as text/plain (C#) and without a content type (Rust)', async () => {
    for (const headers of [{ 'content-type': 'text/plain; charset=utf-8' }, {}] as Array<Record<string, string>>) {
      const body = JSON.stringify({ Players: players(3, 'get'), Title: 'GET with a body' })
      // With its length, as both clients send it.
      const res = await request(`${server.url}/gen/leaderboard`, { method: 'GET', headers: { authorization: KEY, 'content-length': String(Buffer.byteLength(body)), ...headers }, body })
      assert.equal(res.status, 200, res.body.toString().slice(0, 300))
      const meta = await sharp(res.body).metadata()
      assert.deepEqual([meta.format, meta.width, meta.height], ['png', 720, 170 + 3 * 76 + 28])
    }
  })
})
