// Importing gifs into the catalog: a pack (a folder with manifest.json, or a .tar.gz or
// .zip of one: docs/gif-packs.md), a folder laid out as <folder>/<category>/<file>, a
// flat folder with a given category, or one file with a given category. Each file is
// all or nothing (src/gifs/catalog-writer.ts): checked, copied under its hash (temp file
// + rename), and only then added to the catalog, so an interrupted import leaves at most
// a file without a row, which the next import deletes.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sha256 } from '../store/gif-files.js'
import type { GifFileStore } from '../store/gif-files.js'
import { type GifCatalogStore, StoreConflictError } from '../store/interface.js'
import { type Attribution, createCatalogWriter, type NearDuplicateMode } from './catalog-writer.js'
import { GIF_CONTENT_TYPE } from './gif-info.js'
import { ArchiveError, archiveKind, type ArchiveLimits, DEFAULT_ARCHIVE_LIMITS, MAX_PACK_DEPTH, unpackArchive, type UnpackProgress } from './pack-archive.js'
import { MANIFEST_NAME, ManifestError, MAX_MANIFEST_BYTES, parseManifest } from './pack-manifest.js'
import { createUnpackFolder, removeStaleUnpackFolders, type UnpackFolder } from './unpack-folder.js'
import { GIF_TYPES, isGifType } from './types.js'

/** Larger files are refused before being read. */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024

export interface ImportOptions {
  /** A folder, or (with `category`) a single gif file. */
  folder: string
  /**
   * Import a flat folder, or the one file `folder` names, into this category instead of
   * <category>/ subfolders; in a pack, the category of entries that name none.
   */
  category?: string
  dryRun?: boolean
  /** A gif that looks like one of its category (perceptual hash): not added, added and reported, or added. Default 'report'. */
  nearDuplicates?: NearDuplicateMode
  /** Where an archive is unpacked (a fresh folder inside, removed at the end); the system's temporary folder by default. */
  workDir?: string
  archiveLimits?: ArchiveLimits
  store: GifCatalogStore
  /** Where the bytes go (src/store/gif-files.ts). */
  files: GifFileStore
  /** Called after each file. */
  onProgress?: (done: number, total: number, file: string) => void
  /** Called as an archive's entries are unpacked. */
  onUnpackProgress?: UnpackProgress
  /** Called for each rejected file, as it happens. */
  onReject?: (file: string, reason: string) => void
  /** Called for each near-duplicate, as it happens. */
  onNearDuplicate?: (file: string, of: number, distance: number, added: boolean) => void
  /** Called once the files are known: what is imported (a pack, a folder, a file). */
  onStart?: (what: { kind: 'pack' | 'folder' | 'file', total: number, archive?: string }) => void
}

export interface ImportReport {
  /** Files added (or, with dryRun, that would be added). */
  added: Array<{ file: string, category: string, id?: number, width: number, height: number, frames: number }>
  duplicates: Array<{ file: string, category: string }>
  /** Duplicates whose missing attribution this import filled in. */
  attributed: Array<{ file: string, category: string, id: number }>
  /** Gifs that look like one their category holds: skipped (--near-duplicates skip) or added and reported. */
  nearDuplicates: Array<{ file: string, category: string, of: number, distance: number, added: boolean }>
  rejected: Array<{ file: string, reason: string }>
  /** Files left by an earlier interrupted run, and unpack folders of runs that crashed, deleted before this one. */
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

interface Candidate {
  /** The file to read, or undefined for an external entry of a pack. */
  file?: string
  /** How the candidate is named in messages. */
  label: string
  category: string
  attribution?: Attribution
  sha256?: string
  hidden?: boolean
  /** An external entry (a pack's "url"). */
  url?: string
  size?: { width: number, height: number, frames: number }
}

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
    if (stat.isFile() && category !== undefined) return [{ file: folder, label: folder, category }]
    if (stat.isFile()) throw new ImportError(`"${folder}" is a file, not a folder of <category>/<file>.gif: name its category to import it alone (gifs import ${folder} --category NAME)`)
    throw new ImportError(`"${folder}" is not a folder or a file`)
  }

  const candidates: Candidate[] = []
  const filesOf = async (dir: string, cat: string): Promise<void> => {
    for (const entry of await readDir(dir)) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) reject(file, 'a folder inside a category folder: not imported (files only, one level)')
      else candidates.push({ file, label: file, category: cat })
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

/**
 * Reads a pack's manifest into candidates; entries it refuses are reported. `unpacked`:
 * the pack came as an archive, which holds nothing deeper than <category>/<file>.
 */
