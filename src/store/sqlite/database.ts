// Opening the embedded SQLite database: WAL for concurrent readers, a busy timeout so
// a CLI command and the server can write at the same time, and migrations.
import fs from 'node:fs'
import path from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { Database } from './driver.js'
import { type Migration, SQLITE_MIGRATIONS } from './migrations.js'

export type SqliteDatabase = BetterSqlite3.Database

export const SQLITE_FILE = 'utility-media.sqlite'
const BUSY_TIMEOUT_MS = 5000

export function openSqliteDatabase (dataDir: string, migrations: Migration[] = SQLITE_MIGRATIONS): SqliteDatabase {
  fs.mkdirSync(dataDir, { recursive: true })
  const db = new Database(path.join(dataDir, SQLITE_FILE))
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
  migrate(db, migrations)
  return db
}

export function migrate (db: SqliteDatabase, migrations: Migration[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  )`)
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[])
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(m.version)) continue
    // BEGIN IMMEDIATE: two processes starting at once cannot both apply a migration.
    db.transaction(() => {
      const again = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(m.version)
      if (again) return
      db.exec(m.sql)
      record.run(m.version, m.name, Date.now())
    }).immediate()
  }
}
