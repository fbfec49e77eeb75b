import type pg from 'pg'
import { type ApiKeyRecord, type KeyLimits, type KeyStore, StoreConflictError } from '../interface.js'
import { newLinkId, newLinkSeed } from '../link-ids.js'
import { keyFromRow as toRecord, type KeyRow } from '../rows.js'

export function createPostgresKeyStore (pool: pg.Pool): KeyStore {
  const one = async (sql: string, params: unknown[]): Promise<ApiKeyRecord | undefined> => {
    const { rows } = await pool.query<KeyRow>(sql, params)
    return rows[0] ? toRecord(rows[0]) : undefined
  }
  return {
    async create (key) {
      const now = Date.now()
      const l = key.limits ?? {}
      try {
        return (await one(`INSERT INTO api_keys (name, prefix, hash, status, source, rate_max, rate_window_ms, quota_max, quota_period, created_at, updated_at, link_id, link_seed)
          VALUES ($1, $2, $3, 'active', $4, $5, $6, $7, $8, $9, $9, $10, $11) RETURNING *`,
        [key.name, key.prefix, key.hash, key.source, l.rateMax ?? null, l.rateWindowMs ?? null, l.quotaMax ?? null, l.quotaPeriod ?? null, now, key.linkId ?? newLinkId(), key.linkSeed ?? newLinkSeed()]))!
      } catch (err) {
        const e = err as { code?: string, constraint?: string }
        if (e.code === '23505') {
          const field = e.constraint?.includes('name') ? 'name' : 'hash'
          throw new StoreConflictError(field, field === 'name' ? `A key named "${key.name}" already exists` : 'This key already exists')
        }
        throw err
      }
    },
    findByHash: (hash) => one('SELECT * FROM api_keys WHERE hash = $1', [hash]),
    findByName: (name) => one('SELECT * FROM api_keys WHERE name = $1', [name]),
    findByLinkId: (linkId) => one('SELECT * FROM api_keys WHERE link_id = $1', [linkId]),
    rollLinkSeed: (id) => one('UPDATE api_keys SET link_seed = $1, updated_at = $2 WHERE id = $3 RETURNING *', [newLinkSeed(), Date.now(), id]),
    async list () {
      return (await pool.query<KeyRow>('SELECT * FROM api_keys ORDER BY id')).rows.map(toRecord)
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