async function collectPack (packDir: string, category: string | undefined, unpacked: boolean, reject: (file: string, reason: string) => void): Promise<Candidate[]> {
  const manifestPath = path.join(packDir, MANIFEST_NAME)
  // Bounded before a byte of it is read (src/gifs/pack-manifest.ts bounds what it holds).
  const stat = await fs.promises.stat(manifestPath)
  if (stat.size > MAX_MANIFEST_BYTES) throw new ImportError(`${MANIFEST_NAME} is ${stat.size} bytes (at most ${MAX_MANIFEST_BYTES}): split the pack`)
  let parsed
  try {
    parsed = parseManifest(await fs.promises.readFile(manifestPath, 'utf8'), (_index, label, reason) => reject(label, reason))
  } catch (err) {
    if (err instanceof ManifestError) throw new ImportError(err.message)
    throw new ImportError(`Cannot read ${manifestPath} (${errnoText(err)})`)
  }
  // Files are checked against the pack's real location: a link inside a folder pack
  // that leads out of it is refused like a "../" path.
  const realPack = await fs.promises.realpath(packDir)
  const candidates: Candidate[] = []
  for (const entry of parsed.entries) {
    const label = `${MANIFEST_NAME} gifs[${entry.index}] (${entry.file ?? entry.url})`
    const cat = entry.category ?? category
    if (cat === undefined) { reject(label, 'no "category", and no --category given'); continue }
    if (!isGifType(cat)) { reject(label, `"${cat}" is not a gif type: use one of ${GIF_TYPES.join(', ')}`); continue }
    const base = { label, category: cat, attribution: entry.attribution, sha256: entry.sha256, hidden: entry.hidden }
    if (entry.url !== undefined) {
      candidates.push({ ...base, url: entry.url, size: { width: entry.width ?? 0, height: entry.height ?? 0, frames: entry.frames ?? 0 } })
      continue
    }
    if (unpacked && entry.file!.split('/').length > MAX_PACK_DEPTH) { reject(label, 'a path deeper than <category>/<file>, which a pack archive never holds'); continue }
    const file = path.join(packDir, ...entry.file!.split('/'))
    const real = await fs.promises.realpath(file).catch(() => undefined)
    if (real !== undefined && !real.startsWith(realPack + path.sep)) { reject(label, 'the file is a link leading out of the pack'); continue }
    candidates.push({ ...base, file })
  }
  return candidates
}

async function isPack (folder: string): Promise<boolean> {
  return (await fs.promises.stat(path.join(folder, MANIFEST_NAME)).catch(() => undefined))?.isFile() === true
}

