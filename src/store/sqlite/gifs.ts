// The gif catalog in SQLite. Every change keeps each category's `seq` dense
// (0..count-1) and its count in gif_categories, inside one transaction, so that a
// random pick is one indexed lookup (migration 2), and raises the category's version
// (migration 4) so that caches of its entries see the change. A hidden gif (migration 6)
// leaves the dense positions as a removal does, keeping its row with seq NULL.
import { type GifAttribution, type GifCatalogStore, type NewGif, StoreConflictError } from '../interface.js'
import { attributionValue, DEFAULT_LIST_LIMIT, GIF_ATTRIBUTION_COLUMNS, gifFromRow as toRecord, type GifReportRow, type GifRow, reportFromRow } from '../rows.js'
import type { SqliteDatabase } from './database.js'

export function createSqliteGifStore (db: SqliteDatabase): GifCatalogStore {
  const countOf = db.prepare<[string], number>('SELECT count FROM gif_categories WHERE category = ?').pluck()
  const setCount = db.prepare(`INSERT INTO gif_categories (category, count, version) VALUES (?, ?, 1)
    ON CONFLICT (category) DO UPDATE SET count = excluded.count, version = gif_categories.version + 1`)
  const stateOf = db.prepare<[string], { count: number, version: number }>('SELECT count, version FROM gif_categories WHERE category = ?')
  const insert = db.prepare(`INSERT INTO gifs (category, seq, hash, url, size, width, height, frames, content_type, added_at,
      anime_name, artist, artist_url, source_url, dominant_color, phash)
    VALUES (@category, @seq, @hash, @url, @size, @width, @height, @frames, @contentType, @addedAt,
      @animeName, @artist, @artistUrl, @sourceUrl, @dominantColor, @phash)`)
  const byId = db.prepare<[number], GifRow>('SELECT * FROM gifs WHERE id = ?')
  const bySeq = db.prepare<[string, number], GifRow>('SELECT * FROM gifs WHERE category = ? AND seq = ?')
  // Count and lookup in one statement: one snapshot, no explicit transaction. min()
  // keeps a fraction that rounds up to 1 inside the category. A subquery rather than a
  // join: the join, with the same plan, ran 6× slower under SQLite 3.54 (better-sqlite3
  // 13; docs/dependencies.md, "The SQLite driver").
  const atFraction = db.prepare<[string, number, string], GifRow>(`SELECT * FROM gifs WHERE category = ?
    AND seq = (SELECT min(count - 1, CAST(? * count AS INTEGER)) FROM gif_categories WHERE category = ?)`)
  const byHash = db.prepare<[string], GifRow>('SELECT * FROM gifs WHERE hash = ? ORDER BY hidden LIMIT 1')
  const setHidden = db.prepare('UPDATE gifs SET hidden = 1, seq = NULL WHERE id = ?')
  const setVisible = db.prepare('UPDATE gifs SET hidden = 0, seq = ? WHERE id = ?')
  const bumpVersion = db.prepare('UPDATE gif_categories SET version = version + 1 WHERE category = ?')
  const insertReport = db.prepare<[number, number | null, string, number], GifReportRow>('INSERT INTO gif_reports (gif_id, key_id, reason, created_at) VALUES (?, ?, ?, ?) RETURNING *')
  // status: 0 open, 1 dismissed, 2 all; gif: NULL for every gif.
  const reportsWhere = db.prepare<[number | null, number | null, number, number, number, number], GifReportRow>(`SELECT * FROM gif_reports
    WHERE (? IS NULL OR gif_id = ?) AND id > ? AND (? = 2 OR (dismissed_at IS NOT NULL) = (? = 1)) ORDER BY id LIMIT ?`)
  const dismiss = db.prepare<[number, number], GifReportRow>('UPDATE gif_reports SET dismissed_at = COALESCE(dismissed_at, ?) WHERE id = ? RETURNING *')
  const hasHash = db.prepare<[string, string], number>('SELECT 1 FROM gifs WHERE category = ? AND hash = ?').pluck()
  const hasUrl = db.prepare<[string, string], number>('SELECT 1 FROM gifs WHERE category = ? AND url = ?').pluck()
  const deleteById = db.prepare('DELETE FROM gifs WHERE id = ?')
  const moveSeq = db.prepare('UPDATE gifs SET seq = ? WHERE category = ? AND seq = ?')
  const listAll = db.prepare<[number, number], GifRow>('SELECT * FROM gifs WHERE id > ? ORDER BY id LIMIT ?')
  const listCategory = db.prepare<[string, number, number], GifRow>('SELECT * FROM gifs WHERE category = ? AND id > ? ORDER BY id LIMIT ?')
  const allCounts = db.prepare<[], { category: string, count: number }>('SELECT category, count FROM gif_categories WHERE count > 0 ORDER BY category')
  const allHashes = db.prepare<[], string>('SELECT DISTINCT hash FROM gifs WHERE hash IS NOT NULL').pluck()

  const addAll = db.transaction((gifs: NewGif[]): number[] => {
    const ids: number[] = []
    const counts = new Map<string, number>()
    for (const gif of gifs) {
      const count = counts.get(gif.category) ?? countOf.get(gif.category) ?? 0
      try {
        const result = insert.run({
          category: gif.category,
          seq: count,
          hash: gif.hash,
          url: gif.url,
          size: gif.size,
          width: gif.width,
          height: gif.height,
          frames: gif.frames,
          contentType: gif.contentType,
          addedAt: (gif.addedAt ?? new Date()).getTime(),
          ...Object.fromEntries(GIF_ATTRIBUTION_COLUMNS.map(([, field]) => [field, attributionValue(field, gif[field])]))
        })
        ids.push(Number(result.lastInsertRowid))
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
          throw new StoreConflictError(gif.hash === null ? 'url' : 'hash', `The category "${gif.category}" already holds this gif`)
        }
        throw err
      }
      counts.set(gif.category, count + 1)
    }
    for (const [category, count] of counts) setCount.run(category, count)
    return ids
  })

  /** Takes a visible row out of the dense positions: the category's last entry takes its seq. */
  const vacate = (row: GifRow): void => {
    const last = (countOf.get(row.category) ?? 1) - 1
    if (row.seq !== last) moveSeq.run(row.seq, row.category, last)
    setCount.run(row.category, last)
  }

  const removeRow = (id: number): GifRow | undefined => {
    const row = byId.get(id)
    if (!row) return undefined
    deleteById.run(id)
    // A hidden row holds no position; the version still rises (list and get change).
    if (row.seq === null) bumpVersion.run(row.category)
    else vacate(row)
    return row
  }
  const removeOne = db.transaction(removeRow)
  const hideOne = db.transaction((id: number): GifRow | undefined => {
    const row = byId.get(id)
    if (!row || row.seq === null) return row
    setHidden.run(id)
    vacate(row)
    return byId.get(id)
  })
  const unhideOne = db.transaction((id: number): GifRow | undefined => {
    const row = byId.get(id)
    if (!row || row.seq !== null) return row
    const count = countOf.get(row.category) ?? 0
    setVisible.run(count, id)
    setCount.run(row.category, count + 1)
    return byId.get(id)
  })
  const setFields = db.transaction((id: number, fields: GifAttribution): GifRow | undefined => {
    const row = byId.get(id)
    if (!row) return undefined
    const changes = GIF_ATTRIBUTION_COLUMNS.filter(([, field]) => fields[field] !== undefined)
    if (changes.length === 0) return row
    db.prepare(`UPDATE gifs SET ${changes.map(([column]) => `${column} = ?`).join(', ')} WHERE id = ?`)
      .run(...changes.map(([, field]) => attributionValue(field, fields[field])), id)
    bumpVersion.run(row.category)
    return byId.get(id)
  })
  const removeAll = db.transaction((ids: readonly number[]): GifRow[] => ids.map(removeRow).filter((r): r is GifRow => r !== undefined))

  // A read transaction: the count and the lookups see the same snapshot even while
  // another process (the CLI) changes the catalog.
  const pickIn = db.transaction((category: string, choose: (count: number) => number[]): GifRow[] => {
    const count = countOf.get(category) ?? 0
    if (count === 0) return []
    const rows: GifRow[] = []
    for (const seq of choose(count)) {
      const row = bySeq.get(category, seq)
      if (row) rows.push(row)
    }
    return rows
  })

  return {
    async add (gifs) {
      const ids = addAll.immediate(gifs)
      return ids.map((id) => toRecord(byId.get(id)!))
    },
    async remove (id) {
      const row = removeOne.immediate(id)
      return row ? toRecord(row) : undefined
    },
    async removeMany (ids) {
      return removeAll.immediate(ids).map(toRecord)
    },
    async get (id) {
      const row = byId.get(id)
      return row ? toRecord(row) : undefined
    },
    async findByHash (hash) {
      const row = byHash.get(hash)
      return row ? toRecord(row) : undefined
    },
    async has (category, key) {
      if (key.hash !== undefined) return hasHash.get(category, key.hash) !== undefined
      if (key.url !== undefined) return hasUrl.get(category, key.url) !== undefined
      return false
    },
    async pick (category, choose) {
      return pickIn(category, choose).map(toRecord)
    },
    async pickOne (category, fraction) {
      const row = atFraction.get(category, fraction, category)
      return row ? toRecord(row) : undefined
    },
    async categoryState (category) {
      const row = stateOf.get(category)
      return row ? { count: row.count, version: row.version } : { count: 0, version: 0 }
    },
    async list (options = {}) {
      const limit = options.limit ?? DEFAULT_LIST_LIMIT
      const after = options.afterId ?? 0
      const rows = options.category === undefined ? listAll.all(after, limit) : listCategory.all(options.category, after, limit)
      return rows.map(toRecord)
    },
    async counts () {
      return Object.fromEntries(allCounts.all().map((r) => [r.category, r.count]))
    },
    async hashes () {
      return new Set(allHashes.all())
    },
    async hide (id) {
      const row = hideOne.immediate(id)
      return row ? toRecord(row) : undefined
    },
    async unhide (id) {
      const row = unhideOne.immediate(id)
      return row ? toRecord(row) : undefined
    },
    async setAttribution (id, fields) {
      const row = setFields.immediate(id, fields)
      return row ? toRecord(row) : undefined
    },
    async report ({ gifId, keyId, reason, at }) {
      if (!byId.get(gifId)) return undefined
      try {
        return reportFromRow(insertReport.get(gifId, keyId, reason, (at ?? new Date()).getTime())!)
      } catch (err) {
        // Removed between the check and the insert.
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return undefined
        throw err
      }
    },
    async reports (options = {}) {
      const limit = options.limit ?? DEFAULT_LIST_LIMIT
      const after = options.afterId ?? 0
      const status = options.status === 'open' ? 0 : options.status === 'dismissed' ? 1 : 2
      const gif = options.gifId ?? null
      return reportsWhere.all(gif, gif, after, status, status, limit).map(reportFromRow)
    },
    async dismissReport (id, at = new Date()) {
      const row = dismiss.get(at.getTime(), id)
      return row ? reportFromRow(row) : undefined
    }
  }
}
