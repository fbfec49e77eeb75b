// Operators' changes to the catalog besides imports: removing a gif, and adding an
// entry that points at an external URL (a CDN) instead of a local file.
import type { GifFileStore } from '../store/gif-files.js'
import type { GifCatalogStore, GifRecord } from '../store/interface.js'
import { checkExternalUrl } from './external-url.js'
import { GIF_CONTENT_TYPE } from './gif-info.js'
import { ImportError } from './importer.js'
import { GIF_TYPES, isGifType } from './types.js'

/**
 * Removes a gif from the catalog, then its file if no other category still refers to
 * it (a removal interrupted in between leaves an orphan file, which imports clean up).
 */
export async function removeGif (store: GifCatalogStore, files: GifFileStore, id: number): Promise<GifRecord | undefined> {
  const removed = await store.remove(id)
  if (removed?.hash && !(await store.findByHash(removed.hash))) {
    await files.delete(removed.hash)
  }
  return removed
}

/** Removes several gifs in one transaction, then the files nothing refers to any more. */
export async function removeGifs (store: GifCatalogStore, files: GifFileStore, ids: readonly number[]): Promise<GifRecord[]> {
  const removed = await store.removeMany(ids)
  for (const hash of new Set(removed.map((g) => g.hash))) {
    if (hash && !(await store.findByHash(hash))) await files.delete(hash)
  }
  return removed
}

export interface ExternalGif {
  category: string
  url: string
  width?: number
  height?: number
  frames?: number
  size?: number
}

/** Adds an entry served from elsewhere: the API answers its URL as `file`, as given. */
export async function addExternalGif (store: GifCatalogStore, gif: ExternalGif): Promise<GifRecord> {
  const category = gif.category.trim().toLowerCase()
  if (!isGifType(category)) throw new ImportError(`"${gif.category}" is not a gif type: use one of ${GIF_TYPES.join(', ')}`)
  const checked = checkExternalUrl(gif.url)
  if ('reason' in checked) throw new ImportError(`"${gif.url}" is refused: ${checked.reason}`)
  const [record] = await store.add([{
    category,
    hash: null,
    url: checked.url,
    size: gif.size ?? 0,
    width: gif.width ?? 0,
    height: gif.height ?? 0,
    frames: gif.frames ?? 0,
    contentType: GIF_CONTENT_TYPE
  }])
  return record!
}
