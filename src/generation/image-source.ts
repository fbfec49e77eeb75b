// Images named by a field: a URL (fetched through the SSRF-safe fetcher, decoded once
// and kept while recently used) or, for banners and icons, a listed name.
import { Image, loadImage } from '@napi-rs/canvas'
import { AppError } from '../errors.js'
import type { ImageFetcher } from '../remote-fetch/image-fetcher.js'
import type { AssetKind, AssetRegistry, Drawable } from './assets.js'

/** Decoded images kept, by URL (the fetcher keeps the bytes for longer). */
export const DECODED_CACHE_ENTRIES = 64
/** Bound of the decoded images kept, counted as 4 bytes a pixel (a 25 MP image is 100 MB). */
export const DECODED_CACHE_BYTES = 256 * 1024 * 1024

const decodedBytes = (image: Image): number => image.width * image.height * 4

export interface ImageSource {
  url (url: string, role: string): Promise<Drawable>
  /** A listed asset name (case-insensitive) or an image URL. */
  assetOrUrl (kind: AssetKind, value: string, role: string): Promise<Drawable>
}

// A shrunk image (src/generation/render-job.ts) is drawn from fewer pixels than it has:
// layout (aspect ratios, a base's canvas size) goes by the size the image was sent at.
const naturalSizes = new WeakMap<object, { width: number, height: number }>()

export function setNaturalSize (image: Drawable, width: number, height: number): void {
  naturalSizes.set(image, { width, height })
}

/** The image's size as sent, whatever resolution it was decoded at. */
export function naturalSize (image: Drawable): { width: number, height: number } {
  return naturalSizes.get(image) ?? image
}

export function isUrlLike (value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(value.trim())
}

export function createImageSource (deps: { images: ImageFetcher, assets: AssetRegistry }): ImageSource {
  const decoded = new Map<string, { bytes: Buffer, image: Image }>()
  let total = 0
  const evictOldest = (): void => {
    const [key, entry] = decoded.entries().next().value!
    decoded.delete(key)
    total -= decodedBytes(entry.image)
  }
  const source: ImageSource = {
    async url (url, role) {
      const fetched = await deps.images.fetchImage(url.trim(), role)
      const hit = decoded.get(url)
      if (hit && hit.bytes === fetched.bytes) {
        decoded.delete(url)
        decoded.set(url, hit)
        return hit.image
      }
      let image: Image
      try {
        image = await loadImage(fetched.bytes)
      } catch {
        throw new AppError('REMOTE_IMAGE_INVALID', `${role}: the image at ${url} could not be decoded`, { details: { role, url } })
      }
      const size = decodedBytes(image)
      if (size > DECODED_CACHE_BYTES / 4) return image // too big to keep
      if (hit) {
        decoded.delete(url)
        total -= decodedBytes(hit.image)
      }
      decoded.set(url, { bytes: fetched.bytes, image })
      total += size
      while (decoded.size > DECODED_CACHE_ENTRIES || total > DECODED_CACHE_BYTES) evictOldest()
      return image
    },
    async assetOrUrl (kind, value, role) {
      if (isUrlLike(value)) return await source.url(value, role)
      return await deps.assets.get(kind, value, role)
    }
  }
  return source
}
