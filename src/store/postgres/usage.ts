import type pg from 'pg'
import { FIRST_DAY, LAST_DAY, USAGE_BATCH_ID_DAYS, type UsageStore } from '../interface.js'
import { unitsPerKey, usageFromRow, type UsageRow } from '../rows.js'

export function createPostgresUsageStore (pool: pg.Pool): UsageStore {
  let batches = 0
  return {
    async add (entries, batchId) {
      if (entries.length === 0) return
      const columns = [entries.map((e) => e.keyId), entries.map((e) => e.day), entries.map((e) => e.group), entries.map((e) => e.requests), entries.map((e) => e.units)]
      // The keys' running totals (their credits are read on them), keys ascending: one lock order for every instance.
      const totals = unitsPerKey(entries)
      const bumped = [totals.map(([keyId]) => keyId), totals.map(([, units]) => units)]
      if (batchId === undefined) {
        // One statement for the whole batch: arrays unnested into rows, summed on conflict.
        await pool.query(`WITH bumped AS (
            UPDATE api_keys k SET units_total = k.units_total + t.units
              FROM unnest($6::bigint[], $7::bigint[]) AS t (key_id, units) WHERE k.id = t.key_id
          )
          INSERT INTO key_usage (key_id, day, endpoint_group, requests, units)
          SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::bigint[])
          ON CONFLICT (key_id, day, endpoint_group) DO UPDATE
            SET requests = key_usage.requests + excluded.requests, units = key_usage.units + excluded.units`, [...columns, ...bumped])
        return
      }
      // Still one statement, so one transaction: the batch id is claimed, the counts added
      // and the keys' totals raised together, or none of it; a batch whose id is already
      // there adds nothing (its first write was applied and only the reply was lost).
      await pool.query(`WITH claimed AS (
          INSERT INTO usage_batches (id, applied_at) VALUES ($6, $7) ON CONFLICT (id) DO NOTHING RETURNING id
        ), bumped AS (
          UPDATE api_keys k SET units_total = k.units_total + t.units
            FROM unnest($8::bigint[], $9::bigint[]) AS t (key_id, units)
            WHERE k.id = t.key_id AND EXISTS (SELECT 1 FROM claimed)
        )
        INSERT INTO key_usage (key_id, day, endpoint_group, requests, units)
          SELECT u.* FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::bigint[]) AS u
          WHERE EXISTS (SELECT 1 FROM claimed)
          ON CONFLICT (key_id, day, endpoint_group) DO UPDATE
            SET requests = key_usage.requests + excluded.requests, units = key_usage.units + excluded.units`, [...columns, batchId, Date.now(), ...bumped])
      if (++batches % 1000 === 1) await pool.query('DELETE FROM usage_batches WHERE applied_at < $1', [Date.now() - USAGE_BATCH_ID_DAYS * 86_400_000])
    },
    async unitsSince (keyId, day) {
      return (await pool.query<{ n: number }>('SELECT COALESCE(SUM(units), 0)::bigint AS n FROM key_usage WHERE key_id = $1 AND day >= $2', [keyId, day])).rows[0]!.n
    },
    async list ({ keyId, sinceDay = FIRST_DAY, untilDay = LAST_DAY }) {
      const { rows } = keyId === undefined
        ? await pool.query<UsageRow>('SELECT * FROM key_usage WHERE day >= $1 AND day <= $2 ORDER BY key_id, day, endpoint_group', [sinceDay, untilDay])
        : await pool.query<UsageRow>('SELECT * FROM key_usage WHERE key_id = $1 AND day >= $2 AND day <= $3 ORDER BY day, endpoint_group', [keyId, sinceDay, untilDay])
      return rows.map(usageFromRow)
    }
  }
}
