import { type KeyStore, type NewApiKey, StoreConflictError } from '../interface.js'
import { newLinkId, newLinkSeed } from '../link-ids.js'
import { keyFromRow as toRecord, type KeyRow } from '../rows.js'
import type { SqliteDatabase } from './database.js'

export function createSqliteKeyStore (db: SqliteDatabase): KeyStore {
  const insert = db.prepare(`INSERT INTO api_keys (name, prefix, hash, status, source, rate_max, rate_window_ms, quota_max, quota_period, link_id, link_seed, created_at, updated_at)
    VALUES (?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
  const byId = db.prepare<[number], KeyRow>('SELECT * FROM api_keys WHERE id = ?')
  const byHash = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE hash = ?')
  const byName = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE name = ?')
  const byLinkId = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE link_id = ?')
  const updateSeed = db.prepare('UPDATE api_keys SET link_seed = ?, updated_at = ? WHERE id = ?')
  backfillLinkIds(db)
  const all = db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY id')
  const updateStatus = db.prepare('UPDATE api_keys SET status = ?, updated_at = ? WHERE name = ?')
  const updateName = db.prepare('UPDATE api_keys SET name = ?, updated_at = ? WHERE name = ?')
  const count = db.prepare('SELECT COUNT(*) FROM api_keys').pluck()
  const updateLimits = db.prepare('UPDATE api_keys SET rate_max = ?, rate_window_ms = ?, quota_max = ?, quota_period = ?, updated_at = ? WHERE name = ?')

  return {
    async create (key: NewApiKey) {
      const now = Date.now()
      try {
        const l = key.limits ?? {}
        const result = insert.run(key.name, key.prefix, key.hash, key.source, l.rateMax ?? null, l.rateWindowMs ?? null, l.quotaMax ?? null, l.quotaPeriod ?? null, key.linkId ?? newLinkId(), key.linkSeed ?? newLinkSeed(), now, now)
        return toRecord(byId.get(Number(result.lastInsertRowid))!)
      } catch (err) {
        const code = (err as { code?: string }).code
        if (code === 'SQLITE_CONSTRAINT_UNIQUE') {
          const field = String((err as Error).message).includes('api_keys.name') ? 'name' : 'hash'
          throw new StoreConflictError(field, field === 'name' ? `A key named "${key.name}" already exists` : 'This key already exists')
        }
        throw err
      }
    },
    async findByHash (hash) {
      const row = byHash.get(hash)
      return row ? toRecord(row) : undefined
    },
    async findByName (name) {
      const row = byName.get(name)
      return row ? toRecord(row) : undefined
    },
    async findByLinkId (linkId) {
      const row = byLinkId.get(linkId)
      return row ? toRecord(row) : undefined
    },
    async rollLinkSeed (id) {
      if (updateSeed.run(newLinkSeed(), Date.now(), id).changes === 0) return undefined
      return toRecord(byId.get(id)!)
    },
    async list () {
      return all.all().map(toRecord)
    },
    async setStatus (name, status) {
      const result = updateStatus.run(status, Date.now(), name)
      if (result.changes === 0) return undefined
      return toRecord(byName.get(name)!)
    },
    async setLimits (name, limits) {
      const current = byName.get(name)
      if (!current) return undefined
      const merged = { ...toRecord(current).limits, ...limits }
      updateLimits.run(merged.rateMax, merged.rateWindowMs, merged.quotaMax, merged.quotaPeriod, Date.now(), name)
      return toRecord(byName.get(name)!)
    },
    async rename (name, newName) {
      try {
        if (updateName.run(newName, Date.now(), name).changes === 0) return undefined
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new StoreConflictError('name', `A key named "${newName}" already exists`)
        throw err
      }
      return toRecord(byName.get(newName)!)
    },
    async count () {
      return count.get() as number
    }
  }
}

/** Gives the keys made before migration 7 their link id and seed, once. */
function backfillLinkIds (db: SqliteDatabase): void {
  const missing = db.prepare('SELECT id FROM api_keys WHERE link_id IS NULL').pluck().all() as number[]
  if (missing.length === 0) return
  const set = db.prepare('UPDATE api_keys SET link_id = ?, link_seed = ? WHERE id = ? AND link_id IS NULL')
  db.transaction(() => { for (const id of missing) set.run(newLinkId(), newLinkSeed(), id) }).immediate()
}
