// Adding one gif's bytes to the catalog, for every way in (a folder, a pack, a pull from
// an API): named by its SHA-256, compared with the category by content, and only when
// new checked (a real GIF, every frame decoded) and compared by look (perceptual hash),
// stored (temp file + rename) and only then given its row, so an interrupted run leaves
// at most a file without a row. The gif already in the category is a duplicate, whose
// missing attribution is filled in from what came with the copy. Hashing comes before
// decoding, and a writer (one run) decodes each content at most once, whatever the
// number of entries or categories naming it: a manifest naming one 18 KB gif 15 times
// cost 15 decodes, 41 s.
import type { GifFileStore } from '../store/gif-files.js'
import { sha256 } from '../store/gif-files.js'
import { type GifAttribution, type GifCatalogStore, type GifRecord, StoreConflictError } from '../store/interface.js'
import { type GifInfo, GifInvalidError, inspectGif } from './gif-info.js'
import { hammingDistance, NEAR_DUPLICATE_MAX_DISTANCE, perceptualHash } from './perceptual-hash.js'

/** What is done with a gif that looks like one the category holds (another file, nearly the same picture). */
export type NearDuplicateMode = 'skip' | 'report' | 'keep'
export const NEAR_DUPLICATE_MODES: readonly NearDuplicateMode[] = ['skip', 'report', 'keep']

/** What a source says about a gif: who made it, where it comes from. */
export interface Attribution {
  animeName?: string | null
  artist?: string | null
  artistUrl?: string | null
  sourceUrl?: string | null
}

const ATTRIBUTION_FIELDS = ['animeName', 'artist', 'artistUrl', 'sourceUrl'] as const

/** Rows read per page when a category's hashes are first needed. */
const INDEX_PAGE = 1000

export interface GifToAdd {
  bytes: Buffer
  /** The SHA-256 of `bytes`, when the caller has it already. */
  sha256?: string
  category: string
  attribution?: Attribution
  /** A hash the source gave (a pack's manifest): the bytes must match it. */
  expectedSha256?: string
  /** Hidden on arrival (a pack exported with hidden gifs). */
  hidden?: boolean
}

export type AddOutcome =
  | { kind: 'added', hash: string, width: number, height: number, frames: number, id?: number, nearDuplicateOf?: NearMatch }
  | { kind: 'duplicate', hash: string, id: number, attributed: boolean }
  | { kind: 'near-duplicate', hash: string, of: NearMatch }
  | { kind: 'rejected', reason: string }

export interface NearMatch { id: number, distance: number }

export interface CatalogWriterOptions {
  store: GifCatalogStore
  files: GifFileStore
  nearDuplicates: NearDuplicateMode
  /** Bits of 192 (src/gifs/perceptual-hash.ts). */
  nearDistance?: number
  dryRun?: boolean
}

interface Known { id: number, hash: string, phash: string | null, attribution: Attribution }

type Decoded = { info: GifInfo, phash: string } | { reason: string }

async function decode (bytes: Buffer): Promise<Decoded> {
  let info
  try {
    info = await inspectGif(bytes)
  } catch (err) {
    if (err instanceof GifInvalidError) return { reason: err.message }
    return { reason: `corrupt GIF: ${(err as Error).message}` }
  }
  return { info, phash: await perceptualHash(bytes, info.frames) }
}

export interface CatalogWriter {
  add (gif: GifToAdd): Promise<AddOutcome>
}

function cleanAttribution (a: Attribution | undefined): Attribution {
  const out: Attribution = {}
  for (const field of ATTRIBUTION_FIELDS) {
    const value = a?.[field]
    if (typeof value === 'string' && value.trim() !== '') out[field] = value.trim()
  }
  return out
}

