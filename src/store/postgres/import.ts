// Writing a whole install into an empty PostgreSQL database in one transaction, for
// moving an install there (src/cli/copy-to-postgres.ts): an interrupted copy leaves
// the target as it was.
import type pg from 'pg'
import { INSTALL_TABLES, type InstallTable } from '../rows.js'
import { MAINTENANCE_STATEMENT_TIMEOUT_MS, openPostgresPool } from './database.js'

const BATCH = 500

export interface PostgresImport {
  /** The first table that already holds rows (the target must be empty), or undefined. */
  nonEmptyTable (): Promise<string | undefined>
  begin (): Promise<void>
  /** Rows with the columns of INSTALL_TABLES, ids included. */
  insert (table: InstallTable, rows: unknown[][]): Promise<void>
  /** A gif's bytes into the shared table every instance serves from (src/store/postgres/gif-files.ts). */
  putGifContent (hash: string, bytes: Uint8Array): Promise<void>
  /** Ids continue after the copied ones; then commit. */
  commit (): Promise<void>
  rollback (): Promise<void>
  close (): Promise<void>
}

export async function openPostgresImport (databaseUrl: string): Promise<PostgresImport> {
  // One long transaction of large batches: the request deadlines do not apply.
  const pool = await openPostgresPool(databaseUrl, { statementTimeoutMs: MAINTENANCE_STATEMENT_TIMEOUT_MS, queryTimeoutMs: MAINTENANCE_STATEMENT_TIMEOUT_MS })
  let client: pg.PoolClient
  try {
    client = await pool.connect()
    // A lost connection is an 'error' event of the checked-out client: heard, and the next query fails.
    client.on('error', () => {})
  } catch (err) {
    await pool.end()
    throw err
  }
  return {
    async nonEmptyTable () {
      for (const table of ['api_keys', 'gifs']) {
        const n = (await client.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM ${table}`)).rows[0]!.n
        if (n > 0) return table
      }
      return undefined
    },
    async begin () { await client.query('BEGIN') },
    async insert (table, rows) {
      const columns = INSTALL_TABLES[table]
      for (let i = 0; i < rows.length; i += BATCH) {
        const params: unknown[] = []
        const tuples = rows.slice(i, i + BATCH).map((row) => `(${row.map((v) => { params.push(v); return `$${params.length}` }).join(', ')})`)
        await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, params)
      }
    },
    async putGifContent (hash, bytes) {
      await client.query('INSERT INTO gif_contents (hash, content) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING', [hash, Buffer.from(bytes)])
    },
    async commit () {
      await client.query('SELECT setval(pg_get_serial_sequence(\'api_keys\', \'id\'), COALESCE((SELECT MAX(id) FROM api_keys), 0) + 1, false)')
      await client.query('SELECT setval(pg_get_serial_sequence(\'gifs\', \'id\'), COALESCE((SELECT MAX(id) FROM gifs), 0) + 1, false)')
      await client.query('SELECT setval(pg_get_serial_sequence(\'gif_reports\', \'id\'), COALESCE((SELECT MAX(id) FROM gif_reports), 0) + 1, false)')
      await client.query('SELECT setval(pg_get_serial_sequence(\'operator_tokens\', \'id\'), COALESCE((SELECT MAX(id) FROM operator_tokens), 0) + 1, false)')
      await client.query('SELECT setval(pg_get_serial_sequence(\'audit_log\', \'id\'), COALESCE((SELECT MAX(id) FROM audit_log), 0) + 1, false)')
      await client.query('COMMIT')
    },
    async rollback () { await client.query('ROLLBACK').catch(() => {}) },
    async close () {
      client.release()
      await pool.end()
    }
  }
}
