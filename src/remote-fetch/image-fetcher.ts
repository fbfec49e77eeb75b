// Image fetching on top of the safe fetcher: the bytes must be an image format we
// decode, within the pixel limit (a small file can declare a huge canvas: a
// decompression bomb), checked by the source-image gate (src/images/) from the first
// bytes and the header before anyone decodes it.
// Successful fetches are kept in a bounded in-memory cache (bytes and age). A failure is
// kept too, briefly, for callers that ask (a custom emoji, drawn as its :name: when its
// fetch fails): a dead emoji named on every picture is fetched once a minute, not on
// every picture, and a hanging CDN costs its deadline once in a while, not every time.
import { AppError, isAppError } from '../errors.js'
import { readHeader, type SourceHeader } from '../images/header.js'
import { checkSource, REMOTE_IMAGE_LIMITS } from '../images/limits.js'
import { READABLE_FORMATS, type ReadableFormat, type SniffedFormat, sniff } from '../images/sniff.js'
import { type FetchBytes, FetchFailure, type RemoteFetcher } from './fetcher.js'

/** Pixels of one frame (src/images/limits.ts, REMOTE_IMAGE_LIMITS). */
export const MAX_IMAGE_PIXELS = REMOTE_IMAGE_LIMITS.maxFramePixels
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024
export const DEFAULT_CACHE_TTL_MS = 5 * 60_000
/** The containers fetched images may come in (TIFF is not drawn), then sharp's names for them. */
const FETCHED_FORMATS: ReadonlySet<SniffedFormat> = new Set<ReadableFormat>(['PNG', 'JPEG', 'WebP', 'GIF', 'HEIF'])
const FORMATS = new Set(['png', 'jpeg', 'webp', 'gif', 'heif', 'avif'])
/**
 * How long a failure is kept when the server said the image is not there (HTTP 404 or
 * 410), or what it sent cannot be used (not an image, too large, a refused address): an
 * answer that does not change from one picture to the next.
 */
export const FAILURE_TTL_MS = 60_000
/** How long any other failure is kept (a timeout, a 5xx or 429, a connection cut): it may pass soon. */
export const TRANSIENT_FAILURE_TTL_MS = 10_000
/** Failures kept at most; the oldest go first. */
export const MAX_CACHED_FAILURES = 1000

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

export interface FetchImageOptions {
  /**
   * A failure is kept (FAILURE_TTL_MS, TRANSIENT_FAILURE_TTL_MS) and thrown again, without
   * fetching, to callers that pass it within that time.
   */
  cacheFailure?: boolean
  /**
   * The caller's count of the bytes it holds (src/work/byte-budget.ts): a download's
   * before its body is read, an image from the cache or another caller's download by its
   * size when it is handed over.
   */
  bytes?: FetchBytes
  /** The caller no longer wants the image: its download stops. */
  signal?: AbortSignal
  /** A lower bound than the fetcher's on the download's size. */
  maxBytes?: number
}

export interface ImageFetcher {
  fetchImage (url: string, role: string, options?: FetchImageOptions): Promise<FetchedImage>
}

export interface ImageFetcherOptions {
  fetcher: RemoteFetcher
  maxPixels?: number
  /** Told the outcome of every fetch that reached the network: 'ok' or the error code (metrics). */
  onOutcome?: (outcome: string) => void
  /** Bound of the cache in bytes; 0 disables caching. */
  cacheBytes?: number
  cacheTtlMs?: number
  /** How long this URL's image is kept, when it differs from cacheTtlMs (a URL whose path names its content). */
  cacheTtlFor?: (url: string) => number
  /** The clock of the cache's ages (tests move it). */
  now?: () => number
}

interface CacheEntry { image: FetchedImage, expires: number }
interface FailureEntry { error: AppError, expires: number }

/**
 * Whether a failure says something about the URL (kept, shared with other callers), as
 * opposed to one caller's own: its request stopped, or its bytes did not fit.
 */
function aboutTheUrl (err: unknown): err is AppError {
  return isAppError(err) && err.code.startsWith('REMOTE_')
}

/** How long a failure is kept: longer when the answer will not change (FAILURE_TTL_MS). */
export function failureTtlMs (err: AppError): number {
  const status = err.cause instanceof FetchFailure ? err.cause.status : undefined
  switch (err.code) {
    case 'REMOTE_IMAGE_INVALID':
    case 'REMOTE_FETCH_TOO_LARGE':
    case 'REMOTE_FETCH_REFUSED':
      return FAILURE_TTL_MS
    case 'REMOTE_FETCH_FAILED':
      return status === 404 || status === 410 ? FAILURE_TTL_MS : TRANSIENT_FAILURE_TTL_MS
    default:
      return TRANSIENT_FAILURE_TTL_MS
  }
}

/** The same failure, told with `role` (another request's, or a cached one). */
function withRole (err: unknown, role: string): unknown {
  const other = isAppError(err) ? err.details?.role : undefined
  if (!isAppError(err) || typeof other !== 'string') return err
  return new AppError(err.code, role + err.message.slice(other.length), { details: { ...err.details, role }, cause: err.cause })
}

