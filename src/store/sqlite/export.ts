// Reading a SQLite install as plain rows, for moving it to another store
// (src/cli/copy-to-postgres.ts).
import fs from 'node:fs'
import path from 'node:path'
import { DatabaseMissingError } from '../interface.js'
import { INSTALL_TABLES, type InstallTable } from '../rows.js'
import { openSqliteDatabase, SQLITE_FILE } from './database.js'

export interface SqliteExport {
  /** The rows of a table, columns in the order of INSTALL_TABLES. */
  rows (table: InstallTable): unknown[][]
  /** Every content hash the gif catalog refers to. */
  gifHashes (): string[]
  close (): void
}

/** Opens an existing install; one that is not there is refused (DatabaseMissingError), nothing created. */
export function openSqliteExport (dataDir: string): SqliteExport {
  const file = path.join(dataDir, SQLITE_FILE)
  if (!(fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0)) throw new DatabaseMissingError(file)
  const db = openSqliteDatabase(dataDir)
  return {
    rows: (table) => db.prepare(`SELECT ${INSTALL_TABLES[table].join(', ')} FROM ${table}`).raw().all() as unknown[][],
    gifHashes: () => db.prepare('SELECT DISTINCT hash FROM gifs WHERE hash IS NOT NULL').pluck().all() as string[],
    close: () => db.close()
  }
}
