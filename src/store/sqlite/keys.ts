import { type KeyStore, type NewApiKey, StoreConflictError } from '../interface.js'
import { newLinkId, newLinkSeed } from '../link-ids.js'
import { keyFilterSql, keyFromRow as toRecord, keyPatchSets, type KeyRow, type KeySql, newKeyColumns, refillSql } from '../rows.js'
import type { SqliteDatabase } from './database.js'

/** Placeholders in order, and SQLite's names for what differs. */
function sqliteSql (): KeySql & { params: unknown[] } {
  const params: unknown[] = []
  return {
    params,
    param: (value) => { params.push(value); return '?' },
    greatest: (a, b) => `MAX(${a}, ${b})`,
    contains: (haystack, needle) => `instr(${haystack}, ${needle}) > 0`
  }
}

function conflict (err: unknown, name: string): unknown {
  const code = (err as { code?: string }).code
  if (code !== 'SQLITE_CONSTRAINT_UNIQUE') return err
  const field = String((err as Error).message).includes('api_keys.name') ? 'name' : 'hash'
  return new StoreConflictError(field, field === 'name' ? `A key named "${name}" already exists` : 'This key already exists')
}

export function createSqliteKeyStore (db: SqliteDatabase): KeyStore {
  const byId = db.prepare<[number], KeyRow>('SELECT * FROM api_keys WHERE id = ?')
  const byHash = db.prepare<[string, string], KeyRow>('SELECT * FROM api_keys WHERE hash = ? OR previous_hash = ?')
  const byName = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE name = ?')
  const byLinkId = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE link_id = ?')
  const updateSeed = db.prepare('UPDATE api_keys SET link_seed = ?, updated_at = ? WHERE id = ?')
  backfillLinkIds(db)
  const updateStatus = db.prepare('UPDATE api_keys SET status = ?, updated_at = ? WHERE name = ?')
  const updateName = db.prepare('UPDATE api_keys SET name = ?, updated_at = ? WHERE name = ?')
  const count = db.prepare('SELECT COUNT(*) FROM api_keys').pluck()
  const updateLimits = db.prepare('UPDATE api_keys SET rate_max = ?, rate_window_ms = ?, quota_max = ?, quota_period = ?, updated_at = ? WHERE name = ?')
  const roll = db.prepare('UPDATE api_keys SET previous_hash = hash, previous_valid_until = ?, hash = ?, prefix = ?, updated_at = ? WHERE id = ?')
  const expiring = db.prepare<[number, number], KeyRow>('SELECT * FROM api_keys WHERE status = \'active\' AND expires_at >= ? AND expires_at < ? ORDER BY expires_at, id')

  return {
    async create (key: NewApiKey) {
      const now = Date.now()
      const l = key.limits ?? {}
      const columns: Array<[string, unknown]> = [
        ['name', key.name], ['prefix', key.prefix], ['hash', key.hash], ['status', 'active'], ['source', key.source],
        ['rate_max', l.rateMax ?? null], ['rate_window_ms', l.rateWindowMs ?? null], ['quota_max', l.quotaMax ?? null], ['quota_period', l.quotaPeriod ?? null],
        ['link_id', key.linkId ?? newLinkId()], ['link_seed', key.linkSeed ?? newLinkSeed()], ['created_at', now], ['updated_at', now],
        ...newKeyColumns(key)
      ]
      try {
        const result = db.prepare(`INSERT INTO api_keys (${columns.map(([c]) => c).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...columns.map(([, v]) => v))
        return toRecord(byId.get(Number(result.lastInsertRowid))!)
      } catch (err) {
        throw conflict(err, key.name)
      }
    },
    async findByHash (hash) {
      const row = byHash.get(hash, hash)
      return row ? toRecord(row) : undefined
    },
    async findById (id) {
      const row = byId.get(id)
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
    async list (filter = {}) {
      const sql = sqliteSql()
      const clauses = keyFilterSql(filter, sql)
      return db.prepare<unknown[], KeyRow>(`SELECT * FROM api_keys ${clauses}`).all(...sql.params).map(toRecord)
    },
    async update (id, patch) {
      const sql = sqliteSql()
      const sets = keyPatchSets(patch, sql)
      sets.push(`updated_at = ${sql.param(Date.now())}`)
      try {
        if (db.prepare(`UPDATE api_keys SET ${sets.join(', ')} WHERE id = ${sql.param(id)}`).run(...sql.params).changes === 0) return undefined
      } catch (err) {
        throw conflict(err, patch.name ?? '')
      }
      return toRecord(byId.get(id)!)
    },
    async roll (id, next) {
      try {
        if (roll.run(next.previousValidUntil.getTime(), next.hash, next.prefix, Date.now(), id).changes === 0) return undefined
      } catch (err) {
        throw conflict(err, '')
      }
      return toRecord(byId.get(id)!)
    },
    async refill (id, period) {
      const sql = sqliteSql()
      if (db.prepare(refillSql(id, period, Date.now(), sql)).run(...sql.params).changes === 0) return undefined
      return toRecord(byId.get(id)!)
    },
    async expiringBetween (fromMs, toMs) {
      return expiring.all(fromMs, toMs).map(toRecord)
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
