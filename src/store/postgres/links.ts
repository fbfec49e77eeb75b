import type pg from 'pg'
import type { MintedLinkStore } from '../interface.js'
import { mintedLinkFromRow, type MintedLinkRow } from '../rows.js'

export function createPostgresLinkStore (pool: pg.Pool): MintedLinkStore {
  return {
    async save (link) {
      await pool.query('INSERT INTO minted_links (id, key_id, target, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING', [link.id, link.keyId, link.target, Date.now()])
    },
    async get (id) {
      const { rows } = await pool.query<MintedLinkRow>('SELECT * FROM minted_links WHERE id = $1', [id])
      return rows[0] ? mintedLinkFromRow(rows[0]) : undefined
    }
  }
}
