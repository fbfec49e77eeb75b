// Chooses the store backend from the configuration: PostgreSQL when DATABASE_URL is
// set (scale-out mode), else the embedded SQLite file under DATA_DIR.
import type { Config } from '../config.js'
import type { Store } from './interface.js'
import { openPostgresStore } from './postgres/index.js'
import { openSqliteStore } from './sqlite/index.js'

export type { Store } from './interface.js'

export async function openStore (config: Config): Promise<Store> {
  const options = { keyCacheTtlMs: config.keyCacheTtlMs, gifCacheTtlMs: config.gifCacheTtlMs }
  return config.databaseUrl ? openPostgresStore(config.databaseUrl, options) : openSqliteStore(config.dataDir, options)
}
