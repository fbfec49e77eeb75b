// Chooses the store backend from the configuration: PostgreSQL when DATABASE_URL is
// set (scale-out mode), else the embedded SQLite file under DATA_DIR. Each opens the
// gif catalog and, beside it, where the gifs' bytes live (src/store/gif-files.ts).
import path from 'node:path'
import type { Config } from '../config.js'
import type { DatabaseState, Store } from './interface.js'
import { postgresDatabase } from './postgres/address.js'
import { SQLITE_FILE } from './sqlite/database.js'
import { openSqliteStore } from './sqlite/index.js'

export type { DatabaseState, Store } from './interface.js'
export type { GifFileStore } from './gif-files.js'

export interface OpenStoreOptions {
  onDatabaseProblem?: (state: DatabaseState) => void
  /**
   * false: a database that does not exist yet is refused (DatabaseMissingError, exit 66)
   * and nothing is created: the command line's default. The server creates it (true).
   */
  create?: boolean
}

/** Which store the configuration names, for a line an operator reads: never a password. */
export function describeStore (config: Pick<Config, 'dataDir' | 'databaseUrl'>): string {
  return config.databaseUrl ? postgresDatabase(config.databaseUrl) : `SQLite ${path.join(config.dataDir, SQLITE_FILE)}`
}

export async function openStore (config: Config, hooks: OpenStoreOptions = {}): Promise<Store> {
  const options = { keyCacheTtlMs: config.keyCacheTtlMs, gifCacheTtlMs: config.gifCacheTtlMs, create: hooks.create }
  if (!config.databaseUrl) return openSqliteStore(config.dataDir, { ...options, allowEmptyDatabase: config.allowEmptyDatabase, onDatabaseProblem: hooks.onDatabaseProblem })
  // Loaded only in scale-out mode: the PostgreSQL client is memory a SQLite install never uses.
  const { openPostgresStore } = await import('./postgres/index.js')
  return openPostgresStore(config.databaseUrl, { ...options, dataDir: config.dataDir })
}
