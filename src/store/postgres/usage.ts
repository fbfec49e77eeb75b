import type pg from 'pg'
import type { UsageStore } from '../interface.js'
import { usageFromRow, type UsageRow } from '../rows.js'

export function createPostgresUsageStore (pool: pg.Pool): UsageStore {
  return {
    async add (entries) {
      if (entries.length === 0) return
      // One statement for the whole batch: arrays unnested into rows, summed on conflict.
      await pool.query(`INSERT INTO key_usage (key_id, day, endpoint_group, requests, units)
        SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::bigint[])
        ON CONFLICT (key_id, day, endpoint_group) DO UPDATE
          SET requests = key_usage.requests + excluded.requests, units = key_usage.units + excluded.units`,
      [entries.map((e) => e.keyId), entries.map((e) => e.day), entries.map((e) => e.group), entries.map((e) => e.requests), entries.map((e) => e.units)])
    },
    async unitsSince (keyId, day) {
      return (await pool.query<{ n: number }>('SELECT COALESCE(SUM(units), 0)::bigint AS n FROM key_usage WHERE key_id = $1 AND day >= $2', [keyId, day])).rows[0]!.n
    },
    async list ({ keyId, sinceDay = '0000-00-00' }) {
      const { rows } = keyId === undefined
        ? await pool.query<UsageRow>('SELECT * FROM key_usage WHERE day >= $1 ORDER BY key_id, day, endpoint_group', [sinceDay])
        : await pool.query<UsageRow>('SELECT * FROM key_usage WHERE key_id = $1 AND day >= $2 ORDER BY day, endpoint_group', [keyId, sinceDay])
      return rows.map(usageFromRow)
    }
  }
}
