// Image fetching on top of the safe fetcher: the bytes must be an image format we
// decode, within the pixel limit (a small file can declare a huge canvas: a
// decompression bomb), checked from the header by sharp before anyone decodes it.
// Successful fetches are kept in a bounded in-memory cache (bytes and age).
import sharp from 'sharp'
import { AppError, isAppError } from '../errors.js'
import type { RemoteFetcher } from './fetcher.js'

/** 25 megapixels: a 5000×5000 image, far above any canvas /gen draws (3000×3000). */
export const MAX_IMAGE_PIXELS = 25_000_000
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024
export const DEFAULT_CACHE_TTL_MS = 5 * 60_000
const FORMATS = new Set(['png', 'jpeg', 'webp', 'gif', 'heif', 'avif'])

export interface FetchedImage {
  bytes: Buffer
  width: number
  /** Of one frame. */
  height: number
  format: string
  /** Frames of an animated GIF or WebP (1 for a still). */
  frames: number
  /** Each frame's delay in ms, as the file says (animated images). */
  delays?: number[]
}

export interface ImageFetcher {
  fetchImage (url: string, role: string): Promise<FetchedImage>
}

export interface ImageFetcherOptions {
  fetcher: RemoteFetcher
  maxPixels?: number
  /** Told the outcome of every fetch that reached the network: 'ok' or the error code (metrics). */
  onOutcome?: (outcome: string) => void
  /** Bound of the cache in bytes; 0 disables caching. */
  cacheBytes?: number
  cacheTtlMs?: number
}

interface CacheEntry { image: FetchedImage, expires: number }

export function createImageFetcher (options: ImageFetcherOptions): ImageFetcher {
  const maxPixels = options.maxPixels ?? MAX_IMAGE_PIXELS
  const cacheBytes = options.cacheBytes ?? DEFAULT_CACHE_BYTES
  const ttl = options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS
  // Map keeps insertion order: re-inserting on a hit makes it a least-recently-used list.
  const cache = new Map<string, CacheEntry>()
  let cached = 0
  // Concurrent requests for one URL share one download.
  const inFlight = new Map<string, Promise<FetchedImage>>()

  function remember (url: string, image: FetchedImage): void {
    if (cacheBytes <= 0 || image.bytes.length > cacheBytes / 4) return
    cache.set(url, { image, expires: Date.now() + ttl })
    cached += image.bytes.length
    for (const [key, entry] of cache) {
      if (cached <= cacheBytes) break
      cache.delete(key)
      cached -= entry.image.bytes.length
    }
  }

  async function download (url: string, role: string): Promise<FetchedImage> {
    const { bytes } = await options.fetcher.fetch(url, role)
    let meta: sharp.Metadata
    try {
      meta = await sharp(bytes, { limitInputPixels: false }).metadata()
    } catch {
      throw new AppError('REMOTE_IMAGE_INVALID', `${role}: the URL ${url} did not answer with an image (PNG, JPEG, WebP, GIF or AVIF)`, { details: { role, url } })
    }
    if (!meta.format || !FORMATS.has(meta.format) || !meta.width || !meta.height) {
      throw new AppError('REMOTE_IMAGE_INVALID', `${role}: the URL ${url} answered ${meta.format ?? 'something'} that is not a PNG, JPEG, WebP, GIF or AVIF image`, { details: { role, url } })
    }
    const height = meta.pageHeight ?? meta.height
    if (meta.width * height > maxPixels) {
      throw new AppError('REMOTE_IMAGE_INVALID', `${role}: the image at ${url} is ${meta.width}×${height} pixels, above the limit of ${maxPixels} pixels`, { details: { role, url } })
    }
    const frames = Math.max(1, meta.pages ?? 1)
    return { bytes, width: meta.width, height, format: meta.format, frames, ...(frames > 1 && meta.delay !== undefined ? { delays: meta.delay } : {}) }
  }

  return {
    async fetchImage (url, role) {
      const hit = cache.get(url)
      if (hit) {
        cache.delete(url)
        if (hit.expires > Date.now()) {
          cache.set(url, hit)
          return hit.image
        }
        cached -= hit.image.bytes.length
      }
      const pending = inFlight.get(url)
      if (pending) {
        try {
          return await pending
        } catch (err) {
          // Another request's failure, told with this request's role.
          const other = isAppError(err) ? err.details?.role : undefined
          if (!isAppError(err) || typeof other !== 'string') throw err
          throw new AppError(err.code, role + err.message.slice(other.length), { details: { ...err.details, role } })
        }
      }
      const job = download(url, role)
      inFlight.set(url, job)
      try {
        const image = await job
        options.onOutcome?.('ok')
        remember(url, image)
        return image
      } catch (err) {
        options.onOutcome?.(isAppError(err) ? err.code : 'error')
        throw err
      } finally {
        inFlight.delete(url)
      }
    }
  }
}
