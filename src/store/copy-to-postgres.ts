// Moving an install from SQLite to PostgreSQL: copies keys (with their hashes, limits
// and ids), usage, the gif catalog (same ids, so gif ids clients have seen stay valid)
// and the gif files' bytes, in one PostgreSQL transaction: an interrupted copy leaves
// the target as it was. The target must be empty.
import fs from 'node:fs'
import type pg from 'pg'
import { gifDirOf, gifPath } from '../gifs/files.js'
import { openPostgresPool } from './postgres/database.js'
import { openSqliteDatabase } from './sqlite/database.js'

export interface CopyReport { keys: number, usageRows: number, gifs: number, files: number, missingFiles: string[] }

export class CopyError extends Error {}

const TABLES = ['api_keys', 'key_usage', 'gifs', 'gif_categories'] as const
const COLUMNS: Record<typeof TABLES[number], string[]> = {
  api_keys: ['id', 'name', 'prefix', 'hash', 'status', 'source', 'rate_max', 'rate_window_ms', 'quota_max', 'quota_period', 'created_at', 'updated_at'],
  key_usage: ['key_id', 'day', 'endpoint_group', 'requests', 'units'],
  gifs: ['id', 'category', 'seq', 'hash', 'url', 'size', 'width', 'height', 'frames', 'content_type', 'added_at'],
  gif_categories: ['category', 'count', 'version']
}
const BATCH = 500

export async function copySqliteToPostgres (dataDir: string, databaseUrl: string, progress: (text: string) => void): Promise<CopyReport> {
  const sqlite = openSqliteDatabase(dataDir)
  const pool = await openPostgresPool(databaseUrl)
  const client = await pool.connect()
  const report: CopyReport = { keys: 0, usageRows: 0, gifs: 0, files: 0, missingFiles: [] }
  try {
    for (const table of ['api_keys', 'gifs']) {
      const n = (await client.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM ${table}`)).rows[0]!.n
      if (n > 0) throw new CopyError(`The target database already has rows in ${table}: copy into an empty database (or schema)`)
    }
    await client.query('BEGIN')
    for (const table of TABLES) {
      const columns = COLUMNS[table]
      const rows = sqlite.prepare(`SELECT ${columns.join(', ')} FROM ${table}`).raw().all() as unknown[][]
      for (let i = 0; i < rows.length; i += BATCH) {
        await insertRows(client, table, columns, rows.slice(i, i + BATCH))
      }
      progress(`${table}: ${rows.length} rows`)
      if (table === 'api_keys') report.keys = rows.length
      if (table === 'key_usage') report.usageRows = rows.length
      if (table === 'gifs') report.gifs = rows.length
    }
    // Ids continue after the copied ones.
    await client.query(`SELECT setval(pg_get_serial_sequence('api_keys', 'id'), COALESCE((SELECT MAX(id) FROM api_keys), 0) + 1, false)`)
    await client.query(`SELECT setval(pg_get_serial_sequence('gifs', 'id'), COALESCE((SELECT MAX(id) FROM gifs), 0) + 1, false)`)

    const hashes = sqlite.prepare('SELECT DISTINCT hash FROM gifs WHERE hash IS NOT NULL').pluck().all() as string[]
    const dir = gifDirOf(dataDir)
    for (const [i, hash] of hashes.entries()) {
      let bytes: Buffer
      try {
        bytes = await fs.promises.readFile(gifPath(dir, hash))
      } catch {
        report.missingFiles.push(hash)
        continue
      }
      await client.query('INSERT INTO gif_contents (hash, content) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING', [hash, bytes])
      report.files++
      if ((i + 1) % 100 === 0 || i + 1 === hashes.length) progress(`gif files: ${i + 1}/${hashes.length}`)
    }
    if (report.missingFiles.length > 0) {
      throw new CopyError(`${report.missingFiles.length} gif files of the catalog are missing from ${dir} (first: ${report.missingFiles[0]}.gif): restore them or remove those gifs ("gifs remove"), then copy again`)
    }
    await client.query('COMMIT')
    return report
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {})
    throw err
  } finally {
    client.release()
    await pool.end()
    sqlite.close()
  }
}

async function insertRows (client: pg.PoolClient, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  if (rows.length === 0) return
  const params: unknown[] = []
  const tuples = rows.map((row) => `(${row.map((v) => { params.push(v); return `$${params.length}` }).join(', ')})`)
  await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, params)
}
