// The gif catalog in PostgreSQL: the same dense-`seq` scheme and per-category version
// as SQLite (see src/store/sqlite/gifs.ts), with the category's count row locked (FOR
// UPDATE) by every change, so that instances changing one category at once keep it dense.
import type pg from 'pg'
import { type GifCatalogStore, type GifRecord, StoreConflictError } from '../interface.js'
import { attributionValue, DEFAULT_LIST_LIMIT, GIF_ATTRIBUTION_COLUMNS, gifFromRow as toRecord, type GifReportRow, type GifRow, reportFromRow } from '../rows.js'
import { inTransaction as inConnection } from './database.js'

const inTransaction = <T>(pool: pg.Pool, isolation: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> =>
  inConnection(pool, `BEGIN ISOLATION LEVEL ${isolation}`, work)

/** Locks a category's count row (creating it at 0) and returns the count. */
async function lockCategory (client: pg.PoolClient, category: string): Promise<number> {
  await client.query('INSERT INTO gif_categories (category, count) VALUES ($1, 0) ON CONFLICT (category) DO NOTHING', [category])
  return (await client.query<{ count: number }>('SELECT count FROM gif_categories WHERE category = $1 FOR UPDATE', [category])).rows[0]!.count
}

/** The row read again under its category's lock (another instance may have moved it meanwhile), and the count. */
async function lockedRow (client: pg.PoolClient, id: number): Promise<{ row: GifRow, count: number } | undefined> {
  const found = (await client.query<GifRow>('SELECT * FROM gifs WHERE id = $1', [id])).rows[0]
  if (!found) return undefined
  const count = await lockCategory(client, found.category)
  const row = (await client.query<GifRow>('SELECT * FROM gifs WHERE id = $1', [id])).rows[0]
  return row ? { row, count } : undefined
}

/** Takes a visible row out of the dense positions (the category's last entry takes its seq); the row is then deleted or hidden. */
async function vacate (client: pg.PoolClient, row: GifRow, count: number, take: () => Promise<unknown>): Promise<void> {
  const last = count - 1
  await take()
  if (row.seq !== last) await client.query('UPDATE gifs SET seq = $1 WHERE category = $2 AND seq = $3', [row.seq, row.category, last])
  await client.query('UPDATE gif_categories SET count = $1, version = version + 1 WHERE category = $2', [last, row.category])
}

async function removeRow (client: pg.PoolClient, id: number): Promise<GifRow | undefined> {
  const locked = await lockedRow(client, id)
  if (!locked) return undefined
  const { row, count } = locked
  const remove = () => client.query('DELETE FROM gifs WHERE id = $1', [id])
  if (row.seq === null) {
    // A hidden row holds no position; the version still rises.
    await remove()
    await client.query('UPDATE gif_categories SET version = version + 1 WHERE category = $1', [row.category])
  } else {
    await vacate(client, row, count, remove)
  }
  return row
}

export function createPostgresGifStore (pool: pg.Pool): GifCatalogStore {
  const one = async (sql: string, params: unknown[]): Promise<GifRecord | undefined> => {
    const { rows } = await pool.query<GifRow>(sql, params)
    return rows[0] ? toRecord(rows[0]) : undefined
  }
  return {
    async add (gifs) {
      try {
        return await inTransaction(pool, 'READ COMMITTED', async (client) => {
          const counts = new Map<string, number>()
          const out: GifRecord[] = []
          // Lock categories in a fixed order: two imports cannot deadlock.
          for (const category of [...new Set(gifs.map((g) => g.category))].sort()) counts.set(category, await lockCategory(client, category))
          for (const gif of gifs) {
            const seq = counts.get(gif.category)!
            const { rows } = await client.query<GifRow>(`INSERT INTO gifs (category, seq, hash, url, size, width, height, frames, content_type, added_at,
                anime_name, artist, artist_url, source_url, dominant_color, phash)
              VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING *`,
            [gif.category, seq, gif.hash, gif.url, gif.size, gif.width, gif.height, gif.frames, gif.contentType, (gif.addedAt ?? new Date()).getTime(),
              ...GIF_ATTRIBUTION_COLUMNS.map(([, field]) => attributionValue(field, gif[field]))])
            out.push(toRecord(rows[0]!))
            counts.set(gif.category, seq + 1)
          }
          for (const [category, count] of counts) await client.query('UPDATE gif_categories SET count = $1, version = version + 1 WHERE category = $2', [count, category])
          return out
        })
      } catch (err) {
        if ((err as { code?: string }).code === '23505') {
          throw new StoreConflictError((err as { constraint?: string }).constraint?.includes('url') ? 'url' : 'hash', 'The category already holds this gif')
        }
        throw err
      }
    },
    async remove (id) {
      return inTransaction(pool, 'READ COMMITTED', async (client) => {
        const row = await removeRow(client, id)
        return row ? toRecord(row) : undefined
      })
    },
    async removeMany (ids) {
      return inTransaction(pool, 'READ COMMITTED', async (client) => {
        const removed: GifRecord[] = []
        for (const id of ids) {
          const row = await removeRow(client, id)
          if (row) removed.push(toRecord(row))
        }
        return removed
      })
    },
    get: (id) => one('SELECT * FROM gifs WHERE id = $1', [id]),
    findByHash: (hash) => one('SELECT * FROM gifs WHERE hash = $1 ORDER BY hidden LIMIT 1', [hash]),
    async has (category, key) {
      if (key.hash !== undefined) return (await pool.query('SELECT 1 FROM gifs WHERE category = $1 AND hash = $2', [category, key.hash])).rowCount! > 0
      if (key.url !== undefined) return (await pool.query('SELECT 1 FROM gifs WHERE category = $1 AND url = $2', [category, key.url])).rowCount! > 0
      return false
    },
    async pick (category, choose) {
      // One snapshot for the count and the lookups.
      return inTransaction(pool, 'REPEATABLE READ', async (client) => {
        const count = (await client.query<{ count: number }>('SELECT count FROM gif_categories WHERE category = $1', [category])).rows[0]?.count ?? 0
        if (count === 0) return []
        const seqs = choose(count)
        const { rows } = await client.query<GifRow>('SELECT * FROM gifs WHERE category = $1 AND seq = ANY($2::int[])', [category, seqs])
        const bySeq = new Map(rows.map((r) => [r.seq, r]))
        return seqs.map((s) => bySeq.get(s)).filter((r): r is GifRow => r !== undefined).map(toRecord)
      })
    },
    pickOne: (category, fraction) => one(`SELECT g.* FROM gif_categories c
      JOIN gifs g ON g.category = c.category AND g.seq = LEAST(c.count - 1, floor($1::float8 * c.count)::int)
      WHERE c.category = $2`, [fraction, category]),
    async categoryState (category) {
      const { rows } = await pool.query<{ count: number, version: number }>('SELECT count, version FROM gif_categories WHERE category = $1', [category])
      return rows[0] ? { count: rows[0].count, version: rows[0].version } : { count: 0, version: 0 }
    },
    async list (options = {}) {
      const limit = options.limit ?? DEFAULT_LIST_LIMIT
      const after = options.afterId ?? 0
      const { rows } = options.category === undefined
        ? await pool.query<GifRow>('SELECT * FROM gifs WHERE id > $1 ORDER BY id LIMIT $2', [after, limit])
        : await pool.query<GifRow>('SELECT * FROM gifs WHERE category = $1 AND id > $2 ORDER BY id LIMIT $3', [options.category, after, limit])
      return rows.map(toRecord)
    },
    async counts () {
      const { rows } = await pool.query<{ category: string, count: number }>('SELECT category, count FROM gif_categories WHERE count > 0 ORDER BY category')
      return Object.fromEntries(rows.map((r) => [r.category, r.count]))
    },
    async hashes () {
      const { rows } = await pool.query<{ hash: string }>('SELECT DISTINCT hash FROM gifs WHERE hash IS NOT NULL')
      return new Set(rows.map((r) => r.hash))
    },
    async hide (id) {
      return inTransaction(pool, 'READ COMMITTED', async (client) => {
        const locked = await lockedRow(client, id)
        if (!locked) return undefined
        if (locked.row.seq === null) return toRecord(locked.row)
        await vacate(client, locked.row, locked.count, () => client.query('UPDATE gifs SET hidden = true, seq = NULL WHERE id = $1', [id]))
        return toRecord((await client.query<GifRow>('SELECT * FROM gifs WHERE id = $1', [id])).rows[0]!)
      })
    },
    async unhide (id) {
      return inTransaction(pool, 'READ COMMITTED', async (client) => {
        const locked = await lockedRow(client, id)
        if (!locked) return undefined
        if (locked.row.seq !== null) return toRecord(locked.row)
        const { rows } = await client.query<GifRow>('UPDATE gifs SET hidden = false, seq = $1 WHERE id = $2 RETURNING *', [locked.count, id])
        await client.query('UPDATE gif_categories SET count = $1, version = version + 1 WHERE category = $2', [locked.count + 1, locked.row.category])
        return toRecord(rows[0]!)
      })
    },
    async setAttribution (id, fields) {
      const changes = GIF_ATTRIBUTION_COLUMNS.filter(([, field]) => fields[field] !== undefined)
      if (changes.length === 0) return one('SELECT * FROM gifs WHERE id = $1', [id])
      return inTransaction(pool, 'READ COMMITTED', async (client) => {
        const { rows } = await client.query<GifRow>(`UPDATE gifs SET ${changes.map(([column], i) => `${column} = $${i + 2}`).join(', ')} WHERE id = $1 RETURNING *`,
          [id, ...changes.map(([, field]) => attributionValue(field, fields[field]))])
        if (!rows[0]) return undefined
        await client.query('UPDATE gif_categories SET version = version + 1 WHERE category = $1', [rows[0].category])
        return toRecord(rows[0])
      })
    },
    async report ({ gifId, keyId, reason, at }) {
      try {
        const { rows } = await pool.query<GifReportRow>(`INSERT INTO gif_reports (gif_id, key_id, reason, created_at)
          SELECT id, $2, $3, $4 FROM gifs WHERE id = $1 RETURNING *`, [gifId, keyId, reason, (at ?? new Date()).getTime()])
        return rows[0] ? reportFromRow(rows[0]) : undefined
      } catch (err) {
        // Removed between the select and the insert.
        if ((err as { code?: string }).code === '23503') return undefined
        throw err
      }
    },
    async reports (options = {}) {
      const limit = options.limit ?? DEFAULT_LIST_LIMIT
      const after = options.afterId ?? 0
      const status = options.status ?? 'all'
      const { rows } = await pool.query<GifReportRow>(`SELECT * FROM gif_reports
        WHERE ($1::bigint IS NULL OR gif_id = $1) AND id > $2 AND ($3 = 'all' OR (dismissed_at IS NOT NULL) = ($3 = 'dismissed')) ORDER BY id LIMIT $4`, [options.gifId ?? null, after, status, limit])
      return rows.map(reportFromRow)
    },
    async dismissReport (id, at = new Date()) {
      const { rows } = await pool.query<GifReportRow>('UPDATE gif_reports SET dismissed_at = COALESCE(dismissed_at, $1) WHERE id = $2 RETURNING *', [at.getTime(), id])
      return rows[0] ? reportFromRow(rows[0]) : undefined
    }
  }
}
