// Chooses the store backend from the configuration.
import type { Config } from '../config.js'
import type { Store } from './interface.js'
import { openSqliteStore } from './sqlite/index.js'

export type { Store } from './interface.js'

export async function openStore (config: Config): Promise<Store> {
  return openSqliteStore(config.dataDir)
}
