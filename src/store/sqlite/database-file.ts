// The SQLite file's identity, before opening it and while it is open.
//
// Before: a DATA_DIR that an earlier install wrote to but that holds no database means the
// database was deleted or lost; creating a fresh one there would silently drop every key,
// all usage and the gif catalog, so the start is refused unless an empty start is asked
// for (ALLOW_EMPTY_DATABASE). A file that is not SQLite, or a DATA_DIR the process cannot
// write to, is refused in one sentence instead of a stack trace.
//
// While open: SQLite keeps its descriptor to the file it opened. A file deleted (or
// replaced by another inode) under a running server still answers reads from the unlinked
// inode, and writes go where nobody will ever read them, so the path's device and inode
// are compared with those recorded at open, and its header checked (a file overwritten in
// place with something else keeps its inode).
import fs from 'node:fs'
import path from 'node:path'
import { DatabaseMissingError, DatabaseStartError, EXIT_DATABASE_MISSING, StoreUnavailableError } from '../interface.js'

// Defined with the store's interface (PostgreSQL refuses starts too); exported here, where the refusals of a SQLite file are.
export { DatabaseStartError, EXIT_DATABASE_MISSING }

/** Exit codes of a refused start (sysexits.h), documented in docs/operations.md ("Exit codes"). */
export const EXIT_DATABASE_UNREADABLE = 65 // EX_DATAERR: the database file is not SQLite
export const EXIT_CONFIG = 78 // EX_CONFIG: DATA_DIR cannot be used

/** How often a running server compares the database path with the file it has open. */
export const DATABASE_FILE_CHECK_MS = 2000

/** The first 16 bytes of every SQLite 3 database (https://www.sqlite.org/fileformat.html, 1.3). */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1')

/** Retry-After of a refused write: an operator has to restore the file and restart first. */
export const DATABASE_GONE_RETRY_AFTER_S = 30

/**
 * A write refused because the database file was deleted or replaced under the server: a
 * StoreUnavailableError, so it is answered 503 STORE_UNAVAILABLE with Retry-After and
 * logged as the store not answering, never as a crash.
 */
export class DatabaseFileGoneError extends StoreUnavailableError {
  constructor (readonly problem: string) {
    super(problem, DATABASE_GONE_RETRY_AFTER_S)
    this.name = 'DatabaseFileGoneError'
  }
}

/**
 * What only a server that ran in this DATA_DIR leaves there (the operator's own fonts,
 * banners and icons are not counted: they may be put there before the first start).
 */
function earlierInstallMarks (dataDir: string, file: string): string[] {
  const marks: string[] = []
  const has = (name: string): boolean => fs.existsSync(path.join(dataDir, name))
  for (const name of ['cache', 'result-cache', 'usage-pending', `${path.basename(file)}-wal`, `${path.basename(file)}-shm`]) {
    if (has(name)) marks.push(name)
  }
  try {
    if (fs.readdirSync(path.join(dataDir, 'gifs')).some((n) => n.endsWith('.gif'))) marks.push('gifs')
  } catch {}
  return marks
}

function headerIsSqlite (file: string): boolean {
  const fd = fs.openSync(file, 'r')
  try {
    const bytes = Buffer.alloc(SQLITE_HEADER.length)
    const read = fs.readSync(fd, bytes, 0, bytes.length, 0)
    return read === bytes.length && bytes.equals(SQLITE_HEADER)
  } finally {
    fs.closeSync(fd)
  }
}

function unusableDataDir (dataDir: string, why: string): DatabaseStartError {
  return new DatabaseStartError(`Invalid configuration: DATA_DIR ${dataDir} cannot be used (${why}): give the server's user write access to it, or choose another DATA_DIR.`, EXIT_CONFIG)
}

/**
 * Refuses a start that would lose or damage data, or (create false) one that would make a
 * new database; throws DatabaseStartError. A refused start creates nothing; an allowed empty start sets the lost database's -wal and -shm
 * files aside (renamed, with the time).
 */
