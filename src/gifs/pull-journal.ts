// The journal of a `gifs pull` run (src/gifs/pull.ts), in DATA_DIR/pulls/<source>-<category>/:
// run.json names the run (written once, when it starts) and journal.jsonl holds one line
// per gif URL the run dealt with, appended and synced before the run goes on:
//   {"url": "https://…/a.gif", "added": "<sha256>"}   the URL brought a gif the run added
//   {"url": "https://…/b.gif"}                        tried: refused, failed or a duplicate
// Appending costs the same for the 10,000th URL as for the first (the earlier journal, one
// JSON file rewritten after every URL, wrote as the square of the count). A kill during an
// append can leave a torn last line: it is cut off when the journal is opened, and what it
// recorded is found again (a staged gif is finished anew; a URL only tried is tried again).
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { HASH_PATTERN } from '../store/gif-files.js'

export const RUN_FILE = 'run.json'
export const JOURNAL_FILE = 'journal.jsonl'
/** The format of run.json this module writes (the earlier one had none, and every hash and URL in it). */
const JOURNAL_FORMAT = 2

export interface RunIdentity { source: string, category: string }

export interface JournalLine {
  /** The gif URL of the source. */
  url?: string
  /** The hash of the gif the run added from it. */
  added?: string
}

export interface PullJournal {
  /** Hashes the run added, in order, each once. */
  readonly added: readonly string[]
  isAdded (hash: string): boolean
  /** URLs the run dealt with, not to ask for twice. */
  readonly tried: ReadonlySet<string>
  /** Appends one line, synced to disk before it resolves. */
  append (line: JournalLine): Promise<void>
  close (): Promise<void>
}

function errnoCode (err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code
}

/** Writes `file` whole or not at all: a temp file synced, then renamed over it. */
export async function writeAtomic (file: string, data: string | Uint8Array): Promise<void> {
  const temp = path.join(path.dirname(file), `.tmp-${path.basename(file)}-${process.pid}-${randomBytes(4).toString('hex')}`)
  const handle = await fs.promises.open(temp, 'wx')
  try {
    await handle.writeFile(data)
    await handle.sync()
  } finally {
    await handle.close()
  }
  await fs.promises.rename(temp, file)
}

function readLine (value: unknown): JournalLine | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { url, added } = value as Record<string, unknown>
  if (url !== undefined && typeof url !== 'string') return undefined
  if (added !== undefined && (typeof added !== 'string' || !HASH_PATTERN.test(added))) return undefined
  return { url, added }
}

/** The journal's lines; a torn last line (no newline after it) is cut off the file. */
async function readJournal (file: string): Promise<JournalLine[]> {
  let bytes: Buffer
  try {
    bytes = await fs.promises.readFile(file)
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return []
    throw err
  }
  const end = bytes.lastIndexOf(0x0a) + 1
  if (end < bytes.length) await fs.promises.truncate(file, end)
  const lines: JournalLine[] = []
  for (const text of bytes.subarray(0, end).toString('utf8').split('\n')) {
    if (text === '') continue
    let line: JournalLine | undefined
    try {
      line = readLine(JSON.parse(text))
    } catch {
      line = undefined
    }
    if (line !== undefined) lines.push(line)
  }
  return lines
}

/** The lines a run journaled in the earlier format (run.json with every hash and URL) carry over. */
function earlierFormat (header: Record<string, unknown>): JournalLine[] {
  const strings = (v: unknown): string[] => Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []
  return [
    ...strings(header.tried).map((url) => ({ url })),
    ...strings(header.added).filter((h) => HASH_PATTERN.test(h)).map((added) => ({ added }))
  ]
}

/**
 * Opens the journal of `run` in `dir` (the caller holds the run's lock): the lines of an
 * interrupted run of the same source and category, or a new journal.
 */
export async function openPullJournal (dir: string, run: RunIdentity): Promise<PullJournal> {
  const runFile = path.join(dir, RUN_FILE)
  const journalFile = path.join(dir, JOURNAL_FILE)
  const header = await fs.promises.readFile(runFile, 'utf8').then((t) => JSON.parse(t) as Record<string, unknown>, () => undefined)
  const same = header?.source === run.source && header.category === run.category
  let lines: JournalLine[]
  if (same && header.format === JOURNAL_FORMAT) {
    lines = await readJournal(journalFile)
  } else {
    lines = same ? earlierFormat(header) : []
    await writeAtomic(journalFile, lines.map((l) => `${JSON.stringify(l)}\n`).join(''))
    await writeAtomic(runFile, JSON.stringify({ source: run.source, category: run.category, format: JOURNAL_FORMAT }))
  }
  const added: string[] = []
  const addedSet = new Set<string>()
  const tried = new Set<string>()
  const take = (line: JournalLine): void => {
    if (line.url !== undefined) tried.add(line.url)
    if (line.added !== undefined && !addedSet.has(line.added)) {
      addedSet.add(line.added)
      added.push(line.added)
    }
  }
  for (const line of lines) take(line)
  const handle = await fs.promises.open(journalFile, 'a')
  return {
    added,
    isAdded: (hash) => addedSet.has(hash),
    tried,
    async append (line) {
      await handle.write(`${JSON.stringify(line)}\n`)
      await handle.datasync()
      take(line)
    },
    async close () { await handle.close() }
  }
}
