// The default store: one embedded SQLite file under DATA_DIR.
import path from 'node:path'
import { DEFAULT_GIF_CACHE_TTL_MS, withGifCache } from '../cached-gifs.js'
import { DEFAULT_KEY_CACHE_TTL_MS, withKeyCache } from '../cached-keys.js'
import type { Store } from '../interface.js'
import { createLocalGifFileStore } from '../local-gif-files.js'
import { checkBeforeOpen, type DatabaseFileState, openFailure, watchDatabaseFile } from './database-file.js'
import { openSqliteDatabase, SQLITE_FILE, type SqliteDatabase } from './database.js'
import { createSqliteAdminStore } from './admin.js'
import { createSqliteGifStore } from './gifs.js'
import { createSqliteKeyStore } from './keys.js'
import { createSqliteLinkStore } from './links.js'
import { createSqliteUsageStore } from './usage.js'

export interface SqliteStoreOptions {
  keyCacheTtlMs?: number
  gifCacheTtlMs?: number
  /** Start with a new, empty database where an earlier install lost its own (ALLOW_EMPTY_DATABASE). */
  allowEmptyDatabase?: boolean
  /** Called once when the database file is found deleted or replaced while open. */
  onDatabaseProblem?: (state: DatabaseFileState) => void
}

/**
 * Opens DATA_DIR's database; a start that would lose or damage data, or cannot write
 * there, throws DatabaseStartError (src/store/sqlite/database-file.ts) before creating anything.
 */
export function openSqliteStore (dataDir: string, options: SqliteStoreOptions = {}): Store {
  const file = path.join(dataDir, SQLITE_FILE)
  checkBeforeOpen(dataDir, file, { allowEmpty: options.allowEmptyDatabase ?? false })
  let db: SqliteDatabase
  try {
    db = openSqliteDatabase(dataDir)
  } catch (err) {
    throw openFailure(err, dataDir, file)
  }
  const watch = watchDatabaseFile(file, options.onDatabaseProblem ?? (() => {}))
  const ping = db.prepare('SELECT 1')
  const writable = (): void => watch.assertWritable()
  return {
    kind: 'sqlite',
    keys: withKeyCache(guardWrites(createSqliteKeyStore(db), ['create', 'setStatus', 'setLimits', 'rename', 'rollLinkSeed', 'update', 'roll', 'refill'], writable), options.keyCacheTtlMs ?? DEFAULT_KEY_CACHE_TTL_MS),
    usage: guardWrites(createSqliteUsageStore(db), ['add'], writable),
    gifs: withGifCache(guardWrites(createSqliteGifStore(db), ['add', 'remove', 'removeMany', 'hide', 'unhide', 'setAttribution', 'report', 'dismissReport'], writable), options.gifCacheTtlMs ?? DEFAULT_GIF_CACHE_TTL_MS),
    links: guardWrites(createSqliteLinkStore(db), ['save'], writable),
    admin: guardWrites(createSqliteAdminStore(db), ['createToken', 'revokeToken', 'touchToken', 'appendAudit', 'claimIdempotency', 'completeIdempotency', 'releaseIdempotency', 'forgetAnswers'], writable),
    gifFiles: createLocalGifFileStore(dataDir),
    async ping () { ping.get() },
    database: () => watch.check(),
    async close () {
      watch.stop()
      if (db.open) db.close()
    }
  }
}

/**
 * The same store whose writing methods first check that the open file is still the
 * database: a write after it was deleted or replaced is refused (DatabaseFileGoneError,
 * 503) rather than written to a file nobody will read again.
 */
function guardWrites<T extends object> (store: T, methods: Array<keyof T & string>, writable: () => void): T {
  const guarded = { ...store }
  for (const name of methods) {
    const write = store[name] as (...args: unknown[]) => Promise<unknown>
    ;(guarded as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      writable()
      return await write.apply(store, args)
    }
  }
  return guarded
}
