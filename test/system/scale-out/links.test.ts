// Signed links with several instances (docs/links.md, "The server key"): instances
// sharing LINK_SIGNING_KEYS serve each other's links, with the same bytes; a roll through
// one ends the old links on the other within KEY_CACHE_TTL_MS; an instance without the
// setting answers 503 LINKS_NOT_CONFIGURED and says why once in its start log.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { dropSchema, postgresMissing, redisMissing, TEST_DATABASE_URL, TEST_REDIS_URL, uniqueName, urlWithSchema } from '../../support/backends.js'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, startServerProcess, until } from '../../support/processes.js'
import { lastLine, runCliInProcess } from '../../support/cli.js'
import { assertErrorEnvelope } from '../../support/envelope.js'

const missing = (await postgresMissing()) ?? (await redisMissing())
const SHARED = 'shared-link-signing-key-0123456789abcdef'

describe('signed links across instances', { skip: missing }, () => {
  const schema = uniqueName('links')
  const databaseUrl = urlWithSchema(schema)
  const dirs = [tempDir('uma-la-'), tempDir('uma-lb-'), tempDir('uma-lc-')]
  const env = (dataDir: string, extra: Record<string, string> = {}): Record<string, string> => ({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: `${schema}:`,
    GIF_STARTER_CATALOG: 'false',
    KEY_CACHE_TTL_MS: '300',
    ...extra
  })
  let a: ServerProcess
  let b: ServerProcess
  let c: ServerProcess
  let key = ''

  before(async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await client.connect()
    await client.query(`CREATE SCHEMA ${schema}`)
    await client.end()
    ;[a, b, c] = await Promise.all([
      startServerProcess(env(dirs[0]!, { LINK_SIGNING_KEYS: SHARED })),
      startServerProcess(env(dirs[1]!, { LINK_SIGNING_KEYS: SHARED })),
      startServerProcess(env(dirs[2]!))
    ])
    const created = await runCliInProcess(['keys', 'create', '--name', 'linker'], env(dirs[0]!))
    assert.equal(created.code, 0, created.err)
    key = lastLine(created.out)
  })

  after(async () => {
    await Promise.all([a?.stop(), b?.stop(), c?.stop()])
    await dropSchema(schema)
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  })

  it('serves a link minted on one instance from the other, the same bytes, and ends it there after a roll', async () => {
    const minted = await request(`${a.url}/links`, { method: 'POST', headers: { authorization: key }, body: JSON.stringify({ path: '/gen/welcome?username=Shared' }) })
    assert.equal(minted.status, 200, minted.body.toString())
    const url: string = JSON.parse(minted.body.toString()).url
    const onB = b.url + url.slice(a.url.length)
    const fromA = await request(url)
    const fromB = await request(onB)
    assert.equal(fromB.status, 200, fromB.body.toString())
    assert.ok(fromB.body.equals(fromA.body))
    const meA = JSON.parse((await request(`${a.url}/me`, { headers: { authorization: key } })).body.toString())
    const meB = JSON.parse((await request(`${b.url}/me`, { headers: { authorization: key } })).body.toString())
    assert.deepEqual(meB.links, meA.links, 'one secret, whichever instance shows it')
    assert.equal((await request(`${a.url}/me/links/roll`, { method: 'POST', headers: { authorization: key } })).status, 200)
    await until(async () => (await request(onB)).status === 403, 2000, 'the old link refused by the other instance')
  })

  it('answers 503 LINKS_NOT_CONFIGURED on an instance without LINK_SIGNING_KEYS, said once at start', async () => {
    const res = await request(`${c.url}/links`, { method: 'POST', headers: { authorization: key }, body: JSON.stringify({ path: '/gen/welcome' }) })
    const body = assertErrorEnvelope({ ...res, body: res.body.toString() }, 503, 'LINKS_NOT_CONFIGURED')
    assert.match(body.message, /LINK_SIGNING_KEYS/)
    assert.equal(JSON.parse((await request(`${c.url}/me`, { headers: { authorization: key } })).body.toString()).links, null)
    assert.equal(c.output().split('\n').filter((line) => line.includes('signed links are off')).length, 1)
    assert.ok(!fs.existsSync(`${dirs[2]}/link-signing-key`), 'no key of its own, which the others would not know')
  })
})
