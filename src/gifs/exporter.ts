// Writing the catalog as a gif pack (docs/gif-packs.md): <category>/<sha256>.gif for
// each local gif, and manifest.json with every entry's category, hash, attribution and
// hidden flag, plus the external (URL) entries. The folder is also a plain
// <category>/<file> folder, and `gifs import` of it on another install gives the same
// categories, hashes and attribution. The manifest is written last (temp file +
// rename): a folder without it is an export that did not finish.
import fs from 'node:fs'
import path from 'node:path'
import type { GifFileStore } from '../store/gif-files.js'
import type { GifCatalogStore, GifRecord } from '../store/interface.js'
import { MANIFEST_NAME, type ManifestEntryOut, PACK_VERSION } from './pack-manifest.js'
import { GIF_TYPES, isGifType } from './types.js'
import { ImportError } from './importer.js'

const EXPORT_PAGE = 1000

export interface ExportOptions {
  store: GifCatalogStore
  files: GifFileStore
  /** A folder that does not exist yet, or an empty one. */
  dir: string
  category?: string
  /** Written into the manifest as "generator". */
  generator?: string
  onProgress?: (done: number, file: string) => void
}

export interface ExportReport {
  files: number
  external: number
  /** Gifs whose bytes this install does not have (not exported). */
  missing: Array<{ id: number, hash: string }>
}

function entryOf (g: GifRecord, file?: string): ManifestEntryOut {
  const e: ManifestEntryOut = file !== undefined ? { file, category: g.category, sha256: g.hash! } : { url: g.url!, category: g.category, width: g.width, height: g.height, frames: g.frames }
  if (g.animeName) e.anime_name = g.animeName
  if (g.artist) e.artist = g.artist
  if (g.artistUrl) e.artist_url = g.artistUrl
  if (g.sourceUrl) e.source_url = g.sourceUrl
  if (g.hidden) e.hidden = true
  return e
}

export async function exportPack (options: ExportOptions): Promise<ExportReport> {
  const { store, files, dir } = options
  const category = options.category?.trim().toLowerCase()
  if (category !== undefined && !isGifType(category)) throw new ImportError(`"${options.category}" is not a gif type: use one of ${GIF_TYPES.join(', ')}`)
  const existing = await fs.promises.readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined
    throw new ImportError(`Cannot use "${dir}" (${err.code ?? err.message})`)
  })
  if (existing !== undefined && existing.length > 0) throw new ImportError(`"${dir}" is not empty: export into a new or empty folder`)
  await fs.promises.mkdir(dir, { recursive: true })

  const report: ExportReport = { files: 0, external: 0, missing: [] }
  const entries: ManifestEntryOut[] = []
  let done = 0
  for (let afterId = 0; ;) {
    const page = await store.list({ category, limit: EXPORT_PAGE, afterId })
    for (const g of page) {
      if (g.hash === null) {
        entries.push(entryOf(g))
        report.external++
      } else {
        const bytes = await files.read(g.hash)
        if (bytes === undefined) { report.missing.push({ id: g.id, hash: g.hash }); continue }
        const rel = `${g.category}/${g.hash}.gif`
        await fs.promises.mkdir(path.join(dir, g.category), { recursive: true })
        await fs.promises.writeFile(path.join(dir, rel), bytes, { flag: 'wx' })
        entries.push(entryOf(g, rel))
        report.files++
      }
      options.onProgress?.(++done, g.hash ?? g.url ?? String(g.id))
    }
    if (page.length < EXPORT_PAGE) break
    afterId = page.at(-1)!.id
  }
  const manifest = {
    version: PACK_VERSION,
    generator: options.generator,
    exported_at: new Date().toISOString(),
    gifs: entries
  }
  const temp = path.join(dir, `.${MANIFEST_NAME}.tmp`)
  await fs.promises.writeFile(temp, JSON.stringify(manifest, null, 2) + '\n', { flag: 'wx' })
  await fs.promises.rename(temp, path.join(dir, MANIFEST_NAME))
  return report
}
