// Importing a folder of gifs into the catalog: <folder>/<category>/<file>, or a flat
// folder with a given category, or one file with a given category. Each file is all or nothing: checked, copied under its
// hash (temp file + rename), and only then added to the catalog, so an interrupted
// import leaves at most a file without a row, which the next import deletes.
import fs from 'node:fs'
import path from 'node:path'
import { type GifFileStore, sha256 } from '../store/gif-files.js'
import { type GifCatalogStore, StoreConflictError } from '../store/interface.js'
import { GifInvalidError, inspectGif } from './gif-info.js'
import { GIF_TYPES, isGifType } from './types.js'

/** Larger files are refused before being read. */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024

export interface ImportOptions {
  /** A folder, or (with `category`) a single gif file. */
  folder: string
  /** Import a flat folder, or the one file `folder` names, into this category instead of <category>/ subfolders. */
  category?: string
  dryRun?: boolean
  store: GifCatalogStore
  /** Where the bytes go (src/store/gif-files.ts). */
  files: GifFileStore
  /** Called after each file. */
  onProgress?: (done: number, total: number, file: string) => void
  /** Called for each rejected file, as it happens. */
  onReject?: (file: string, reason: string) => void
}

export interface ImportReport {
  /** Files added (or, with dryRun, that would be added). */
  added: Array<{ file: string, category: string, id?: number, width: number, height: number, frames: number }>
  duplicates: Array<{ file: string, category: string }>
  rejected: Array<{ file: string, reason: string }>
  /** Files left by an earlier interrupted run, deleted before this one. */
  cleaned: string[]
  dryRun: boolean
}

/** The import cannot start at all (a missing folder, an unknown category). */
export class ImportError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'ImportError'
  }
}

interface Candidate { file: string, category: string }

function errnoText (err: unknown): string {
  const e = err as NodeJS.ErrnoException
  return e.code ? `${e.code}: ${e.message.replace(/^\w+: /, '')}` : String(e?.message ?? err)
}

async function readDir (dir: string): Promise<fs.Dirent[]> {
  const entries = await fs.promises.readdir(dir, { withFileTypes: true })
  // Hidden files (.DS_Store, editors' leftovers) are not candidates.
  return entries.filter((e) => !e.name.startsWith('.')).sort((a, b) => a.name.localeCompare(b.name))
}

async function collect (folder: string, category: string | undefined, reject: (file: string, reason: string) => void): Promise<Candidate[]> {
  let stat: fs.Stats
  try {
    stat = await fs.promises.stat(folder)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ImportError(`The folder "${folder}" does not exist`)
    throw new ImportError(`Cannot read the folder "${folder}" (${errnoText(err)})`)
  }
  if (!stat.isDirectory()) {
    // One file has no category folder to take its category from: --category gives it.
    if (stat.isFile() && category !== undefined) return [{ file: folder, category }]
    if (stat.isFile()) throw new ImportError(`"${folder}" is a file, not a folder of <category>/<file>.gif: name its category to import it alone (gifs import ${folder} --category NAME)`)
    throw new ImportError(`"${folder}" is not a folder or a file`)
  }

  const candidates: Candidate[] = []
  const filesOf = async (dir: string, cat: string): Promise<void> => {
    for (const entry of await readDir(dir)) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) reject(file, 'a folder inside a category folder: not imported (files only, one level)')
      else candidates.push({ file, category: cat })
    }
  }

  try {
    if (category !== undefined) {
      await filesOf(folder, category)
      return candidates
    }
    for (const entry of await readDir(folder)) {
      const full = path.join(folder, entry.name)
      const cat = entry.name.toLowerCase()
      const isDir = entry.isDirectory() || (entry.isSymbolicLink() && (await fs.promises.stat(full).catch(() => undefined))?.isDirectory() === true)
      if (!isDir) reject(full, 'not inside a category folder: lay the folder out as <category>/<file>.gif, or use --category NAME for a flat folder')
      else if (!isGifType(cat)) reject(full, `"${entry.name}" is not a gif type: use one of ${GIF_TYPES.join(', ')}`)
      else await filesOf(full, cat)
    }
  } catch (err) {
    if (err instanceof ImportError) throw err
    throw new ImportError(`Cannot list the folder "${folder}" (${errnoText(err)})`)
  }
  return candidates
}

export async function importGifs (options: ImportOptions): Promise<ImportReport> {
  const { store, dryRun = false } = options
  const category = options.category?.trim().toLowerCase()
  if (category !== undefined && !isGifType(category)) {
    throw new ImportError(`"${options.category}" is not a gif type: use one of ${GIF_TYPES.join(', ')}`)
  }
  const report: ImportReport = { added: [], duplicates: [], rejected: [], cleaned: [], dryRun }
  const reject = (file: string, reason: string): void => {
    report.rejected.push({ file, reason })
    options.onReject?.(file, reason)
  }

  const candidates = await collect(options.folder, category, reject)
  if (!dryRun) report.cleaned = await options.files.cleanOrphans(await store.hashes())

  // Hashes of this run: two copies of one file in the folder count as a duplicate too.
  const seen = new Set<string>()
  let done = 0
  for (const { file, category: cat } of candidates) {
    await importOne(file, cat)
    options.onProgress?.(++done, candidates.length, file)
  }
  return report

  async function importOne (file: string, cat: string): Promise<void> {
    let bytes: Buffer
    try {
      const stat = await fs.promises.stat(file)
      if (!stat.isFile()) return reject(file, 'not a regular file')
      if (stat.size > MAX_IMPORT_BYTES) return reject(file, `too large: ${stat.size} bytes (at most ${MAX_IMPORT_BYTES})`)
      bytes = await fs.promises.readFile(file)
    } catch (err) {
      return reject(file, `cannot read the file (${errnoText(err)})`)
    }
    let info
    try {
      info = await inspectGif(bytes)
    } catch (err) {
      if (err instanceof GifInvalidError) return reject(file, err.message)
      return reject(file, `corrupt GIF: ${(err as Error).message}`)
    }
    const hash = sha256(bytes)
    const key = `${cat}/${hash}`
    if (seen.has(key) || await store.has(cat, { hash })) {
      report.duplicates.push({ file, category: cat })
      return
    }
    seen.add(key)
    const entry = { file, category: cat, width: info.width, height: info.height, frames: info.frames }
    if (dryRun) {
      report.added.push(entry)
      return
    }
    await options.files.put(hash, bytes)
    try {
      const [record] = await store.add([{ category: cat, hash, url: null, size: bytes.length, width: info.width, height: info.height, frames: info.frames, contentType: info.contentType }])
      report.added.push({ ...entry, id: record!.id })
    } catch (err) {
      // Another import added the same gif between our check and our insert.
      if (err instanceof StoreConflictError) report.duplicates.push({ file, category: cat })
      else throw err
    }
  }
}
