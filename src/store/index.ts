// Chooses the store backend from the configuration: PostgreSQL when DATABASE_URL is
// set (scale-out mode), else the embedded SQLite file under DATA_DIR. Each opens the
// gif catalog and, beside it, where the gifs' bytes live (src/store/gif-files.ts).
import type { Config } from '../config.js'
import type { DatabaseState, Store } from './interface.js'
import { openSqliteStore } from './sqlite/index.js'

export type { DatabaseState, Store } from './interface.js'
export type { GifFileStore } from './gif-files.js'

export async function openStore (config: Config, hooks: { onDatabaseProblem?: (state: DatabaseState) => void } = {}): Promise<Store> {
  const options = { keyCacheTtlMs: config.keyCacheTtlMs, gifCacheTtlMs: config.gifCacheTtlMs }
  if (!config.databaseUrl) return openSqliteStore(config.dataDir, { ...options, allowEmptyDatabase: config.allowEmptyDatabase, onDatabaseProblem: hooks.onDatabaseProblem })
  // Loaded only in scale-out mode: the PostgreSQL client is memory a SQLite install never uses.
  const { openPostgresStore } = await import('./postgres/index.js')
  return openPostgresStore(config.databaseUrl, { ...options, dataDir: config.dataDir })
}
