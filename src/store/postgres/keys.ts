import type pg from 'pg'
import { type ApiKeyRecord, type KeyLimits, type KeyStore, StoreConflictError } from '../interface.js'
import { newLinkId, newLinkSeed } from '../link-ids.js'
import { keyFilterSql, keyFromRow as toRecord, keyPatchSets, type KeyRow, type KeySql, newKeyColumns, refillSql } from '../rows.js'

/** Numbered placeholders, and PostgreSQL's names for what differs. */
function postgresSql (): KeySql & { params: unknown[] } {
  const params: unknown[] = []
  return {
    params,
    param: (value) => { params.push(value); return `$${params.length}` },
    greatest: (a, b) => `GREATEST(${a}, ${b})`,
    contains: (haystack, needle) => `strpos(${haystack}, ${needle}) > 0`
  }
}

function conflict (err: unknown, name: string): unknown {
  const e = err as { code?: string, constraint?: string }
  if (e.code !== '23505') return err
  const field = e.constraint?.includes('name') ? 'name' : 'hash'
  return new StoreConflictError(field, field === 'name' ? `A key named "${name}" already exists` : 'This key already exists')
}

export function createPostgresKeyStore (pool: pg.Pool): KeyStore {
  const one = async (sql: string, params: unknown[]): Promise<ApiKeyRecord | undefined> => {
    const { rows } = await pool.query<KeyRow>(sql, params)
    return rows[0] ? toRecord(rows[0]) : undefined
  }
  return {
    async create (key) {
      const now = Date.now()
      const l = key.limits ?? {}
      const columns: Array<[string, unknown]> = [
        ['name', key.name], ['prefix', key.prefix], ['hash', key.hash], ['status', 'active'], ['source', key.source],
        ['rate_max', l.rateMax ?? null], ['rate_window_ms', l.rateWindowMs ?? null], ['quota_max', l.quotaMax ?? null], ['quota_period', l.quotaPeriod ?? null],
        ['link_id', key.linkId ?? newLinkId()], ['link_seed', key.linkSeed ?? newLinkSeed()], ['created_at', now], ['updated_at', now],
        ...newKeyColumns(key)
      ]
      try {
        return (await one(`INSERT INTO api_keys (${columns.map(([c]) => c).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
          columns.map(([, v]) => v)))!
      } catch (err) {
        throw conflict(err, key.name)
      }
    },
    findByHash: (hash) => one('SELECT * FROM api_keys WHERE hash = $1 OR previous_hash = $1', [hash]),
    findById: (id) => one('SELECT * FROM api_keys WHERE id = $1', [id]),
    findByName: (name) => one('SELECT * FROM api_keys WHERE name = $1', [name]),
    findByLinkId: (linkId) => one('SELECT * FROM api_keys WHERE link_id = $1', [linkId]),
    rollLinkSeed: (id) => one('UPDATE api_keys SET link_seed = $1, updated_at = $2 WHERE id = $3 RETURNING *', [newLinkSeed(), Date.now(), id]),
    async list (filter = {}) {
      const sql = postgresSql()
      const clauses = keyFilterSql(filter, sql)
      return (await pool.query<KeyRow>(`SELECT * FROM api_keys ${clauses}`, sql.params)).rows.map(toRecord)
    },
    async update (id, patch) {
      const sql = postgresSql()
      const sets = keyPatchSets(patch, sql)
      sets.push(`updated_at = ${sql.param(Date.now())}`)
      try {
        return await one(`UPDATE api_keys SET ${sets.join(', ')} WHERE id = ${sql.param(id)} RETURNING *`, sql.params)
      } catch (err) {
        throw conflict(err, patch.name ?? '')
      }
    },
    async roll (id, next) {
      try {
        return await one('UPDATE api_keys SET previous_hash = hash, previous_valid_until = $1, hash = $2, prefix = $3, updated_at = $4 WHERE id = $5 RETURNING *',
          [next.previousValidUntil.getTime(), next.hash, next.prefix, Date.now(), id])
      } catch (err) {
        throw conflict(err, '')
      }
    },
    async refill (id, period) {
      const sql = postgresSql()
      return one(`${refillSql(id, period, Date.now(), sql)} RETURNING *`, sql.params)
    },
    async expiringBetween (fromMs, toMs) {
      return (await pool.query<KeyRow>('SELECT * FROM api_keys WHERE status = \'active\' AND expires_at >= $1 AND expires_at < $2 ORDER BY expires_at, id', [fromMs, toMs])).rows.map(toRecord)
    },
    async rename (name, newName) {
      try {
        return await one('UPDATE api_keys SET name = $1, updated_at = $2 WHERE name = $3 RETURNING *', [newName, Date.now(), name])
      } catch (err) {
        if ((err as { code?: string }).code === '23505') throw new StoreConflictError('name', `A key named "${newName}" already exists`)
        throw err
      }
    },
    setStatus: (name, status) => one('UPDATE api_keys SET status = $1, updated_at = $2 WHERE name = $3 RETURNING *', [status, Date.now(), name]),
    async setLimits (name, limits) {
      const sets: string[] = []
      const params: unknown[] = []
      const columns: Record<keyof KeyLimits, string> = { rateMax: 'rate_max', rateWindowMs: 'rate_window_ms', quotaMax: 'quota_max', quotaPeriod: 'quota_period' }
      for (const [field, column] of Object.entries(columns) as Array<[keyof KeyLimits, string]>) {
        if (field in limits) {
          params.push(limits[field])
          sets.push(`${column} = $${params.length}`)
        }
      }
      params.push(Date.now())
      sets.push(`updated_at = $${params.length}`)
      params.push(name)
      return one(`UPDATE api_keys SET ${sets.join(', ')} WHERE name = $${params.length} RETURNING *`, params)
    },
    async count () {
      return (await pool.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM api_keys')).rows[0]!.n
    }
  }
}

/** Gives the keys made before migration 7 their link id and seed, once (at open; instances starting together skip rows another already gave one). */
export async function backfillLinkIds (pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ id: number }>('SELECT id FROM api_keys WHERE link_id IS NULL')
  for (const { id } of rows) {
    await pool.query('UPDATE api_keys SET link_id = $1, link_seed = $2 WHERE id = $3 AND link_id IS NULL', [newLinkId(), newLinkSeed(), id])
  }
}
