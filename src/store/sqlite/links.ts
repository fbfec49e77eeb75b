import type { MintedLinkStore } from '../interface.js'
import { mintedLinkFromRow, type MintedLinkRow } from '../rows.js'
import type { SqliteDatabase } from './database.js'

export function createSqliteLinkStore (db: SqliteDatabase): MintedLinkStore {
  const insert = db.prepare('INSERT OR IGNORE INTO minted_links (id, key_id, target, created_at) VALUES (?, ?, ?, ?)')
  const byId = db.prepare<[string], MintedLinkRow>('SELECT * FROM minted_links WHERE id = ?')
  return {
    async save (link) { insert.run(link.id, link.keyId, link.target, Date.now()) },
    async get (id) {
      const row = byId.get(id)
      return row ? mintedLinkFromRow(row) : undefined
    }
  }
}
