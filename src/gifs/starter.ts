// A fresh install works out of the box: on a start with an empty catalog, a few gifs
// per category are generated (src/gifs/starter-art.ts) so every type answers at once.
// Operators replace them with `gifs import` and `gifs remove` (docs/gifs.md).
import { type GifFileStore, sha256 } from '../store/gif-files.js'
import { type GifCatalogStore, type NewGif, StoreConflictError } from '../store/interface.js'
import { GIF_CONTENT_TYPE, inspectGif } from './gif-info.js'
import { renderStarterGif, STARTER_FRAMES, STARTER_HEIGHT, STARTER_STYLES, STARTER_WIDTH } from './starter-art.js'
import { GIF_TYPES } from './types.js'

export const STARTER_GIFS_PER_TYPE = STARTER_STYLES.length

export interface StarterResult {
  /** False when the catalog already had gifs (nothing was done). */
  generated: boolean
  added: number
}

/** The content hashes of the starter gifs (they are drawn the same on every machine). */
export function starterHashes (): Set<string> {
  const hashes = new Set<string>()
  for (const type of GIF_TYPES) {
    for (let style = 0; style < STARTER_GIFS_PER_TYPE; style++) hashes.add(sha256(renderStarterGif(type, style)))
  }
  return hashes
}

/**
 * Generates the starter catalog when the catalog is empty. Files are written first,
 * then all rows in one transaction: an interrupted start leaves no half catalog, and
 * the next start writes the same bytes under the same names.
 */
export async function ensureStarterCatalog (store: GifCatalogStore, files: GifFileStore): Promise<StarterResult> {
  const counts = await store.counts()
  if (Object.keys(counts).length > 0) return { generated: false, added: 0 }
  const gifs: NewGif[] = []
  for (const type of GIF_TYPES) {
    for (let style = 0; style < STARTER_GIFS_PER_TYPE; style++) {
      const bytes = renderStarterGif(type, style)
      const hash = sha256(bytes)
      await files.put(hash, bytes)
      gifs.push({
        category: type,
        hash,
        url: null,
        size: bytes.length,
        width: STARTER_WIDTH,
        height: STARTER_HEIGHT,
        frames: STARTER_FRAMES,
        contentType: GIF_CONTENT_TYPE,
        // The same colour every import path records (about 6 ms a gif, off the main thread).
        dominantColor: (await inspectGif(bytes)).dominantColor
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
