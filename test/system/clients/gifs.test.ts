// Client replay, gifs (issue 28): a pick now carries attribution, sizes and a colour
// beside id and file, some of them null. Each existing client's way of reading the pick
// (docs/compatibility.md, "Gif answers") is modelled here and run over the built
// server's real answers: the fields a client declares keep their names and types, and
// what it does not declare is ignored by its parser, nulls included.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { jsonOf, KEY, type ReplayServer, send, startReplayServer } from './wire.js'

let s: ReplayServer
before(async () => {
  s = await startReplayServer({ GIF_STARTER_CATALOG: 'true' })
})
after(async () => { await s.close() })

const get = async (target: string) => await send(s.port, { method: 'GET', target, headers: [['Authorization', KEY]] })

type Declared = Record<string, 'string' | 'number' | 'boolean'>

/** What every client declares of a gif answer (docs/compatibility.md): the envelope, id and file. */
const PICK: Declared = { success: 'boolean', code: 'number', message: 'string', id: 'string', file: 'string' }

/**
 * A typed binding as serde (Rust, without deny_unknown_fields), Newtonsoft/System.Text.Json
 * (C#) and Gson (Java) do it: every declared field present with its type, never null
 * (String in Rust, int/bool in C# and Java), unknown fields skipped.
 */
function typedBinding (body: Record<string, unknown>, declared: Declared): Record<string, unknown> {
  const bound: Record<string, unknown> = {}
  for (const [field, type] of Object.entries(declared)) {
    const value = body[field]
    if (value === null || value === undefined) throw new Error(`missing field \`${field}\``)
    const actual: string = typeof value
    if (actual !== type) throw new Error(`invalid type for \`${field}\`: ${typeof value}, expected ${type}`)
    bound[field] = value
  }
  return bound
}

/** How each client reads a pick, as their sources and documentation show (see the compatibility notes). */
const CLIENTS: Array<{ who: string, read (body: Record<string, unknown>): { id: unknown, file: unknown } }> = [
  { who: 'JavaScript / TypeScript (JSON.parse, then .file)', read: (b) => ({ id: b.id, file: b.file }) },
  { who: 'Python (dict: r["file"])', read: (b) => ({ id: b.id, file: b.file }) },
  { who: 'Ruby (JSON.parse hash)', read: (b) => ({ id: b.id, file: b.file }) },
  { who: 'Rust (serde struct, unknown fields ignored)', read: (b) => typedBinding(b, PICK) as { id: unknown, file: unknown } },
  { who: 'C# (typed class)', read: (b) => typedBinding(b, PICK) as { id: unknown, file: unknown } },
  { who: 'Java (Gson class)', read: (b) => typedBinding(b, PICK) as { id: unknown, file: unknown } }
]

const NEW_FIELDS = ['anime_name', 'artist', 'artist_url', 'source_url', 'width', 'height', 'frames', 'bytes', 'dominant_color']

describe('a pick with the new fields, as each existing client reads it', () => {
  it('carries the new fields, nulls included, and none of them shadows a field a client reads', async () => {
    const body = jsonOf(await get('/sfw/gif/hug'))
    for (const field of NEW_FIELDS) assert.ok(field in body, field)
    assert.ok(NEW_FIELDS.some((f) => body[f] === null), 'the starter gifs have no attribution: nulls are on the wire')
    for (const field of Object.keys(PICK)) assert.ok(!NEW_FIELDS.includes(field))
    for (const field of Object.keys(PICK)) assert.notEqual(body[field], null, `${field} is never null`)
  })

  for (const client of CLIENTS) {
    it(`${client.who}: parses the pick and gets id and an absolute file URL`, async () => {
      for (const target of ['/sfw/gif/hug', '/sfw/gif/pat?amount=3', '/sfw/gif/wave?format=webp']) {
        const body = jsonOf(await get(target))
        const { id, file } = client.read(body)
        assert.match(String(id), /^\d+$/, target)
        assert.match(String(file), /^http:\/\/127\.0\.0\.1:\d+\/files\/gifs\/[0-9a-f]{64}\.(gif|webp)$/, target)
        if (target.includes('amount')) for (const item of body.gifs) client.read({ ...item, success: true, code: 200, message: '' })
      }
    })
  }

  it('the file a client puts into an embed still downloads without a key', async () => {
    const body = jsonOf(await get('/sfw/gif/hug'))
    const file = new URL(body.file)
    const gif = await send(s.port, { method: 'GET', target: file.pathname, headers: [] })
    assert.equal(gif.status, 200)
    assert.equal(gif.body.subarray(0, 6).toString('latin1'), 'GIF89a')
  })
})
