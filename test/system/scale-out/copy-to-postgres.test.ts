// Moving an install from SQLite to PostgreSQL keeps every key, limit, usage row and
// gif (with its id and bytes).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, describe, it } from 'node:test'
import pg from 'pg'
import { ensureStarterCatalog } from '../../../src/gifs/starter.js'
import { createKeyService } from '../../../src/access/keys.js'
import { openPostgresStore } from '../../../src/store/postgres/index.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { dropSchema, postgresMissing, TEST_DATABASE_URL, uniqueName, urlWithSchema } from '../../support/backends.js'
import { tempDir } from '../../support/helpers.js'
import { type CliResult, runCliInProcess } from '../../support/cli.js'

const missing = await postgresMissing()

describe('npm run cli -- store copy-to-postgres', { skip: missing }, () => {
  const schema = uniqueName('copy')
  const dataDir = tempDir('uma-copy-')
  after(async () => {
    await dropSchema(schema)
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  const cli = async (...argv: string[]): Promise<CliResult> => await runCliInProcess(argv, { DATA_DIR: dataDir })

  it('copies keys, limits, usage and the gif catalog with its files, keeping ids', async () => {
    const sqlite = openSqliteStore(dataDir)
    const keys = createKeyService(sqlite.keys)
    const { key } = await keys.create('bot')
    await sqlite.keys.setLimits('bot', { rateMax: 7, rateWindowMs: 60_000, quotaMax: 100, quotaPeriod: 'day' })
    await keys.create('old')
    await keys.revoke('old')
    const bot = (await sqlite.keys.findByName('bot'))!
    await sqlite.usage.add([{ keyId: bot.id, day: '2026-11-20', group: 'gifs', requests: 5, units: 5 }])
    await ensureStarterCatalog(sqlite.gifs, sqlite.gifFiles)
    const before = await sqlite.gifs.list({ limit: 10_000 })
    await sqlite.gifs.remove(before[0]!.id) // a gap in the ids
    // Migration 6: attribution, a hidden gif and a report travel too.
    await sqlite.gifs.setAttribution(before[1]!.id, { animeName: 'Show', artist: 'Someone', phash: 'ab'.repeat(24) })
    await sqlite.gifs.hide(before[2]!.id)
    const report = await sqlite.gifs.report({ gifId: before[2]!.id, keyId: bot.id, reason: 'not_sfw' })
    const gifs = await sqlite.gifs.list({ limit: 10_000 })
    await sqlite.close()

    const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await client.connect()
    await client.query(`CREATE SCHEMA ${schema}`)
    await client.end()

    const r = await cli('store', 'copy-to-postgres', '--database-url', urlWithSchema(schema))
    assert.equal(r.code, 0, r.err)
    assert.match(r.out, new RegExp(`Copied 2 keys, 1 usage rows, ${gifs.length} gifs and ${gifs.length} gif files`))
    assert.match(r.err, /gif files: \d+\/\d+/)

    // An instance with an empty DATA_DIR of its own: the bytes can only come from PostgreSQL.
    const instanceDir = tempDir('uma-copy-instance-')
    const target = await openPostgresStore(TEST_DATABASE_URL, { schema, dataDir: instanceDir })
    try {
      const copied = await createKeyService(target.keys).authenticate(key)
      assert.deepEqual(copied.limits, { rateMax: 7, rateWindowMs: 60_000, quotaMax: 100, quotaPeriod: 'day' })
      assert.equal(copied.id, bot.id)
      await assert.rejects(async () => await createKeyService(target.keys).authenticate('um_nope-nope-nope'), /Unknown API key/)
      assert.equal((await target.keys.findByName('old'))!.status, 'revoked')
      assert.equal(await target.usage.unitsSince(bot.id, '2026-11-01'), 5)
      const copiedGifs = await target.gifs.list({ limit: 10_000 })
      assert.deepEqual(copiedGifs, gifs, 'every field, attribution, colour, phash and hidden included')
      assert.equal(copiedGifs.find((g) => g.id === before[2]!.id)!.hidden, true)
      assert.deepEqual(await target.gifs.reports(), [report])
      assert.equal((await target.gifs.categoryState(before[2]!.category)).count, gifs.filter((g) => g.category === before[2]!.category && !g.hidden).length)
      const again = await target.gifs.report({ gifId: before[1]!.id, keyId: null, reason: 'other' })
      assert.ok(again!.id > report!.id, 'report ids continue after the copied ones')
      const bytes = await target.gifFiles.read(gifs[0]!.hash!)
      assert.deepEqual(bytes, fs.readFileSync(`${dataDir}/gifs/${gifs[0]!.hash}.gif`))
      // New rows continue after the copied ids.
      const next = await target.keys.create({ name: 'new', prefix: 'um_x', hash: 'f'.repeat(64), source: 'cli' })
      assert.ok(next.id > bot.id)
    } finally {
      await target.close()
      fs.rmSync(instanceDir, { recursive: true, force: true })
    }
  })

  it('refuses to copy into a database that already has data, and leaves it unchanged', async () => {
    const r = await cli('store', 'copy-to-postgres', '--database-url', urlWithSchema(schema))
    assert.equal(r.code, 1)
    assert.match(r.err, /already has rows in api_keys/)
  })

  it('explains what it needs', async () => {
    const r = await cli('store', 'copy-to-postgres')
    assert.equal(r.code, 2)
    assert.match(r.err, /--database-url/)
  })
})
