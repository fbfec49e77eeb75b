// The default store: one embedded SQLite file under DATA_DIR.
import { DEFAULT_GIF_CACHE_TTL_MS, withGifCache } from '../cached-gifs.js'
import { DEFAULT_KEY_CACHE_TTL_MS, withKeyCache } from '../cached-keys.js'
import type { Store } from '../interface.js'
import { createLocalGifFileStore } from '../local-gif-files.js'
import { openSqliteDatabase } from './database.js'
import { createSqliteGifStore } from './gifs.js'
import { createSqliteKeyStore } from './keys.js'
import { createSqliteUsageStore } from './usage.js'

export function openSqliteStore (dataDir: string, options: { keyCacheTtlMs?: number, gifCacheTtlMs?: number } = {}): Store {
  const db = openSqliteDatabase(dataDir)
  const ping = db.prepare('SELECT 1')
  return {
    kind: 'sqlite',
    keys: withKeyCache(createSqliteKeyStore(db), options.keyCacheTtlMs ?? DEFAULT_KEY_CACHE_TTL_MS),
    usage: createSqliteUsageStore(db),
    gifs: withGifCache(createSqliteGifStore(db), options.gifCacheTtlMs ?? DEFAULT_GIF_CACHE_TTL_MS),
    gifFiles: createLocalGifFileStore(dataDir),
    async ping () { ping.get() },
    async close () { if (db.open) db.close() }
  }
}
