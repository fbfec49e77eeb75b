// Connecting to PostgreSQL (scale-out mode): a pool, numbers as numbers, and the
// migrations applied once under an advisory lock, so instances starting together
// cannot apply the same migration twice.
import pg from 'pg'
import { DatabaseMissingError } from '../interface.js'
import type { Migration } from '../sqlite/migrations.js'
import { postgresDatabase } from './address.js'
import { classifyFailure } from './guard.js'
import { POSTGRES_MIGRATIONS } from './migrations.js'

// BIGINT (int8) columns hold counts and epoch milliseconds: well within 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v))

const MIGRATION_LOCK = 0x756d61 // "uma"
/** Connections per instance: PostgreSQL's default max_connections (100) serves several instances and the CLI. */
export const POOL_SIZE = 10

// Deadlines of every call (issue 25: with PostgreSQL stalling, requests waited 5–30 s and
// filled MAX_CONNECTIONS). A request's own lookups take a few milliseconds; these bounds
// are far above that and far below REQUEST_TIMEOUT_MS, so a stalled server costs a
// request about two seconds, never its whole deadline. What happens then: guard.ts.
/** Waiting for a pool connection, including opening one (node-postgres `connectionTimeoutMillis`). */
export const CONNECT_TIMEOUT_MS = 2000
/** The server cancels a statement running longer, lock waits included (`statement_timeout`, SQLSTATE 57014). */
export const STATEMENT_TIMEOUT_MS = 2000
/**
 * The client gives up on an answer after this (`query_timeout`): covers a server or
 * network that stalls without a reply, where the server-side timeout cannot report.
 * Longer than STATEMENT_TIMEOUT_MS so that a slow statement is reported by the server.
 */
export const QUERY_TIMEOUT_MS = 3000
/** A transaction left idle (a client lost mid-transaction) is ended by the server after this, freeing its locks. */
export const IDLE_IN_TRANSACTION_TIMEOUT_MS = 5000
/** TCP keep-alive probes on idle connections start after this: a dead peer is noticed rather than trusted. */
export const KEEP_ALIVE_INITIAL_DELAY_MS = 10_000
/** Migrations (at start, under the advisory lock) and the CLI's copy into an empty database run longer statements. */
export const MAINTENANCE_STATEMENT_TIMEOUT_MS = 120_000

export interface PostgresOptions {
  /** A schema to work in (created if missing): tests isolate themselves this way. */
  schema?: string
  /** Overrides STATEMENT_TIMEOUT_MS and QUERY_TIMEOUT_MS (the CLI's long copy; tests). */
  statementTimeoutMs?: number
  queryTimeoutMs?: number
  connectTimeoutMs?: number
  /**
   * false: a database (or schema) the server never migrated is refused with
   * DatabaseMissingError before anything is created in it. Default true.
   */
  create?: boolean
}

export async function openPostgresPool (url: string, options: PostgresOptions = {}): Promise<pg.Pool> {
  const schema = options.schema
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name "${schema}"`)
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    statement_timeout: options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS,
    query_timeout: options.queryTimeoutMs ?? QUERY_TIMEOUT_MS,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEP_ALIVE_INITIAL_DELAY_MS,
    ...(schema ? { options: `-c search_path=${schema}` } : {})
  })
  // An idle client's error (a server restart, a reset connection) must not crash the
  // process: the pool drops that client and opens another on next use.
  pool.on('error', () => {})
  try {
    if (options.create === false) {
      // search_path names the schema, so an absent schema finds no table either.
      const { rows } = await pool.query<{ found: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS found")
      if (!rows[0]!.found) throw new DatabaseMissingError(`${postgresDatabase(url)}${schema ? ` (schema ${schema})` : ''}`)
    }
    if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
    await migrate(pool, POSTGRES_MIGRATIONS)
  } catch (err) {
    await pool.end().catch(() => {})
    throw err
  }
  return pool
}

/**
 * Runs `work` on one connection inside a transaction. While the client is checked out
 * it has an error listener (node-postgres emits a lost connection as an 'error' event,
 * which would otherwise crash the process), and a failed transaction's connection is
 * dropped rather than returned (after a read timeout its query may still be running):
 * the server rolls back a transaction whose connection closes.
 */
export async function inTransaction<T> (pool: pg.Pool, begin: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  const onError = (): void => {}
  client.on('error', onError)
  let failure: Error | undefined
  try {
    await client.query(begin)
    const result = await work(client)
    await client.query('COMMIT')
    return result
  } catch (err) {
    failure = err instanceof Error ? err : new Error(String(err))
    // Not on a connection that failed or timed out: a ROLLBACK would wait behind the
    // unanswered query for its own timeout; dropping the connection ends the transaction.
    if (classifyFailure(err) === undefined) await client.query('ROLLBACK').catch(() => {})
    throw err
  } finally {
    client.removeListener('error', onError)
    client.release(failure)
  }
}

/** A query given MAINTENANCE_STATEMENT_TIMEOUT_MS on the client side too (node-postgres reads `query_timeout` per query; its types omit it). */
export function maintenanceQuery (text: string, values?: unknown[]): pg.QueryConfig {
  const config = { text, values, query_timeout: MAINTENANCE_STATEMENT_TIMEOUT_MS }
  return config
}

export async function migrate (pool: pg.Pool, migrations: Migration[]): Promise<void> {
  await inTransaction(pool, 'BEGIN', async (client) => {
    // Applying a migration, or waiting for another instance's, may take longer than a request's statement.
    await client.query(`SET LOCAL statement_timeout = ${MAINTENANCE_STATEMENT_TIMEOUT_MS}`)
    await client.query(maintenanceQuery('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]))
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at BIGINT NOT NULL
    )`)
    const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version))
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(m.version)) continue
      await client.query(maintenanceQuery(m.sql))
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, Date.now()])
    }
  })
}
