// A fresh install works out of the box: on a start with an empty catalog, a few gifs
// per category are generated (src/gifs/starter-art.ts) so every type answers at once.
// Operators replace them with `gifs import` and `gifs remove` (docs/gifs.md).
import { type GifCatalogStore, type GifContentStore, type NewGif, StoreConflictError } from '../store/interface.js'
import { GIF_CONTENT_TYPE } from './gif-info.js'
import { gifDirOf, putGifFile, sha256 } from './files.js'
import { renderStarterGif, STARTER_FRAMES, STARTER_HEIGHT, STARTER_STYLES, STARTER_WIDTH } from './starter-art.js'
import { GIF_TYPES } from './types.js'

export const STARTER_GIFS_PER_TYPE = STARTER_STYLES.length

export interface StarterResult {
  /** False when the catalog already had gifs (nothing was done). */
  generated: boolean
  added: number
}

/**
 * Generates the starter catalog when the catalog is empty. Files are written first,
 * then all rows in one transaction: an interrupted start leaves no half catalog, and
 * the next start writes the same bytes under the same names.
 */
export async function ensureStarterCatalog (store: GifCatalogStore, dataDir: string, content: GifContentStore | null = null): Promise<StarterResult> {
  const counts = await store.counts()
  if (Object.keys(counts).length > 0) return { generated: false, added: 0 }
  const dir = gifDirOf(dataDir)
  const gifs: NewGif[] = []
  for (const type of GIF_TYPES) {
    for (let style = 0; style < STARTER_GIFS_PER_TYPE; style++) {
      const bytes = renderStarterGif(type, style)
      const hash = sha256(bytes)
      await putGifFile(dir, hash, bytes)
      await content?.put(hash, bytes)
      gifs.push({
        category: type,
        hash,
        url: null,
        size: bytes.length,
        width: STARTER_WIDTH,
        height: STARTER_HEIGHT,
        frames: STARTER_FRAMES,
        contentType: GIF_CONTENT_TYPE
      })
    }
  }
  // Another process may have filled the catalog meanwhile: then keep its gifs.
  if (Object.keys(await store.counts()).length > 0) return { generated: false, added: 0 }
  try {
    const added = await store.add(gifs)
    return { generated: true, added: added.length }
  } catch (err) {
    // Two instances starting at once on one store: the other one's rows won.
    if (err instanceof StoreConflictError) return { generated: false, added: 0 }
    throw err
  }
}
