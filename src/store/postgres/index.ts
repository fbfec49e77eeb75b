// The scale-out store: PostgreSQL, shared by every instance (DATABASE_URL).
// What happens when PostgreSQL fails is decided here, in one place (docs/operations-faults.md, "When PostgreSQL fails"):
//   - every call has a deadline (the pool's options, database.ts) and passes the guard
//     (guard.ts: a bound on calls waiting for a connection, fail-fast after a connection
//     failure); not answering is StoreUnavailableError, which the API answers 503
//     STORE_UNAVAILABLE with Retry-After;
//   - keys and gif picks already held in memory keep answering for a bounded time past
//     their TTL (cached-keys.ts KEY_STALE_MS, cached-gifs.ts GIF_STALE_MS);
//   - a gif file this instance holds a copy of is served without the catalog
//     (withLocalFileFallback below); only a file it lacks needs the store.
import { DEFAULT_GIF_CACHE_TTL_MS, withGifCache } from '../cached-gifs.js'
import { DEFAULT_KEY_CACHE_TTL_MS, withKeyCache } from '../cached-keys.js'
import { DatabaseStartError, type GifCatalogStore, isStoreUnavailable, type Store, StoreUnavailableError } from '../interface.js'
import { createLocalGifFileStore, type LocalGifFileStore } from '../local-gif-files.js'
import { openPostgresPool, POOL_SIZE, type PostgresOptions } from './database.js'
import { createPostgresAdminStore } from './admin.js'
import { createPostgresGifFileStore } from './gif-files.js'
import { createPostgresGifStore } from './gifs.js'
import { classifyFailure, createStoreGuard, type StoreGuardOptions, STORE_RETRY_AFTER_S } from './guard.js'
import { backfillLinkIds, createPostgresKeyStore } from './keys.js'
import { createPostgresLinkStore } from './links.js'
import { createPostgresUsageStore } from './usage.js'

export interface PostgresStoreOptions extends PostgresOptions {
  /** This instance's DATA_DIR: its copies of the gifs live in DATA_DIR/gifs. */
  dataDir: string
  keyCacheTtlMs?: number
  gifCacheTtlMs?: number
  /** Overrides KEY_STALE_MS and GIF_STALE_MS (tests). */
  staleMs?: number
  /** The guard's bulkhead and open period (tests). */
  guard?: StoreGuardOptions
}

/**
 * The catalog's look-up by hash, which the file route makes for every gif file: while
 * the store is unavailable, a file this instance holds answers from its copy (the name
 * is the content's SHA-256, so the copy is that gif). Its Last-Modified is then the
 * copy's time rather than the catalog's; the ETag (the hash) is the same. A gif removed
 * elsewhere during the outage stays served from the copies until the store answers.
 */
export function withLocalFileFallback (catalog: GifCatalogStore, local: Pick<LocalGifFileStore, 'describe'>): GifCatalogStore {
  return {
    ...catalog,
    async findByHash (hash) {
      try {
        return await catalog.findByHash(hash)
      } catch (err) {
        if (!isStoreUnavailable(err)) throw err
        const copy = await local.describe(hash).catch(() => undefined)
        if (copy === undefined) throw err
        return { id: 0, category: '', hash, url: null, size: copy.size, width: 0, height: 0, frames: 0, contentType: 'image/gif', addedAt: copy.modifiedAt, hidden: false }
      }
    }
  }
}

/** Exit code of a start whose DATABASE_URL is refused by the server (sysexits.h EX_CONFIG, as every setting). */
const EXIT_CONFIG = 78
// SQLSTATE classes of a server that answers but refuses this DATABASE_URL: 28 invalid
// authorization (user, password), 3D invalid catalog name (no such database).
const REFUSED_SETTING_CLASSES = ['28', '3D']

/**
 * "127.0.0.1:5432", "db.internal:6432", "/var/run/postgresql": where DATABASE_URL points,
 * for messages; never the URL itself, which may hold a password.
 */
export function postgresAddress (url: string): string {
  try {
    const u = new URL(url)
    const socket = u.searchParams.get('host')
    if (u.hostname === '' && socket) return socket
    return `${u.hostname || 'localhost'}:${u.port || '5432'}`
  } catch {
    return 'DATABASE_URL'
  }
}

export async function openPostgresStore (url: string, options: PostgresStoreOptions): Promise<Store> {
  let pool
  try {
    pool = await openPostgresPool(url, options)
  } catch (err) {
    // One sentence naming the setting and the address; not the URL: it may carry a password.
    const where = `PostgreSQL at ${postgresAddress(url)} (DATABASE_URL)`
    const why = err instanceof Error ? err.message : String(err)
    if (classifyFailure(err) !== undefined) throw new StoreUnavailableError(`${where} cannot be reached (${why}): start it, or point DATABASE_URL at a server that answers.`, STORE_RETRY_AFTER_S, { cause: err })
    const code = (err as { code?: unknown }).code
    if (typeof code === 'string' && REFUSED_SETTING_CLASSES.some((c) => code.startsWith(c))) {
      throw new DatabaseStartError(`Invalid configuration: ${where} refused the connection (${why}): correct the user, password or database name in DATABASE_URL.`, EXIT_CONFIG)
    }
    throw err
  }
  const db = pool
  try {
    await backfillLinkIds(db)
  } catch (err) {
    await db.end()
    throw err
  }
  const guard = createStoreGuard({ connections: POOL_SIZE, ...options.guard })
  const local = createLocalGifFileStore(options.dataDir)
  const stale = options.staleMs === undefined ? {} : { staleMs: options.staleMs }
  let closed = false
  return {
    kind: 'postgres',
    keys: withKeyCache(guard.wrap(createPostgresKeyStore(db)), options.keyCacheTtlMs ?? DEFAULT_KEY_CACHE_TTL_MS, stale),
    usage: guard.wrap(createPostgresUsageStore(db)),
    links: guard.wrap(createPostgresLinkStore(db)),
    admin: guard.wrap(createPostgresAdminStore(db)),
    gifs: withLocalFileFallback(withGifCache(guard.wrap(createPostgresGifStore(db)), options.gifCacheTtlMs ?? DEFAULT_GIF_CACHE_TTL_MS, stale), local),
    gifFiles: createPostgresGifFileStore(db, options.dataDir, guard.run, local),
    async ping () { await guard.run(() => db.query('SELECT 1')) },
    async close () {
      if (closed) return
      closed = true
      await db.end()
    }
  }
}
