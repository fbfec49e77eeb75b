import { FIRST_DAY, LAST_DAY, USAGE_BATCH_ID_DAYS, type UsageEntry, type UsageStore } from '../interface.js'
import { unitsPerKey, usageFromRow, type UsageRow } from '../rows.js'
import type { SqliteDatabase } from './database.js'

export function createSqliteUsageStore (db: SqliteDatabase): UsageStore {
  const upsert = db.prepare(`INSERT INTO key_usage (key_id, day, endpoint_group, requests, units) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (key_id, day, endpoint_group) DO UPDATE SET requests = requests + excluded.requests, units = units + excluded.units`)
  const claim = db.prepare<[string, number]>('INSERT OR IGNORE INTO usage_batches (id, applied_at) VALUES (?, ?)')
  const forget = db.prepare<[number]>('DELETE FROM usage_batches WHERE applied_at < ?')
  // In the batch's transaction: the key's running total, which its credits are read on.
  const bump = db.prepare<[number, number]>('UPDATE api_keys SET units_total = units_total + ? WHERE id = ?')
  let batches = 0
  const addAll = db.transaction((entries: UsageEntry[], batchId: string | undefined) => {
    if (batchId !== undefined) {
      // Applied before: its counts are in already.
      if (claim.run(batchId, Date.now()).changes === 0) return
      if (++batches % 1000 === 1) forget.run(Date.now() - USAGE_BATCH_ID_DAYS * 86_400_000)
    }
    for (const e of entries) upsert.run(e.keyId, e.day, e.group, e.requests, e.units)
    for (const [keyId, units] of unitsPerKey(entries)) bump.run(units, keyId)
  })
  const unitsSince = db.prepare<[number, string]>('SELECT COALESCE(SUM(units), 0) FROM key_usage WHERE key_id = ? AND day >= ?').pluck()
  const listAll = db.prepare<[string, string], UsageRow>('SELECT * FROM key_usage WHERE day >= ? AND day <= ? ORDER BY key_id, day, endpoint_group')
  const listKey = db.prepare<[number, string, string], UsageRow>('SELECT * FROM key_usage WHERE key_id = ? AND day >= ? AND day <= ? ORDER BY day, endpoint_group')

  return {
    async add (entries, batchId) {
      if (entries.length > 0) addAll(entries, batchId)
    },
    async unitsSince (keyId, day) {
      return unitsSince.get(keyId, day) as number
    },
    async list ({ keyId, sinceDay = FIRST_DAY, untilDay = LAST_DAY }) {
      return (keyId === undefined ? listAll.all(sinceDay, untilDay) : listKey.all(keyId, sinceDay, untilDay)).map(usageFromRow)
    }
  }
}