export function createImageFetcher (options: ImageFetcherOptions): ImageFetcher {
  const maxPixels = options.maxPixels ?? MAX_IMAGE_PIXELS
  const cacheBytes = options.cacheBytes ?? DEFAULT_CACHE_BYTES
  const ttl = options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS
  const ttlFor = options.cacheTtlFor ?? (() => ttl)
  const now = options.now ?? Date.now
  // Map keeps insertion order: re-inserting on a hit makes it a least-recently-used list.
  const cache = new Map<string, CacheEntry>()
  let cached = 0
  // Apart from the images: a failure holds no bytes, so the byte bound does not count them.
  const failures = new Map<string, FailureEntry>()
  // Concurrent requests for one URL share one download.
  const inFlight = new Map<string, Promise<FetchedImage>>()

  function remember (url: string, image: FetchedImage): void {
    const keep = ttlFor(url)
    if (cacheBytes <= 0 || keep <= 0 || image.bytes.length > cacheBytes / 4) return
    cache.set(url, { image, expires: now() + keep })
    cached += image.bytes.length
    for (const [key, entry] of cache) {
      if (cached <= cacheBytes) break
      cache.delete(key)
      cached -= entry.image.bytes.length
    }
  }

  async function download (url: string, role: string, counted: Pick<FetchImageOptions, 'bytes' | 'signal' | 'maxBytes'>): Promise<FetchedImage> {
    const { bytes } = await options.fetcher.fetch(url, role, { bytes: counted.bytes, signal: counted.signal, maxBytes: counted.maxBytes })
    // The source-image gate (src/images/limits.ts): sniffed, header read, limits checked.
    const invalid = (why: string): AppError => new AppError('REMOTE_IMAGE_INVALID', `${role}: ${why}`, { details: { role, url } })
    const sniffed = sniff(bytes)
    // Other formats never reach libvips, which would parse an SVG or a PDF to read its header.
    if (sniffed === undefined || (!sniffed.readable && READABLE_FORMATS.has(sniffed.format))) {
      throw invalid(`the URL ${url} did not answer with an image (PNG, JPEG, WebP, GIF or AVIF)`)
    }
    if (!FETCHED_FORMATS.has(sniffed.format)) throw invalid(`the URL ${url} answered ${sniffed.format.toLowerCase()} that is not a PNG, JPEG, WebP, GIF or AVIF image`)
    let header: SourceHeader
    try {
      header = await readHeader(bytes)
    } catch {
      throw invalid(`the URL ${url} did not answer with an image (PNG, JPEG, WebP, GIF or AVIF)`)
    }
    const { format, width, height, frames } = header
    const check = checkSource(header, { maxFramePixels: maxPixels })
    if (format === undefined || !FORMATS.has(format) || (!check.ok && check.limit === 'size')) {
      throw invalid(`the URL ${url} answered ${format ?? 'something'} that is not a PNG, JPEG, WebP, GIF or AVIF image`)
    }
    if (!check.ok) throw invalid(`the image at ${url} is ${width}×${height} pixels, above the limit of ${maxPixels} pixels`)
    return { bytes, width, height, format, frames, ...(frames > 1 && header.delays !== undefined ? { delays: header.delays } : {}) }
  }

  function rememberFailure (url: string, err: unknown): void {
    if (!aboutTheUrl(err)) return
    failures.delete(url)
    failures.set(url, { error: err, expires: now() + failureTtlMs(err) })
    for (const key of failures.keys()) {
      if (failures.size <= MAX_CACHED_FAILURES) break
      failures.delete(key)
    }
  }

  return {
    async fetchImage (url, role, fetchOptions = {}) {
      const failed = failures.get(url)
      if (failed !== undefined) {
        if (failed.expires <= now()) failures.delete(url)
        else if (fetchOptions.cacheFailure === true) throw withRole(failed.error, role)
      }
      const hit = cache.get(url)
      if (hit) {
        cache.delete(url)
        if (hit.expires > now()) {
          cache.set(url, hit)
          fetchOptions.bytes?.reserve(hit.image.bytes.length)
          return hit.image
        }
        cached -= hit.image.bytes.length
      }
      const pending = inFlight.get(url)
      if (pending) {
        let shared: FetchedImage | undefined
        try {
          shared = await pending
        } catch (err) {
          // Another request's failure, told with this request's role; unless it was that
          // request's own (stopped, or out of room): then this one downloads for itself.
          if (aboutTheUrl(err)) throw withRole(err, role)
        }
        if (shared !== undefined) {
          fetchOptions.bytes?.reserve(shared.bytes.length)
          return shared
        }
      }
      const job = download(url, role, fetchOptions)
      inFlight.set(url, job)
      try {
        const image = await job
        options.onOutcome?.('ok')
        failures.delete(url)
        remember(url, image)
        return image
      } catch (err) {
        options.onOutcome?.(isAppError(err) ? err.code : 'error')
        if (fetchOptions.cacheFailure === true) rememberFailure(url, err)
        throw err
      } finally {
        if (inFlight.get(url) === job) inFlight.delete(url)
      }
    }
  }
}