export async function importGifs (options: ImportOptions): Promise<ImportReport> {
  const { store, dryRun = false } = options
  const category = options.category?.trim().toLowerCase()
  if (category !== undefined && !isGifType(category)) {
    throw new ImportError(`"${options.category}" is not a gif type: use one of ${GIF_TYPES.join(', ')}`)
  }
  const report: ImportReport = { added: [], duplicates: [], attributed: [], nearDuplicates: [], rejected: [], cleaned: [], dryRun }
  const reject = (file: string, reason: string): void => {
    report.rejected.push({ file, reason })
    options.onReject?.(file, reason)
  }

  let unpackFolder: UnpackFolder | undefined
  try {
    let folder = options.folder
    let kind: 'pack' | 'folder' | 'file' = 'folder'
    const stat = await fs.promises.stat(folder).catch(() => undefined)
    if (stat?.isFile() === true && (await archiveKind(folder).catch(() => undefined)) !== undefined) {
      const workDir = options.workDir ?? os.tmpdir()
      report.cleaned.push(...await removeStaleUnpackFolders(workDir))
      unpackFolder = createUnpackFolder(workDir)
      let unpackReport
      try {
        unpackReport = await unpackArchive(folder, unpackFolder.path, options.archiveLimits ?? DEFAULT_ARCHIVE_LIMITS, options.onUnpackProgress)
      } catch (err) {
        if (err instanceof ArchiveError) throw new ImportError(`Cannot unpack "${folder}": ${err.message}`)
        throw err
      }
      for (const r of unpackReport.refused) reject(`${folder}: ${r.entry}`, r.reason)
      if (!(await isPack(unpackFolder.path))) throw new ImportError(`"${folder}" holds no ${MANIFEST_NAME} at its top: a pack archive is a folder with ${MANIFEST_NAME}, packed from inside it (tar -czf pack.tar.gz -C FOLDER .)`)
      folder = unpackFolder.path
    }
    let candidates: Candidate[]
    if (stat?.isDirectory() === true && await isPack(folder)) kind = 'pack'
    if (unpackFolder !== undefined) kind = 'pack'
    if (kind === 'pack') {
      candidates = await collectPack(folder, category, unpackFolder !== undefined, reject)
    } else {
      candidates = await collect(folder, category, reject)
      if (stat?.isFile() === true) kind = 'file'
    }
    options.onStart?.({ kind, total: candidates.length, archive: unpackFolder !== undefined ? options.folder : undefined })
    if (!dryRun) report.cleaned.push(...await options.files.cleanOrphans(await store.hashes()))
    await importCandidates(candidates)
  } finally {
    await unpackFolder?.remove()
  }
  return report

  /**
   * Each file is read and hashed once, however many entries name it (a manifest may name
   * one file in several categories, or 20,000 times): its entries are taken together,
   * in the order of the first, and the writer decodes each content at most once a run.
   */
  async function importCandidates (candidates: Candidate[]): Promise<void> {
    const writer = createCatalogWriter({ store, files: options.files, nearDuplicates: options.nearDuplicates ?? 'report', dryRun })
    const byFile = new Map<string, Candidate[]>()
    const order: Array<Candidate | Candidate[]> = []
    for (const candidate of candidates) {
      if (candidate.url !== undefined) { order.push(candidate); continue }
      const group = byFile.get(candidate.file!)
      if (group !== undefined) { group.push(candidate); continue }
      const fresh = [candidate]
      byFile.set(candidate.file!, fresh)
      order.push(fresh)
    }
    let done = 0
    for (const item of order) {
      if (!Array.isArray(item)) {
        await importUrl(item)
        options.onProgress?.(++done, candidates.length, item.label)
        continue
      }
      const read = await readCandidate(item[0]!.file!)
      for (const candidate of item) {
        if ('reason' in read) reject(candidate.label, read.reason)
        else await importOne(candidate, read.bytes, read.hash, writer)
        options.onProgress?.(++done, candidates.length, candidate.label)
      }
    }
  }

  async function readCandidate (file: string): Promise<{ bytes: Buffer, hash: string } | { reason: string }> {
    try {
      const stat = await fs.promises.stat(file)
      if (!stat.isFile()) return { reason: 'not a regular file' }
      if (stat.size > MAX_IMPORT_BYTES) return { reason: `too large: ${stat.size} bytes (at most ${MAX_IMPORT_BYTES})` }
      const bytes = await fs.promises.readFile(file)
      return { bytes, hash: sha256(bytes) }
    } catch (err) {
      return { reason: `cannot read the file (${errnoText(err)})` }
    }
  }

  async function importOne (candidate: Candidate, bytes: Buffer, hash: string, writer: ReturnType<typeof createCatalogWriter>): Promise<void> {
    const { label, category: cat } = candidate
    const outcome = await writer.add({ bytes, sha256: hash, category: cat, attribution: candidate.attribution, expectedSha256: candidate.sha256, hidden: candidate.hidden })
    switch (outcome.kind) {
      case 'rejected': return reject(label, outcome.reason)
      case 'duplicate':
        report.duplicates.push({ file: label, category: cat })
        if (outcome.attributed) report.attributed.push({ file: label, category: cat, id: outcome.id })
        return
      case 'near-duplicate':
        report.nearDuplicates.push({ file: label, category: cat, of: outcome.of.id, distance: outcome.of.distance, added: false })
        options.onNearDuplicate?.(label, outcome.of.id, outcome.of.distance, false)
        return
      case 'added':
        report.added.push({ file: label, category: cat, id: outcome.id, width: outcome.width, height: outcome.height, frames: outcome.frames })
        if (outcome.nearDuplicateOf !== undefined) {
          report.nearDuplicates.push({ file: label, category: cat, of: outcome.nearDuplicateOf.id, distance: outcome.nearDuplicateOf.distance, added: true })
          options.onNearDuplicate?.(label, outcome.nearDuplicateOf.id, outcome.nearDuplicateOf.distance, true)
        }
    }
  }

  /** A pack's external entry: added as `gifs add-url` adds one. */
  async function importUrl (candidate: Candidate): Promise<void> {
    const { label, category: cat, url } = candidate
    if (await store.has(cat, { url })) {
      report.duplicates.push({ file: label, category: cat })
      return
    }
    const size = candidate.size!
    const entry = { file: label, category: cat, ...size }
    if (dryRun) { report.added.push(entry); return }
    const a = candidate.attribution ?? {}
    try {
      const [record] = await store.add([{ category: cat, hash: null, url: url!, size: 0, ...size, contentType: GIF_CONTENT_TYPE, animeName: a.animeName ?? null, artist: a.artist ?? null, artistUrl: a.artistUrl ?? null, sourceUrl: a.sourceUrl ?? null }])
      if (candidate.hidden === true) await store.hide(record!.id)
      report.added.push({ ...entry, id: record!.id })
    } catch (err) {
      if (err instanceof StoreConflictError) report.duplicates.push({ file: label, category: cat })
      else throw err
    }
  }
}
