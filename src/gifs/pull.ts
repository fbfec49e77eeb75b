// `gifs pull`: fills a category from a public gif API (src/gifs/sources.ts) through the
// SSRF-safe fetcher, at the source's pace, with what attribution it gives.
//
// Resumable and idempotent. A run keeps a journal in DATA_DIR/pulls/<source>-<category>/:
// run.json (the run's target, the hashes it added and the URLs it tried) and staged/, the
// gifs downloaded and not yet in the catalog (<sha256>.gif and <sha256>.json, each by
// temp file + rename). A gif goes: downloaded → staged → stored (temp + rename) → row →
// journal → unstaged. Killed anywhere, the next run of the same source and category
// finishes the staged gifs first (a stored file whose row is missing gets it then; a
// staged gif already in the catalog is one the killed run added), then goes on until
// the run's count is reached. Content is compared by SHA-256 (and look, by perceptual
// hash), so nothing is added twice and no file is left without a row.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { isAppError } from '../errors.js'
import type { RemoteFetcher } from '../remote-fetch/fetcher.js'
import { type GifFileStore, HASH_PATTERN, sha256 } from '../store/gif-files.js'
import type { GifCatalogStore } from '../store/interface.js'
import { type Attribution, createCatalogWriter, type NearDuplicateMode } from './catalog-writer.js'
import type { GifSource } from './sources.js'
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

interface RunState {
  source: string
  category: string
  count: number
  /** Hashes this run added, in order. */
  added: string[]
  /** URLs this run has downloaded (or failed to), not to ask for twice. */
  tried: string[]
}

interface Staged { url: string, attribution: Attribution }

function errnoCode (err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code
}

async function writeAtomic (file: string, data: string | Uint8Array): Promise<void> {
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
  try {
    const stateFile = path.join(dir, 'run.json')
    const previous = await fs.promises.readFile(stateFile, 'utf8').then((t) => JSON.parse(t) as RunState, () => undefined)
    const state: RunState = previous?.source === source.name && previous.category === category
      ? { ...previous, count: options.count }
      : { source: source.name, category, count: options.count, added: [], tried: [] }
    const addedSet = new Set(state.added)
    const tried = new Set(state.tried)
    const saveState = async (): Promise<void> => {
      state.tried = [...tried]
      await writeAtomic(stateFile, JSON.stringify(state))
    }
    // What a killed run was writing: temp files (their writer is gone, we hold the lock).
    for (const name of await fs.promises.readdir(stagedDir)) {
      if (name.startsWith('.tmp-')) await fs.promises.rm(path.join(stagedDir, name), { force: true })
    }
    for (const name of await fs.promises.readdir(dir)) {
      if (name.startsWith('.tmp-')) await fs.promises.rm(path.join(dir, name), { force: true })
    }
    await files.cleanOrphans(await store.hashes())

    const writer = createCatalogWriter({ store, files, nearDuplicates: options.nearDuplicates })
    const progress = (): void => options.onProgress?.(Math.min(state.added.length, state.count), state.count)

    /** Adds a staged gif; unstages it. */
    async function finishStaged (hash: string, resumed: boolean): Promise<void> {
      const gifFile = path.join(stagedDir, `${hash}.gif`)
      const metaFile = path.join(stagedDir, `${hash}.json`)
      const bytes = await fs.promises.readFile(gifFile)
      const meta = JSON.parse(await fs.promises.readFile(metaFile, 'utf8')) as Staged
      const outcome = await writer.add({ bytes, category, attribution: meta.attribution })
      // A staged gif was new when staged: found in the catalog now, the killed run added it.
      const ours = outcome.kind === 'added' || (resumed && outcome.kind === 'duplicate')
      if (ours && !addedSet.has(hash)) {
        addedSet.add(hash)
        state.added.push(hash)
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
      await saveState()
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
    const paced = async <T>(work: () => Promise<T>): Promise<T> => {
      const wait = last + options.intervalMs - Date.now()
      if (wait > 0) await sleep(wait)
      last = Date.now()
      report.requests++
      return await work()
    }

    let fruitless = 0
    while (state.added.length < state.count && fruitless < maxFruitless) {
      const want = Math.min(source.maxPerRequest, state.count - state.added.length)
      const req = source.request(options.baseUrl, theirs, want)
      const answer = await paced(() => fetcher.fetch(req.url, `${source.name} ${theirs}`, { method: req.method, json: req.json, accept: 'application/json' }))
      if (answer.bytes.length > MAX_LIST_BYTES) throw new PullError(`${source.name} answered ${answer.bytes.length} bytes for a list (at most ${MAX_LIST_BYTES})`)
      let gifs
      try {
        gifs = source.parse(JSON.parse(answer.bytes.toString('utf8')))
      } catch (err) {
        throw new PullError(`${source.name} answered ${req.url} in a shape this command does not read (${(err as Error).message}): check --base-url, or the source changed its API`)
      }
      if (gifs.length === 0) fruitless++
      for (const gif of gifs) {
        if (state.added.length >= state.count) break
        if (tried.has(gif.url)) { fruitless++; continue }
        tried.add(gif.url)
        let bytes: Buffer
        try {
          bytes = (await paced(() => fetcher.fetch(gif.url, `${source.name} gif`, { accept: 'image/gif' }))).bytes
        } catch (err) {
          if (!isAppError(err)) throw err
          report.rejected++
          fruitless++
          options.onSkip?.(gif.url, err.message)
          await saveState()
          continue
        }
        const hash = sha256(bytes)
        if (await store.has(category, { hash })) {
          // Already there: only its attribution may be new.
          await writer.add({ bytes, category, attribution: gif.attribution })
          report.duplicates++
          fruitless++
          await saveState()
          continue
        }
        await writeAtomic(path.join(stagedDir, `${hash}.json`), JSON.stringify({ url: gif.url, attribution: gif.attribution } satisfies Staged))
        await writeAtomic(path.join(stagedDir, `${hash}.gif`), bytes)
        const before = state.added.length
        await finishStaged(hash, false)
        fruitless = state.added.length > before ? 0 : fruitless + 1
      }
    }
    report.runAdded = state.added.length
    report.complete = state.added.length >= state.count
    // Finished (or the source has nothing new): the next pull is a new run.
    await fs.promises.rm(dir, { recursive: true, force: true })
    return report
  } finally {
    await unlock()
  }
}
