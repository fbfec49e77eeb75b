// Connecting to PostgreSQL (scale-out mode): a pool, numbers as numbers, and the
// migrations applied once under an advisory lock, so instances starting together
// cannot apply the same migration twice.
import pg from 'pg'
import type { Migration } from '../sqlite/migrations.js'
import { POSTGRES_MIGRATIONS } from './migrations.js'

// BIGINT (int8) columns hold counts and epoch milliseconds: well within 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v))

const MIGRATION_LOCK = 0x756d61 // "uma"
const POOL_SIZE = 10

export interface PostgresOptions {
  /** A schema to work in (created if missing): tests isolate themselves this way. */
  schema?: string
}

export async function openPostgresPool (url: string, options: PostgresOptions = {}): Promise<pg.Pool> {
  const schema = options.schema
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name "${schema}"`)
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    connectionTimeoutMillis: 5000,
    ...(schema ? { options: `-c search_path=${schema}` } : {})
  })
  // An idle client's error (server restart) must not crash the process; the pool
  // replaces the client on next use.
  pool.on('error', () => {})
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
  await migrate(pool, POSTGRES_MIGRATIONS)
  return pool
}

export async function migrate (pool: pg.Pool, migrations: Migration[]): Promise<void> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at BIGINT NOT NULL
    )`)
    const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version))
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(m.version)) continue
      await client.query(m.sql)
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, Date.now()])
    }
    await client.query('COMMIT')
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {})
    throw err
  } finally {
    client.release()
  }
}
