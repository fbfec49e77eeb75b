// The scale-out store: PostgreSQL, shared by every instance (DATABASE_URL).
import { DEFAULT_GIF_CACHE_TTL_MS, withGifCache } from '../cached-gifs.js'
import { DEFAULT_KEY_CACHE_TTL_MS, withKeyCache } from '../cached-keys.js'
import type { Store } from '../interface.js'
import { openPostgresPool, type PostgresOptions } from './database.js'
import { createPostgresGifFileStore } from './gif-files.js'
import { createPostgresGifStore } from './gifs.js'
import { createPostgresKeyStore } from './keys.js'
import { createPostgresUsageStore } from './usage.js'

export interface PostgresStoreOptions extends PostgresOptions {
  /** This instance's DATA_DIR: its copies of the gifs live in DATA_DIR/gifs. */
  dataDir: string
  keyCacheTtlMs?: number
  gifCacheTtlMs?: number
}

export async function openPostgresStore (url: string, options: PostgresStoreOptions): Promise<Store> {
  const pool = await openPostgresPool(url, options)
  let closed = false
  return {
    kind: 'postgres',
    keys: withKeyCache(createPostgresKeyStore(pool), options.keyCacheTtlMs ?? DEFAULT_KEY_CACHE_TTL_MS),
    usage: createPostgresUsageStore(pool),
    gifs: withGifCache(createPostgresGifStore(pool), options.gifCacheTtlMs ?? DEFAULT_GIF_CACHE_TTL_MS),
    gifFiles: createPostgresGifFileStore(pool, options.dataDir),
    async ping () { await pool.query('SELECT 1') },
    async close () {
      if (closed) return
      closed = true
      await pool.end()
    }
  }
}
