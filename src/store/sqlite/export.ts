// Reading a SQLite install as plain rows, for moving it to another store
// (src/cli/copy-to-postgres.ts).
import { INSTALL_TABLES, type InstallTable } from '../rows.js'
import { openSqliteDatabase } from './database.js'

export interface SqliteExport {
  /** The rows of a table, columns in the order of INSTALL_TABLES. */
  rows (table: InstallTable): unknown[][]
  /** Every content hash the gif catalog refers to. */
  gifHashes (): string[]
  close (): void
}

export function openSqliteExport (dataDir: string): SqliteExport {
  const db = openSqliteDatabase(dataDir)
  return {
    rows: (table) => db.prepare(`SELECT ${INSTALL_TABLES[table].join(', ')} FROM ${table}`).raw().all() as unknown[][],
    gifHashes: () => db.prepare('SELECT DISTINCT hash FROM gifs WHERE hash IS NOT NULL').pluck().all() as string[],
    close: () => db.close()
  }
}
