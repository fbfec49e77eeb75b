// Pictures a drawing thread decoded, kept from one job to the next by their bytes' digest:
// the same member's avatar on every rank card, the same art while a song plays, the same
// faces down a leaderboard. Decoding a 256×256 PNG avatar took 0.6 to 1.5 ms of a rank
// card's 3 in the thread (more than its drawing or its PNG encoding), and the decoded
// picture feeds what is worked out from it once (the now-playing tint, a WeakMap by
// picture). Bounded by decoded bytes as the canvas pool is, and emptied with it when the
// pool goes quiet (drawer.ts), so a server at rest keeps none.
import { createHash } from 'node:crypto'
import { type Image, loadImage } from '@napi-rs/canvas'

/** Decoded bytes kept at most (4 a pixel): 64 avatars of 256×256, or a few banners. */
export const DEFAULT_DECODED_BYTES = 16 * 1024 * 1024

export interface DecodedImages {
  /** The picture `bytes` encode, decoded now or kept from an earlier job; rejects when they do not decode. */
  decode (bytes: Uint8Array): Promise<Image>
  /** Lets go of every kept picture. */
  clear (): void
}

export function createDecodedImages (maxBytes = DEFAULT_DECODED_BYTES): DecodedImages {
  // Oldest first (a Map keeps insertion order): a hit moves to the end.
  const kept = new Map<string, { image: Image, bytes: number }>()
  let keptBytes = 0
  return {
    async decode (bytes) {
      const key = createHash('sha256').update(bytes).digest('base64')
      const hit = kept.get(key)
      if (hit !== undefined) {
        kept.delete(key)
        kept.set(key, hit)
        return hit.image
      }
      const image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
      const size = image.width * image.height * 4
      if (size > maxBytes) return image
      kept.set(key, { image, bytes: size })
      keptBytes += size
      for (const [oldest, entry] of kept) {
        if (keptBytes <= maxBytes) break
        kept.delete(oldest)
        keptBytes -= entry.bytes
      }
      return image
    },
    clear () {
      kept.clear()
      keptBytes = 0
    }
  }
}
