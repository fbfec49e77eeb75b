// `gifs pull`: fills a category from a public gif API (src/gifs/sources.ts) through the
// SSRF-safe fetcher, at the source's pace, with what attribution it gives.
//
// Resumable and idempotent. A run keeps a journal in DATA_DIR/pulls/<source>-<category>/:
// run.json and journal.jsonl (src/gifs/pull-journal.ts: one line appended per URL, with
// the hash it added) and staged/, the gifs downloaded and not yet in the catalog
// (<sha256>.gif and <sha256>.json, each by temp file + rename). A gif goes: downloaded →
// staged → stored (temp + rename) → row → journal → unstaged. Killed anywhere, the next run of the same source and category
// finishes the staged gifs first (a stored file whose row is missing gets it then; a
// staged gif already in the catalog is one the killed run added), then goes on until
// the run's count is reached. Content is compared by SHA-256 (and look, by perceptual
// hash), so nothing is added twice and no file is left without a row.
//
// What a source answers is held to what was asked: at most the page size the request
// asked for is read from each answer, and the run stops after MAX_FRUITLESS_URLS URLs in
// a row brought nothing, inside an answer as between answers (one answer listing 5,000
// dead URLs made 5,001 requests, each carrying the operator's contact: issue 35).
import fs from 'node:fs'
import path from 'node:path'
import { isAppError } from '../errors.js'
import type { RemoteFetcher } from '../remote-fetch/fetcher.js'
import { type GifFileStore, HASH_PATTERN, sha256 } from '../store/gif-files.js'
import type { GifCatalogStore } from '../store/interface.js'
import { type Attribution, createCatalogWriter, type NearDuplicateMode } from './catalog-writer.js'
import { openPullJournal, type PullJournal, writeAtomic } from './pull-journal.js'
import type { GifSource, SourcePage } from './sources.js'
import type { GifType } from './types.js'

export const PULLS_DIR_NAME = 'pulls'
/** A run gives up when this many gif URLs in a row brought nothing new (the source repeats itself). */
export const MAX_FRUITLESS_URLS = 50
/** Answers of the API itself (JSON lists) are small. */
const MAX_LIST_BYTES = 1024 * 1024

export interface PullOptions {
  source: GifSource
  baseUrl: string
  category: GifType
  /** The source's name for the category (the source's mapping unless given). */
  sourceCategory?: string
  /** Gifs this run adds to the category. */
  count: number
  store: GifCatalogStore
  files: GifFileStore
  fetcher: RemoteFetcher
  /** DATA_DIR: the journal lives in DATA_DIR/pulls. */
  dataDir: string
  /** Milliseconds between two requests to the source (API calls and downloads alike). */
  intervalMs: number
  nearDuplicates: NearDuplicateMode
  maxFruitless?: number
  onProgress?: (added: number, count: number) => void
  /** A gif not added, and why (refused, a near-duplicate, a download failure). */
  onSkip?: (url: string, reason: string) => void
  /** Something the operator should know about the source's answers, said once per run. */
  onNotice?: (message: string) => void
  sleep?: (ms: number) => Promise<void>
}

export interface PullReport {
  added: number
  /** Gifs of this run found in the catalog already (their missing attribution filled in). */
  duplicates: number
  nearDuplicates: number
  rejected: number
  /** Gifs a killed run had downloaded, finished by this one. */
  resumed: number
  /** Gifs the whole run added, killed runs before this one included. */
  runAdded: number
  /** True when the run reached its count; false when the source had nothing new to give. */
  complete: boolean
  /** Requests made to the source (lists and downloads). */
  requests: number
}

/** The pull cannot run (another one holds the journal, the source answers nonsense). */
export class PullError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'PullError'
  }
}

interface Staged { url: string, attribution: Attribution }

function errnoCode (err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code
}

function processAlive (pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return errnoCode(err) === 'EPERM'
  }
}

/** Takes the journal's lock: one run per source and category at a time; a dead holder's lock is taken over. */
async function lock (dir: string): Promise<() => Promise<void>> {
  const file = path.join(dir, 'lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.promises.writeFile(file, String(process.pid), { flag: 'wx' })
      return async () => { await fs.promises.rm(file, { force: true }) }
    } catch (err) {
      if (errnoCode(err) !== 'EEXIST') throw err
      const holder = Number(await fs.promises.readFile(file, 'utf8').catch(() => ''))
      if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && processAlive(holder)) {
        throw new PullError(`another pull of the same source and category is running (process ${holder}); wait for it, or stop it`)
      }
      await fs.promises.rm(file, { force: true })
    }
  }
  throw new PullError(`cannot take the lock ${file}`)
}