export function checkBeforeOpen (dataDir: string, file: string, options: { allowEmpty: boolean, create?: boolean }): void {
  if (fs.existsSync(dataDir)) {
    try {
      fs.accessSync(dataDir, fs.constants.W_OK | fs.constants.X_OK)
    } catch (err) {
      throw unusableDataDir(dataDir, `${(err as NodeJS.ErrnoException).code ?? 'no access'}: not writable`)
    }
  }
  let size: number | undefined
  try {
    size = fs.statSync(file).size
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw unusableDataDir(dataDir, `${(err as NodeJS.ErrnoException).code ?? 'error'} on ${path.basename(file)}`)
  }
  // SQLite itself takes an empty file for a new database.
  if (size === undefined || size === 0) {
    const marks = earlierInstallMarks(dataDir, file)
    if (marks.length > 0 && !options.allowEmpty) {
      throw new DatabaseStartError(`The database ${file} is ${size === undefined ? 'missing' : 'empty'}, but DATA_DIR holds an earlier install (${marks.join(', ')}): restore the database from a backup (docs/backups.md), or start with an empty database by setting ALLOW_EMPTY_DATABASE=true.`, EXIT_DATABASE_MISSING)
    }
    // A command line pointed at the wrong DATA_DIR creates nothing there (not even DATA_DIR).
    if (options.create === false) throw new DatabaseMissingError(file)
    // The lost database's write-ahead log must not be replayed into the new one: kept
    // beside it under another name.
    for (const suffix of size === undefined ? ['-wal', '-shm'] : []) {
      const journal = `${file}${suffix}`
      if (fs.existsSync(journal)) fs.renameSync(journal, `${journal}.before-empty-start-${Date.now()}`)
    }
    return
  }
  let sqlite: boolean
  try {
    sqlite = headerIsSqlite(file)
  } catch (err) {
    throw unusableDataDir(dataDir, `${(err as NodeJS.ErrnoException).code ?? 'error'} reading ${path.basename(file)}`)
  }
  if (!sqlite) throw notADatabase(file)
}

function notADatabase (file: string): DatabaseStartError {
  return new DatabaseStartError(`The database ${file} is not a SQLite database: move it aside and restore the database from a backup (docs/backups.md).`, EXIT_DATABASE_UNREADABLE)
}

/** Turns what opening the database threw into a sentence for the operator, when it is one we know. */
export function openFailure (err: unknown, dataDir: string, file: string): unknown {
  const code = String((err as { code?: unknown } | undefined)?.code ?? '')
  if (['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'ENOTDIR'].includes(code)) return unusableDataDir(dataDir, code)
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) return notADatabase(file)
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_IOERR') || code === 'SQLITE_FULL') {
    return unusableDataDir(dataDir, `${code}: ${(err as Error).message}`)
  }
  return err
}

/** The database file as the readiness check reports it. */
export interface DatabaseFileState {
  state: 'ok' | 'down'
  path: string
  /** Device and inode of the file the server has open. */
  device: number
  inode: number
  /** What is wrong, when down. */
  problem?: string
}

export interface DatabaseFileWatch {
  /** Checks now (cheap: one stat and a 16-byte read) and returns the state. */
  check (): DatabaseFileState
  /** Throws DatabaseFileGoneError when the file the server writes to is no longer the database. */
  assertWritable (): void
  stop (): void
}

/**
 * Records the identity of the file just opened and compares the path with it every
 * DATABASE_FILE_CHECK_MS and on every check. A difference is final: the open connection
 * still points at the old file, so only a restart (after restoring the file) repairs it.
 * `onProblem` is called once, when it is first seen.
 */
export function watchDatabaseFile (file: string, onProblem: (state: DatabaseFileState) => void): DatabaseFileWatch {
  const opened = fs.statSync(file)
  const base = { path: file, device: opened.dev, inode: opened.ino }
  let problem: string | undefined

  function find (): string | undefined {
    let now: fs.Stats
    try {
      now = fs.statSync(file)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return `the database file ${file} was deleted while the server had it open (inode ${opened.ino}); writes are refused: restore it from a backup and restart`
      return `the database file ${file} cannot be checked (${(err as NodeJS.ErrnoException).code ?? String(err)})`
    }
    if (now.dev !== opened.dev || now.ino !== opened.ino) {
      return `the database file ${file} was replaced while the server had it open (inode ${opened.ino}, now ${now.ino}); writes are refused: restart to open the file now there, or restore it from a backup and restart`
    }
    try {
      if (now.size > 0 && !headerIsSqlite(file)) return `the database file ${file} was overwritten with something that is not SQLite; writes are refused: restore it from a backup and restart`
    } catch {}
    return undefined
  }

  function check (): DatabaseFileState {
    if (problem === undefined) {
      problem = find()
      if (problem !== undefined) {
        const state = { state: 'down' as const, ...base, problem }
        try { onProblem(state) } catch {}
        return state
      }
      return { state: 'ok', ...base }
    }
    return { state: 'down', ...base, problem }
  }

  const timer = setInterval(check, DATABASE_FILE_CHECK_MS)
  timer.unref()
  return {
    check,
    assertWritable () {
      const state = check()
      if (state.state === 'down') throw new DatabaseFileGoneError(state.problem!)
    },
    stop () { clearInterval(timer) }
  }
}
