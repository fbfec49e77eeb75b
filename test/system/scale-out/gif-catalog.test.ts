// The gif catalog of issue 28 across two server processes sharing one PostgreSQL and one
// Redis: norepeat remembers a key's picks in Redis, so alternating instances never repeat
// within N; a gif hidden through the command line leaves both; each instance makes the
// same WebP from its own copy of a gif it never held.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { renderStarterGif } from '../../../src/gifs/starter-art.js'
import { dropSchema, postgresMissing, redisMissing, TEST_DATABASE_URL, TEST_REDIS_URL, uniqueName, urlWithSchema } from '../../support/backends.js'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, startServerProcess } from '../../support/processes.js'
import { type CliResult, lastLine, runCliInProcess } from '../../support/cli.js'

const missing = (await postgresMissing()) ?? (await redisMissing())
const GIFS = 10

describe('the gif catalog on two instances', { skip: missing }, () => {
  const schema = uniqueName('gifcat')
  const dirs = [tempDir('uma-ga-'), tempDir('uma-gb-')]
  const env = (dataDir: string): Record<string, string> => ({
    DATA_DIR: dataDir,
    DATABASE_URL: urlWithSchema(schema),
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: `${schema}:`,
    GIF_STARTER_CATALOG: 'false',
    GIF_CACHE_TTL_MS: '300'
  })
  let servers: ServerProcess[] = []
  let key = ''

  const cli = async (...argv: string[]): Promise<CliResult> => await runCliInProcess(argv, env(dirs[0]!))
  const pick = async (i: number, query = ''): Promise<any> =>
    JSON.parse((await request(`${servers[i % 2]!.url}/sfw/gif/pat${query}`, { headers: { authorization: key } })).body.toString())

  before(async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await client.connect()
    await client.query(`CREATE SCHEMA ${schema}`)
    await client.end()
    servers = await Promise.all(dirs.map((d) => startServerProcess(env(d))))
    const folder = tempDir('uma-gc-import-')
    try {
      fs.mkdirSync(path.join(folder, 'pat'))
      for (let i = 0; i < GIFS; i++) fs.writeFileSync(path.join(folder, 'pat', `${i}.gif`), renderStarterGif(`pat-${i}`, i % 3, 60, 40))
      const imported = await cli('gifs', 'import', folder)
      assert.equal(imported.code, 0, imported.err)
    } finally {
      fs.rmSync(folder, { recursive: true, force: true })
    }
    const created = await cli('keys', 'create', '--name', 'bot')
    assert.equal(created.code, 0, created.err)
    key = lastLine(created.out)
  })

  after(async () => {
    await Promise.all(servers.map((s) => s.stop()))
    await dropSchema(schema)
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  })

  it('norepeat: picks alternating between the instances never repeat a gif within N', async () => {
    const n = GIFS - 1
    const shown: string[] = []
    for (let i = 0; i < 60; i++) {
      const body = await pick(i, `?norepeat=${n}`)
      assert.equal(body.success, true, JSON.stringify(body))
      assert.ok(!shown.slice(-n).includes(body.id), `pick ${i} on instance ${i % 2}: ${body.id} among the last ${n}: ${shown.slice(-n)}`)
      shown.push(body.id)
    }
  })

  it('a gif hidden through the command line leaves both instances; unhidden, it comes back', async () => {
    const { id, file } = await pick(0)
    assert.equal((await cli('gifs', 'hide', id)).code, 0)
    for (const s of servers) {
      const deadline = Date.now() + 5000
      let ids: string[] = [id]
      while (ids.includes(id) && Date.now() < deadline) {
        const body = JSON.parse((await request(`${s.url}/sfw/gif/pat?amount=20`, { headers: { authorization: key } })).body.toString())
        ids = body.gifs.map((g: { id: string }) => g.id)
        if (ids.includes(id)) await new Promise((resolve) => setTimeout(resolve, 50))
      }
      assert.equal(ids.length, GIFS - 1, s.url)
      assert.ok(!ids.includes(id), `${s.url} still picks the hidden gif`)
      assert.equal((await request(`${s.url}${new URL(file).pathname}`)).status, 404)
    }
    assert.equal((await cli('gifs', 'unhide', id)).code, 0)
    assert.equal((await request(`${servers[1]!.url}${new URL(file).pathname}`)).status, 200)
  })

  it('each instance makes the same WebP of a gif, from its own copy', async () => {
    const { file } = await pick(0, '?format=webp')
    const name = path.basename(new URL(file).pathname)
    assert.match(name, /^[0-9a-f]{64}\.webp$/)
    const [fromA, fromB] = await Promise.all(servers.map((s) => request(`${s.url}/files/gifs/${name}`)))
    assert.equal(fromA!.status, 200)
    assert.equal(fromB!.status, 200)
    assert.equal(fromA!.headers['content-type'], 'image/webp')
    assert.deepEqual(fromA!.body, fromB!.body)
    assert.equal(fromA!.headers.etag, fromB!.headers.etag)
    for (const d of dirs) assert.ok(fs.existsSync(path.join(d, 'gifs', name)), `kept in ${d}`)
  })
})