export async function pullGifs (options: PullOptions): Promise<PullReport> {
  const { source, category, store, files, fetcher } = options
  const theirs = options.sourceCategory ?? source.categories[category]
  if (theirs === undefined) throw new PullError(`${source.name} has no "${category}" gifs (it has: ${Object.keys(source.categories).join(', ')}); name its category with --source-category if it calls it otherwise`)
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const maxFruitless = options.maxFruitless ?? MAX_FRUITLESS_URLS
  const dir = path.join(options.dataDir, PULLS_DIR_NAME, `${source.name}-${category}`)
  const stagedDir = path.join(dir, 'staged')
  await fs.promises.mkdir(stagedDir, { recursive: true })
  const unlock = await lock(dir)
  const report: PullReport = { added: 0, duplicates: 0, nearDuplicates: 0, rejected: 0, resumed: 0, runAdded: 0, complete: false, requests: 0 }
  let journal: PullJournal | undefined
  try {
    // What a killed run was writing: temp files (their writer is gone, we hold the lock).
    for (const name of await fs.promises.readdir(stagedDir)) {
      if (name.startsWith('.tmp-')) await fs.promises.rm(path.join(stagedDir, name), { force: true })
    }
    for (const name of await fs.promises.readdir(dir)) {
      if (name.startsWith('.tmp-')) await fs.promises.rm(path.join(dir, name), { force: true })
    }
    journal = await openPullJournal(dir, { source: source.name, category })
    const { added, tried, append, isAdded } = journal
    const count = options.count
    await files.cleanOrphans(await store.hashes())

    const writer = createCatalogWriter({ store, files, nearDuplicates: options.nearDuplicates })
    const progress = (): void => options.onProgress?.(Math.min(added.length, count), count)

    /** Adds a staged gif; unstages it. */
    async function finishStaged (hash: string, resumed: boolean): Promise<void> {
      const gifFile = path.join(stagedDir, `${hash}.gif`)
      const metaFile = path.join(stagedDir, `${hash}.json`)
      const bytes = await fs.promises.readFile(gifFile)
      const meta = JSON.parse(await fs.promises.readFile(metaFile, 'utf8')) as Staged
      const outcome = await writer.add({ bytes, category, attribution: meta.attribution })
      // A staged gif was new when staged: found in the catalog now, the killed run added it.
      const ours = outcome.kind === 'added' || (resumed && outcome.kind === 'duplicate')
      const counted = isAdded(hash)
      await append(ours && !counted ? { url: meta.url, added: hash } : { url: meta.url })
      if (ours && !counted) {
        report.added++
        if (resumed) report.resumed++
      } else if (outcome.kind === 'duplicate') {
        report.duplicates++
      } else if (outcome.kind === 'near-duplicate') {
        report.nearDuplicates++
        options.onSkip?.(meta.url, `looks like gif ${outcome.of.id} of the category (${outcome.of.distance} bits apart): skipped`)
      } else if (outcome.kind === 'rejected') {
        report.rejected++
        options.onSkip?.(meta.url, outcome.reason)
      }
      await fs.promises.rm(metaFile, { force: true })
      await fs.promises.rm(gifFile, { force: true })
      progress()
    }

    for (const name of (await fs.promises.readdir(stagedDir)).sort()) {
      const hash = name.endsWith('.gif') ? name.slice(0, -4) : undefined
      if (hash === undefined || !HASH_PATTERN.test(hash)) continue
      if (!fs.existsSync(path.join(stagedDir, `${hash}.json`))) { await fs.promises.rm(path.join(stagedDir, name), { force: true }); continue }
      await finishStaged(hash, true)
    }
    progress()

    let last = 0
    // The interval runs from the end of one answer to the start of the next request: a
    // source then never sees two requests closer than it, however long a connection took
    // to open (counted from the start, a slow connect brought two arrivals 59 ms apart).
    const paced = async <T>(work: () => Promise<T>): Promise<T> => {
      const wait = last + options.intervalMs - Date.now()
      if (wait > 0) await sleep(wait)
      report.requests++
      try {
        return await work()
      } finally {
        last = Date.now()
      }
    }

    let fruitless = 0
    let toldLongAnswer = false
    while (added.length < count && fruitless < maxFruitless) {
      const want = Math.min(source.maxPerRequest, count - added.length)
      const req = source.request(options.baseUrl, theirs, want)
      const answer = await paced(() => fetcher.fetch(req.url, `${source.name} ${theirs}`, { method: req.method, json: req.json, accept: 'application/json' }))
      if (answer.bytes.length > MAX_LIST_BYTES) throw new PullError(`${source.name} answered ${answer.bytes.length} bytes for a list (at most ${MAX_LIST_BYTES})`)
      let page: SourcePage
      try {
        page = source.parse(JSON.parse(answer.bytes.toString('utf8')), req.pageSize)
      } catch (err) {
        // The source's own words last: a terminal may cut them (src/cli/terminal-text.ts), not the advice.
        throw new PullError(`${source.name} answered ${req.url} in a shape this command does not read: check --base-url, or the source changed its API (${(err as Error).message})`)
      }
      if (page.listed > page.gifs.length && !toldLongAnswer) {
        toldLongAnswer = true
        options.onNotice?.(`${source.name} listed ${page.listed} gifs in an answer to a request for ${req.pageSize}: only the first ${req.pageSize} of each answer are read`)
      }
      if (page.gifs.length === 0) fruitless++
      for (const gif of page.gifs) {
        if (added.length >= count || fruitless >= maxFruitless) break
        if (tried.has(gif.url)) { fruitless++; continue }
        let bytes: Buffer
        try {
          bytes = (await paced(() => fetcher.fetch(gif.url, `${source.name} gif`, { accept: 'image/gif' }))).bytes
        } catch (err) {
          if (!isAppError(err)) throw err
          report.rejected++
          fruitless++
          options.onSkip?.(gif.url, err.message)
          await append({ url: gif.url })
          continue
        }
        const hash = sha256(bytes)
        if (await store.has(category, { hash })) {
          // Already there: only its attribution may be new.
          await writer.add({ bytes, category, attribution: gif.attribution })
          report.duplicates++
          fruitless++
          await append({ url: gif.url })
          continue
        }
        await writeAtomic(path.join(stagedDir, `${hash}.json`), JSON.stringify({ url: gif.url, attribution: gif.attribution } satisfies Staged))
        await writeAtomic(path.join(stagedDir, `${hash}.gif`), bytes)
        const before = added.length
        await finishStaged(hash, false)
        fruitless = added.length > before ? 0 : fruitless + 1
      }
    }
    report.runAdded = added.length
    report.complete = added.length >= count
    await journal.close()
    journal = undefined
    // Finished (or the source has nothing new): the next pull is a new run.
    await fs.promises.rm(dir, { recursive: true, force: true })
    return report
  } finally {
    await journal?.close()
    await unlock()
  }
}
