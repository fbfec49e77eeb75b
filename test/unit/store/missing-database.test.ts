// A store opened with create: false (the command line without --create-store) refuses a
// database that is not there and creates nothing, on both backends (issue 39 item 6).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import pg from 'pg'
import { DatabaseMissingError, EXIT_DATABASE_MISSING } from '../../../src/store/interface.js'
import { openPostgresStore } from '../../../src/store/postgres/index.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { dropSchema, postgresMissing, TEST_DATABASE_URL, uniqueName } from '../../support/backends.js'
import { tempDirs } from '../../support/helpers.js'

const dirs = tempDirs()
after(() => dirs.removeAll())

describe('SQLite with create: false', () => {
  it('refuses a missing or empty file with exit 66, creating not even DATA_DIR', () => {
    const dir = path.join(dirs.make('uma-missing-'), 'not-yet')
    assert.throws(() => openSqliteStore(dir, { create: false }), (err: unknown) => {
      assert.ok(err instanceof DatabaseMissingError)
      assert.equal(err.exitCode, EXIT_DATABASE_MISSING)
      assert.equal(err.where, path.join(dir, 'utility-media.sqlite'))
      return true
    })
    assert.equal(fs.existsSync(dir), false)
    fs.mkdirSync(dir)
    fs.writeFileSync(path.join(dir, 'utility-media.sqlite'), '')
    assert.throws(() => openSqliteStore(dir, { create: false }), DatabaseMissingError)
  })

  it('opens a database that exists', async () => {
    const dir = dirs.make('uma-missing-')
    await openSqliteStore(dir).close()
    const store = openSqliteStore(dir, { create: false })
    assert.equal(await store.keys.count(), 0)
    await store.close()
  })
})

describe('PostgreSQL with create: false', async () => {
  const skip = await postgresMissing()
  it('refuses a schema the server never migrated, creating nothing; opens one it did', { skip }, async () => {
    const schema = uniqueName('missing')
    const dir = dirs.make('uma-missing-pg-')
    try {
      await assert.rejects(openPostgresStore(TEST_DATABASE_URL, { schema, dataDir: dir, create: false }), (err: unknown) => {
        assert.ok(err instanceof DatabaseMissingError)
        assert.match(err.where, new RegExp(`^PostgreSQL [^ ]+/\\S+ \\(schema ${schema}\\)$`))
        return true
      })
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
      await client.connect()
      try {
        const { rows } = await client.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema])
        assert.equal(rows.length, 0, 'the schema was not created')
      } finally {
        await client.end()
      }
      await (await openPostgresStore(TEST_DATABASE_URL, { schema, dataDir: dir })).close()
      const store = await openPostgresStore(TEST_DATABASE_URL, { schema, dataDir: dir, create: false })
      assert.equal(await store.keys.count(), 0)
      await store.close()
    } finally {
      await dropSchema(schema)
    }
  })
})
