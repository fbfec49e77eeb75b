import type { UsageEntry, UsageStore } from '../interface.js'
import { usageFromRow, type UsageRow } from '../rows.js'
import type { SqliteDatabase } from './database.js'

export function createSqliteUsageStore (db: SqliteDatabase): UsageStore {
  const upsert = db.prepare(`INSERT INTO key_usage (key_id, day, endpoint_group, requests, units) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (key_id, day, endpoint_group) DO UPDATE SET requests = requests + excluded.requests, units = units + excluded.units`)
  const addAll = db.transaction((entries: UsageEntry[]) => {
    for (const e of entries) upsert.run(e.keyId, e.day, e.group, e.requests, e.units)
  })
  const unitsSince = db.prepare<[number, string]>('SELECT COALESCE(SUM(units), 0) FROM key_usage WHERE key_id = ? AND day >= ?').pluck()
  const listAll = db.prepare<[string], UsageRow>('SELECT * FROM key_usage WHERE day >= ? ORDER BY key_id, day, endpoint_group')
  const listKey = db.prepare<[number, string], UsageRow>('SELECT * FROM key_usage WHERE key_id = ? AND day >= ? ORDER BY day, endpoint_group')

  return {
    async add (entries) {
      if (entries.length > 0) addAll(entries)
    },
    async unitsSince (keyId, day) {
      return unitsSince.get(keyId, day) as number
    },
    async list ({ keyId, sinceDay = '0000-00-00' }) {
      return (keyId === undefined ? listAll.all(sinceDay) : listKey.all(keyId, sinceDay)).map(usageFromRow)
    }
  }
}
