// A consistent copy of the SQLite database while the server keeps serving and writing.
// Copying the file alone is unsafe in WAL mode (recent commits live in the -wal file
// until a checkpoint); SQLite's online backup API copies the pages of one consistent
// snapshot, restarting a step when a writer changes a page it already copied.
// https://www.sqlite.org/backup.html
import fs from 'node:fs'
import path from 'node:path'
import { SQLITE_FILE } from './database.js'
import { Database } from './driver.js'

/** Wait this long for a writer's lock before giving up (the server's own busy timeout). */
const BUSY_TIMEOUT_MS = 5000

export interface BackupReport {
  file: string
  bytes: number
  pages: number
}

export class BackupError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'BackupError'
  }
}

export async function backupSqlite (dataDir: string, target: string, options: { overwrite?: boolean } = {}): Promise<BackupReport> {
  const source = path.join(dataDir, SQLITE_FILE)
  if (!fs.existsSync(source)) throw new BackupError(`No database at ${source}: is DATA_DIR right?`)
  const file = path.resolve(target)
  if (file === path.resolve(source)) throw new BackupError('The backup cannot be the live database itself')
  if (fs.existsSync(file) && options.overwrite !== true) throw new BackupError(`${file} exists: choose another name, or add --force to replace it`)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  // Written beside the target and renamed: an interrupted backup never looks like a complete one.
  const partial = `${file}.partial`
  fs.rmSync(partial, { force: true })
  const db = new Database(source, { fileMustExist: true })
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
    const { totalPages } = await db.backup(partial)
    const copy = new Database(partial)
    try {
      // The copy is a standalone file: no -wal beside it to lose when it is moved.
      copy.pragma('journal_mode = DELETE')
      const check = copy.pragma('integrity_check', { simple: true })
      if (check !== 'ok') throw new BackupError(`The copy failed its integrity check: ${String(check)}`)
    } finally {
      copy.close()
    }
    fs.renameSync(partial, file)
    return { file, bytes: fs.statSync(file).size, pages: totalPages }
  } catch (err) {
    fs.rmSync(partial, { force: true })
    throw err
  } finally {
    db.close()
  }
}
