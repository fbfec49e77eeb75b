// Scale-out mode end to end: two server processes sharing one PostgreSQL and one Redis.
// A key's rate limit is enforced across both, a key revoked through one is refused by
// the other, and a gif imported through one is served by the other (no shared disk)
// and, once removed, stops being answered by it.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { renderStarterGif } from '../../../src/gifs/starter-art.js'
import { dropSchema, postgresMissing, redisMissing, TEST_DATABASE_URL, TEST_REDIS_URL, uniqueName, urlWithSchema } from '../../support/backends.js'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, startServerProcess } from '../../support/processes.js'
import pg from 'pg'
import { type CliResult, lastLine, runCliInProcess } from '../../support/cli.js'

const missing = (await postgresMissing()) ?? (await redisMissing())

describe('two instances on one PostgreSQL and one Redis', { skip: missing }, () => {
  const schema = uniqueName('twoinst')
  const databaseUrl = urlWithSchema(schema)
  const redisPrefix = `${uniqueName('uma')}:`
  const dirs = [tempDir('uma-a-'), tempDir('uma-b-')]
  const env = (dataDir: string): Record<string, string> => ({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    GIF_STARTER_CATALOG: 'false',
    USAGE_FLUSH_MS: '200',
    KEY_CACHE_TTL_MS: '300',
    GIF_CACHE_TTL_MS: '300'
  })
  let a: ServerProcess
  let b: ServerProcess
  let key = ''

  const cli = async (dataDir: string, ...argv: string[]): Promise<CliResult> => await runCliInProcess(argv, env(dataDir))

  before(async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await client.connect()
    await client.query(`CREATE SCHEMA ${schema}`)
    await client.end()
    const started = await Promise.all(dirs.map((d) => startServerProcess(env(d))))
    a = started[0]!
    b = started[1]!
    const created = await cli(dirs[0]!, 'keys', 'create', '--name', 'shared', '--rate', '6/1m')
    assert.equal(created.code, 0, created.err)
    key = lastLine(created.out)
  })

  after(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await dropSchema(schema)
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  })

  it('both instances use the shared stores', async () => {
    for (const s of [a, b]) {
      const ready = JSON.parse((await request(`${s.url}/readyz`)).body.toString())
      assert.deepEqual([ready.status, ready.database.state], ['ready', 'ok'])
      assert.match(s.output(), /"store":"postgres".*Utility Media API ready/)
    }
  })

  it('enforces one key\'s limit across both instances', async () => {
    const statuses: number[] = []
    const remaining: string[] = []
    for (let i = 0; i < 8; i++) {
      const s = i % 2 === 0 ? a : b
      const res = await request(`${s.url}/gen/html?code=418`, { headers: { authorization: key } })
      statuses.push(res.status)
      remaining.push(String(res.headers['x-ratelimit-remaining']))
    }
    // 6 units per minute in all, whichever instance answers. (A window boundary could
    // split the run; the window is a minute and the run takes well under a second.)
    assert.deepEqual(statuses, [418, 418, 418, 418, 418, 418, 429, 429])
    assert.deepEqual(remaining, ['5', '4', '3', '2', '1', '0', '0', '0'])
  })

  it('refuses on one instance a key revoked through the other', async () => {
    const fresh = await cli(dirs[1]!, 'keys', 'create', '--name', 'short-lived')
    const shortKey = lastLine(fresh.out)
    assert.equal((await request(`${a.url}/gen/html?code=418`, { headers: { authorization: shortKey } })).status, 418)
    assert.equal((await cli(dirs[1]!, 'keys', 'revoke', 'short-lived')).code, 0)
    const revokedAt = Date.now()
    // Instances trust a looked-up key for KEY_CACHE_TTL_MS (here 300 ms), then both must
    // refuse it. How long the cache trusts a key is checked on an injected clock
    // (test/unit/store/cached-keys.test.ts); here, that the revocation reaches the other
    // process through the shared store, polled for up to 5 s.
    for (const s of [a, b]) {
      let error = ''
      while (Date.now() - revokedAt < 5000) {
        const res = await request(`${s.url}/gen/html`, { headers: { authorization: shortKey } })
        error = JSON.parse(res.body.toString()).error
        if (res.status === 401) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      assert.equal(error, 'AUTH_KEY_REVOKED', `still accepted ${Date.now() - revokedAt} ms after the revocation`)
    }
  })

  it('serves from one instance a gif imported through the other, without a shared disk', async () => {
    const folder = tempDir('uma-import-')
    try {
      fs.mkdirSync(path.join(folder, 'wave'))
      const bytes = renderStarterGif('wave', 1)
      fs.writeFileSync(path.join(folder, 'wave', 'hello.gif'), bytes)
      const imported = await cli(dirs[0]!, 'gifs', 'import', folder)
      assert.equal(imported.code, 0, imported.err)

      const other = await cli(dirs[1]!, 'keys', 'create', '--name', 'gif-reader')
      const readerKey = lastLine(other.out)
      const pick = JSON.parse((await request(`${b.url}/sfw/gif/wave`, { headers: { authorization: readerKey } })).body.toString())
      assert.equal(pick.success, true, JSON.stringify(pick))
      const file = new URL(pick.file)
      // Instance B has never seen the file on its disk: it comes from PostgreSQL.
      assert.equal(fs.existsSync(path.join(dirs[1]!, 'gifs', path.basename(file.pathname))), false)
      const download = await request(`${b.url}${file.pathname}`)
      assert.equal(download.status, 200)
      assert.equal(download.headers['content-type'], 'image/gif')
      assert.deepEqual(download.body, Buffer.from(bytes))
      assert.equal(fs.existsSync(path.join(dirs[1]!, 'gifs', path.basename(file.pathname))), true, 'B keeps a local copy')

      // B now holds that pick in memory; removed through A's command line, it must stop
      // being answered once GIF_CACHE_TTL_MS (here 300 ms) has passed. The TTL itself is
      // checked on an injected clock (test/unit/store/cached-gifs.test.ts); here, that the
      // removal reaches the other process, polled for up to 5 s.
      assert.equal((await cli(dirs[0]!, 'gifs', 'remove', pick.id)).code, 0)
      const removedAt = Date.now()
      let answer = { status: 0, error: '' }
      while (Date.now() - removedAt < 5000) {
        const res = await request(`${b.url}/sfw/gif/wave`, { headers: { authorization: readerKey } })
        answer = { status: res.status, error: JSON.parse(res.body.toString()).error }
        if (res.status !== 200) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      assert.deepEqual(answer, { status: 404, error: 'GIF_CATEGORY_EMPTY' }, `still answered ${Date.now() - removedAt} ms after the removal`)
    } finally {
      fs.rmSync(folder, { recursive: true, force: true })
    }
  })
})
