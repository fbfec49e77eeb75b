// The gif catalog in PostgreSQL: the same dense-`seq` scheme and per-category version
// as SQLite (see src/store/sqlite/gifs.ts), with the category's count row locked (FOR
// UPDATE) by every change, so that instances changing one category at once keep it dense.
import type pg from 'pg'
import { type GifCatalogStore, type GifRecord, StoreConflictError } from '../interface.js'
import { DEFAULT_LIST_LIMIT, gifFromRow as toRecord, type GifRow } from '../rows.js'
import { inTransaction as inConnection } from './database.js'

const inTransaction = <T>(pool: pg.Pool, isolation: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> =>
  inConnection(pool, `BEGIN ISOLATION LEVEL ${isolation}`, work)

/** Locks a category's count row (creating it at 0) and returns the count. */
async function lockCategory (client: pg.PoolClient, category: string): Promise<number> {
  await client.query('INSERT INTO gif_categories (category, count) VALUES ($1, 0) ON CONFLICT (category) DO NOTHING', [category])
  return (await client.query<{ count: number }>('SELECT count FROM gif_categories WHERE category = $1 FOR UPDATE', [category])).rows[0]!.count
}

async function removeRow (client: pg.PoolClient, id: number): Promise<GifRow | undefined> {
  const found = (await client.query<GifRow>('SELECT * FROM gifs WHERE id = $1', [id])).rows[0]
  if (!found) return undefined
  const count = await lockCategory(client, found.category)
  // Re-read under the lock: another instance may have moved it meanwhile.
  const row = (await client.query<GifRow>('SELECT * FROM gifs WHERE id = $1', [id])).rows[0]
  if (!row) return undefined
  const last = count - 1
  await client.query('DELETE FROM gifs WHERE id = $1', [id])
  if (row.seq !== last) await client.query('UPDATE gifs SET seq = $1 WHERE category = $2 AND seq = $3', [row.seq, row.category, last])
  await client.query('UPDATE gif_categories SET count = $1, version = version + 1 WHERE category = $2', [last, row.category])
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
            const { rows } = await client.query<GifRow>(`INSERT INTO gifs (category, seq, hash, url, size, width, height, frames, content_type, added_at)
              VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
            [gif.category, seq, gif.hash, gif.url, gif.size, gif.width, gif.height, gif.frames, gif.contentType, (gif.addedAt ?? new Date()).getTime()])
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
    findByHash: (hash) => one('SELECT * FROM gifs WHERE hash = $1 LIMIT 1', [hash]),
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
    }
  }
}
