// Migration 6 on an install made before it: SQLite rebuilds the gifs table (seq loses
// NOT NULL), which must keep every row, its position, and the ids' high-water mark
// (ids are never reused after a removal); PostgreSQL alters the table in place.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { it } from 'node:test'
import pg from 'pg'
import { migrate as migratePostgres } from '../../../src/store/postgres/database.js'
import { POSTGRES_MIGRATIONS } from '../../../src/store/postgres/migrations.js'
import { openPostgresStore } from '../../../src/store/postgres/index.js'
import { migrate, openSqliteDatabase } from '../../../src/store/sqlite/database.js'
import { SQLITE_MIGRATIONS } from '../../../src/store/sqlite/migrations.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { dropSchema, postgresMissing, TEST_DATABASE_URL, uniqueName } from '../../support/backends.js'
import { tempDir } from '../../support/helpers.js'

const BEFORE = 5
const row = (category: string, seq: number, n: number): unknown[] => [category, seq, n.toString(16).padStart(64, '0'), 100 + n, 10, 20, 3, 'image/gif', 1_700_000_000_000 + n]

it('SQLite: migration 6 keeps the gifs, their positions and the id high-water mark', async () => {
  const dir = tempDir()
  try {
    const db = openSqliteDatabase(dir, SQLITE_MIGRATIONS.filter((m) => m.version <= BEFORE))
    const insert = db.prepare('INSERT INTO gifs (category, seq, hash, size, width, height, frames, content_type, added_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
    insert.run(...row('hug', 0, 1))
    insert.run(...row('hug', 1, 2))
    insert.run(...row('hug', 2, 3))
    db.prepare('DELETE FROM gifs WHERE id = 3').run()
    db.prepare('INSERT INTO gif_categories (category, count, version) VALUES (?, ?, ?)').run('hug', 2, 7)
    migrate(db, SQLITE_MIGRATIONS)
    db.close()

    const store = openSqliteStore(dir)
    try {
      const listed = await store.gifs.list()
      assert.deepEqual(listed.map((g) => [g.id, g.size, g.hidden, g.animeName]), [[1, 101, false, null], [2, 102, false, null]])
      assert.deepEqual(await store.gifs.categoryState('hug'), { count: 2, version: 7 })
      assert.equal((await store.gifs.pickOne('hug', 0.9))!.id, 2)
      const [added] = await store.gifs.add([{ category: 'hug', hash: 'f'.repeat(64), url: null, size: 1, width: 1, height: 1, frames: 1, contentType: 'image/gif' }])
      assert.equal(added!.id, 4, 'the id of the removed gif 3 is not reused')
      await store.gifs.hide(1)
      assert.equal((await store.gifs.get(1))!.hidden, true)
    } finally {
      await store.close()
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

it('PostgreSQL: migration 6 keeps the gifs and lets a gif be hidden', async (t) => {
  const skip = await postgresMissing()
  if (skip) return t.skip(skip)
  const schema = uniqueName('migration6')
  const dir = tempDir()
  const setup = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 })
  await setup.query(`CREATE SCHEMA ${schema}`)
  await setup.end()
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1, options: `-c search_path=${schema}` })
  try {
    await migratePostgres(pool, POSTGRES_MIGRATIONS.filter((m) => m.version <= BEFORE))
    await pool.query('INSERT INTO gifs (category, seq, hash, size, width, height, frames, content_type, added_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)', row('pat', 0, 1))
    await pool.query('INSERT INTO gif_categories (category, count, version) VALUES ($1, 1, 3)', ['pat'])
  } finally {
    await pool.end()
  }
  const store = await openPostgresStore(TEST_DATABASE_URL, { schema, dataDir: dir })
  try {
    const [gif] = await store.gifs.list()
    assert.deepEqual([gif!.size, gif!.hidden, gif!.phash], [101, false, null])
    assert.equal((await store.gifs.hide(gif!.id))!.hidden, true)
    assert.deepEqual(await store.gifs.categoryState('pat'), { count: 0, version: 4 })
  } finally {
    await store.close()
    await dropSchema(schema)
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
