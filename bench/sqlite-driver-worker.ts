// One SQLite driver through the store's hot paths, in a process of its own (started by
// bench/sqlite-drivers.bench.ts with the Node under test): the statements of
// src/store/sqlite/{keys,usage,gifs}.ts on a file with the store's schema and pragmas.
// Prints one JSON line: operations per second of each path.
// Usage: node --import tsx bench/sqlite-driver-worker.ts <better-sqlite3|better-sqlite3-13|node:sqlite> <seconds>
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { SQLITE_MIGRATIONS } from '../src/store/sqlite/migrations.js'

interface Statement { get (...args: unknown[]): unknown, run (...args: unknown[]): unknown }
interface Driver {
  exec (sql: string): void
  prepare (sql: string): Statement
  /** fn inside BEGIN … COMMIT, as better-sqlite3's db.transaction(fn) runs it. */
  transaction<A extends unknown[], R> (fn: (...args: A) => R): (...args: A) => R
  close (): void
}

const KEYS = 1000
const GIFS = 500
const USAGE_ENTRIES = 20 // one flush: a few keys × endpoint groups

const require = createRequire(import.meta.url)

function open (name: string, file: string): Driver {
  if (name === 'node:sqlite') {
    const { DatabaseSync } = require('node:sqlite') as { DatabaseSync: new (file: string) => { exec (sql: string): void, prepare (sql: string): Statement, close (): void } }
    const db = new DatabaseSync(file)
    return {
      exec: (sql) => db.exec(sql),
      prepare: (sql) => db.prepare(sql),
      transaction: (fn) => (...args) => {
        db.exec('BEGIN')
        try {
          const result = fn(...args)
          db.exec('COMMIT')
          return result
        } catch (err) {
          db.exec('ROLLBACK')
          throw err
        }
      },
      close: () => db.close()
    }
  }
  const Database = require(name) as typeof BetterSqlite3
  const db = new Database(file)
  return {
    exec: (sql) => { db.exec(sql) },
    prepare: (sql) => db.prepare(sql),
    transaction: (fn) => db.transaction(fn),
    close: () => { db.close() }
  }
}

function opsPerSec (fn: () => void, seconds: number): number {
  const warmEnd = performance.now() + 200
  while (performance.now() < warmEnd) fn()
  let n = 0
  const start = performance.now()
  const end = start + seconds * 1000
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) fn()
    n += 100
  }
  return n / ((performance.now() - start) / 1000)
}

const [name = 'better-sqlite3', secondsArg = '1'] = process.argv.slice(2)
const seconds = Number(secondsArg)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-sqlite-bench-'))
const db = open(name, path.join(dir, 'bench.sqlite'))
try {
  // The pragmas of src/store/sqlite/database.ts.
  for (const pragma of ['journal_mode = WAL', 'synchronous = NORMAL', 'foreign_keys = ON', 'busy_timeout = 5000']) db.exec(`PRAGMA ${pragma}`)
  for (const m of SQLITE_MIGRATIONS) db.exec(m.sql)

  const addKey = db.prepare('INSERT INTO api_keys (name, prefix, hash, status, source, created_at, updated_at) VALUES (?, ?, ?, \'active\', \'cli\', ?, ?)')
  const addGif = db.prepare('INSERT INTO gifs (category, seq, hash, size, width, height, frames, content_type, added_at) VALUES (?, ?, ?, 1000, 200, 200, 10, \'image/gif\', ?)')
  db.transaction(() => {
    for (let i = 0; i < KEYS; i++) addKey.run(`key-${i}`, `um_${i}`, `hash-${i}`.padEnd(64, 'x'), Date.now(), Date.now())
    for (let i = 0; i < GIFS; i++) addGif.run('hug', i, `gif-${i}`.padEnd(64, 'y'), Date.now())
  })()
  db.exec(`INSERT INTO gif_categories (category, count, version) VALUES ('hug', ${GIFS}, 1)`)

  // src/store/sqlite/keys.ts: findByHash.
  const byHash = db.prepare('SELECT * FROM api_keys WHERE hash = ?')
  let k = 0
  const keyLookup = (): void => { byHash.get(`hash-${(k = (k * 7 + 13) % KEYS)}`.padEnd(64, 'x')) }

  // src/store/sqlite/usage.ts: add(entries, batchId).
  const upsert = db.prepare(`INSERT INTO key_usage (key_id, day, endpoint_group, requests, units) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (key_id, day, endpoint_group) DO UPDATE SET requests = requests + excluded.requests, units = units + excluded.units`)
  const claim = db.prepare('INSERT OR IGNORE INTO usage_batches (id, applied_at) VALUES (?, ?)')
  const addUsage = db.transaction((batchId: string) => {
    claim.run(batchId, Date.now())
    for (let i = 0; i < USAGE_ENTRIES; i++) upsert.run(1 + (i % 5), '2026-11-28', `group-${i % 4}`, 1, 3)
  })
  let batch = 0
  const usageBatch = (): void => { addUsage(`${process.pid}-${batch++}`) }

  // src/store/sqlite/gifs.ts: pickIn (count and one position in a read transaction), and at(fraction).
  const countOf = db.prepare('SELECT count FROM gif_categories WHERE category = ?')
  const bySeq = db.prepare('SELECT * FROM gifs WHERE category = ? AND seq = ?')
  const pickIn = db.transaction((category: string) => {
    const { count } = countOf.get(category) as { count: number }
    return bySeq.get(category, (batch++ * 31) % count)
  })
  const gifPick = (): void => { pickIn('hug') }
  const atFraction = db.prepare(`SELECT * FROM gifs WHERE category = ?
    AND seq = (SELECT min(count - 1, CAST(? * count AS INTEGER)) FROM gif_categories WHERE category = ?)`)
  let f = 0
  const gifAtFraction = (): void => { atFraction.get('hug', (f = (f + 0.137) % 1), 'hug') }

  const result = {
    node: process.version,
    driver: name,
    keyLookup: opsPerSec(keyLookup, seconds),
    usageBatch: opsPerSec(usageBatch, seconds),
    gifPick: opsPerSec(gifPick, seconds),
    gifAtFraction: opsPerSec(gifAtFraction, seconds)
  }
  process.stdout.write(JSON.stringify(result) + '\n')
} finally {
  db.close()
  fs.rmSync(dir, { recursive: true, force: true })
}