export function createCatalogWriter (options: CatalogWriterOptions): CatalogWriter {
  const { store, files, nearDuplicates, dryRun = false } = options
  const nearDistance = options.nearDistance ?? NEAR_DUPLICATE_MAX_DISTANCE
  /** Per category: its gifs by hash, and the perceptual hashes to compare with. */
  const indexes = new Map<string, Map<string, Known>>()
  /** What decoding each content (by hash) gave this run: a few numbers each. */
  const decoded = new Map<string, Decoded>()

  async function indexOf (category: string): Promise<Map<string, Known>> {
    let index = indexes.get(category)
    if (index) return index
    index = new Map()
    for (let afterId = 0; ;) {
      const page = await store.list({ category, limit: INDEX_PAGE, afterId })
      for (const g of page) if (g.hash !== null) index.set(g.hash, known(g))
      if (page.length < INDEX_PAGE) break
      afterId = page.at(-1)!.id
    }
    indexes.set(category, index)
    return index
  }

  function known (g: GifRecord): Known {
    return { id: g.id, hash: g.hash!, phash: g.phash ?? null, attribution: cleanAttribution(g) }
  }

  function nearest (index: Map<string, Known>, phash: string): NearMatch | undefined {
    let best: NearMatch | undefined
    for (const k of index.values()) {
      if (k.phash === null) continue
      const distance = hammingDistance(phash, k.phash)
      if (distance <= nearDistance && (best === undefined || distance < best.distance)) best = { id: k.id, distance }
    }
    return best
  }

  /** Fills in the fields the catalog lacks; true when it changed something. */
  async function fillAttribution (k: Known, given: Attribution): Promise<boolean> {
    const missing: GifAttribution = {}
    for (const field of ATTRIBUTION_FIELDS) {
      if (given[field] !== undefined && k.attribution[field] === undefined) missing[field] = given[field]
    }
    if (Object.keys(missing).length === 0) return false
    if (!dryRun) await store.setAttribution(k.id, missing)
    Object.assign(k.attribution, missing)
    return true
  }

  return {
    async add (gif) {
      const hash = gif.sha256 ?? sha256(gif.bytes)
      if (gif.expectedSha256 !== undefined && gif.expectedSha256.toLowerCase() !== hash) {
        return { kind: 'rejected', reason: `its SHA-256 is ${hash}, not the ${gif.expectedSha256} its manifest gives (damaged or replaced)` }
      }
      const attribution = cleanAttribution(gif.attribution)
      const index = await indexOf(gif.category)
      const existing = index.get(hash)
      if (existing) return { kind: 'duplicate', hash, id: existing.id, attributed: await fillAttribution(existing, attribution) }

      let checked = decoded.get(hash)
      if (checked === undefined) {
        checked = await decode(gif.bytes)
        decoded.set(hash, checked)
      }
      if ('reason' in checked) return { kind: 'rejected', reason: checked.reason }
      const { info, phash } = checked
      const near = nearDuplicates === 'keep' ? undefined : nearest(index, phash)
      if (near && nearDuplicates === 'skip') return { kind: 'near-duplicate', hash, of: near }

      const added = { kind: 'added' as const, hash, width: info.width, height: info.height, frames: info.frames, nearDuplicateOf: near }
      if (dryRun) {
        index.set(hash, { id: 0, hash, phash, attribution })
        return added
      }
      await files.put(hash, gif.bytes)
      let record: GifRecord
      try {
        [record] = await store.add([{
          category: gif.category,
          hash,
          url: null,
          size: gif.bytes.length,
          width: info.width,
          height: info.height,
          frames: info.frames,
          contentType: info.contentType,
          dominantColor: info.dominantColor ?? null,
          phash,
          animeName: attribution.animeName ?? null,
          artist: attribution.artist ?? null,
          artistUrl: attribution.artistUrl ?? null,
          sourceUrl: attribution.sourceUrl ?? null
        }]) as [GifRecord]
      } catch (err) {
        // Another import added the same gif between our look and our insert.
        if (!(err instanceof StoreConflictError)) throw err
        indexes.delete(gif.category)
        const again = (await indexOf(gif.category)).get(hash)
        if (again === undefined) throw err
        return { kind: 'duplicate', hash, id: again.id, attributed: await fillAttribution(again, attribution) }
      }
      if (gif.hidden === true) await store.hide(record.id)
      index.set(hash, known({ ...record, phash }))
      return { ...added, id: record.id }
    }
  }
}
