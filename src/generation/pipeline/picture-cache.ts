// A picture's content address and its way through the result cache (src/result-cache/):
// the address of a request is a hash of everything its bytes depend on, so a repeated
// picture is served, and one whose input changed (a parameter, an image at its URL, the
// code, a font, an operator's banner) is drawn anew (docs/result-cache.md).
// The images a request fetched are known by their bytes' hash, recorded as collectJob
// fetches them (through the fetcher's cache: within REMOTE_IMAGE_FRESH_SECONDS a hit asks
// no URL). A picture one of whose fetches failed (a custom emoji drawn as its :name:) is
// answered but never kept.
import path from 'node:path'
import { isAppError } from '../../errors.js'
import type { ImageFetcher } from '../../remote-fetch/image-fetcher.js'
import { bytesHash, contentAddress } from '../../result-cache/address.js'
import { folderFingerprint } from '../../result-cache/fingerprint.js'
import type { CacheOutcome, ResultCache, StoredAnswer } from '../../result-cache/interface.js'
import type { AssetCatalog } from '../assets/asset-catalog.js'
import { CONTENT_TYPES } from '../canvas/draw.js'
import type { Encoded, Reduction } from './output-budget.js'
import type { JobSpec } from './render-job.js'

/** Changed when the address's parts change meaning: entries of another layout are never read. */
const ADDRESS_LAYOUT = 1

/** How the images of one request were fetched: the fetcher to hand collectJob, and what it saw. */
export interface RecordedSources {
  images: ImageFetcher
  /** Each URL with its bytes' hash, or its failure: sorted, for the address. */
  parts (): Array<[string, string]>
  /** A fetch failed and the picture was drawn without its image. */
  readonly failed: boolean
}

export function recordSources (images: ImageFetcher): RecordedSources {
  const seen = new Map<string, string | { failed: string }>()
  return {
    images: {
      async fetchImage (url, role, options) {
        try {
          const image = await images.fetchImage(url, role, options)
          seen.set(url.trim(), bytesHash(image.bytes))
          return image
        } catch (err) {
          seen.set(url.trim(), { failed: isAppError(err) ? err.code : 'error' })
          throw err
        }
      }
    },
    parts: () => [...seen].map(([url, v]): [string, string] => [url, typeof v === 'string' ? v : `failed:${v.failed}`]).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0),
    get failed () { return [...seen.values()].some((v) => typeof v !== 'string') }
  }
}

export type PictureAnswer =
  | { kind: 'picture', encoded: Pick<Encoded, 'bytes' | 'reduced'>, cache: CacheOutcome, etag?: string }
  | { kind: 'not-modified', etag: string }

export interface PictureCache {
  readonly enabled: boolean
  /**
   * The picture of `spec`: 304 when `ifNoneMatch` names its address, else from the cache
   * or drawn by `draw` (given the drawing's signal: it fires once every request waiting
   * for it has left; `signal` is this request's own).
   */
  answer (request: { spec: JobSpec, maxBytes: number, sources: RecordedSources, ifNoneMatch: string | undefined, signal: AbortSignal }, draw: (signal: AbortSignal) => Promise<Encoded>): Promise<PictureAnswer>
}

export interface PictureCacheOptions {
  cache: ResultCache
  /** The server's code and locked dependencies (src/app.ts): a new build is a new address for every picture. */
  codeVersion: string
  /** DATA_DIR: the operator's fonts (read once at start), banners and icons (read again when their folder changes). */
  dataDir: string
  assets: AssetCatalog
}

/** Whether an If-None-Match header names `etag` (RFC 9110, 13.1.2: weak comparison; `*` matches any). */
export function matchesEtag (header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  return header.split(',').some((tag) => {
    const t = tag.trim()
    return t === '*' || t === etag || t === `W/${etag}`
  })
}

export function createPictureCache (options: PictureCacheOptions): PictureCache {
  const { cache } = options
  const operator = {
    fonts: folderFingerprint(path.join(options.dataDir, 'fonts')),
    banner: folderFingerprint(path.join(options.dataDir, 'banners')),
    icon: folderFingerprint(path.join(options.dataDir, 'icons'))
  }
  // The catalog has seen its folder change (it looks again at most once a second).
  options.assets.onChange((kind) => { operator[kind] = folderFingerprint(path.join(options.dataDir, `${kind}s`)) })

  return {
    enabled: cache.enabled,
    async answer ({ spec, maxBytes, sources, ifNoneMatch, signal }, draw) {
      if (!cache.enabled) {
        const encoded = await draw(signal)
        return { kind: 'picture', encoded, cache: 'miss' }
      }
      const address = contentAddress({ layout: ADDRESS_LAYOUT, code: options.codeVersion, operator, spec, maxBytes, sources: sources.parts() })
      const etag = `"${address}"`
      if (matchesEtag(ifNoneMatch, etag)) return { kind: 'not-modified', etag }
      const { answer, cache: outcome } = await cache.answer(address, signal, async (drawSignal) => {
        const encoded = await draw(drawSignal)
        return { answer: { bytes: encoded.bytes, contentType: CONTENT_TYPES[spec.format], meta: { reduced: encoded.reduced.join(',') } }, cacheable: !sources.failed }
      })
      return { kind: 'picture', encoded: fromStored(answer), cache: outcome, etag }
    }
  }
}

function fromStored (answer: StoredAnswer): Pick<Encoded, 'bytes' | 'reduced'> {
  const reduced = answer.meta.reduced ?? ''
  return { bytes: answer.bytes, reduced: reduced === '' ? [] : reduced.split(',') as Reduction[] }
}

/**
 * How long a Discord CDN image is used again without asking its URL: its path names its
 * content (an avatar's, icon's or banner's hash; an emoji's id, whose image never
 * changes), so a new avatar is a new URL. A day, for the fetcher's cache, which is
 * bounded by bytes (the least recently used go first).
 */
export const CONTENT_NAMED_FRESH_MS = 24 * 60 * 60_000
const DISCORD_HOSTS = new Set(['cdn.discordapp.com', 'media.discordapp.net'])
const CONTENT_NAMED_PATH = /^\/(?:(?:avatars|icons|banners|splashes|app-icons|avatar-decoration-presets)\/\d+\/(?:a_)?[0-9a-f]{32}|guilds\/\d+\/users\/\d+\/(?:avatars|banners)\/(?:a_)?[0-9a-f]{32}|emojis\/\d+)\.(?:png|jpe?g|webp|gif)$/i

/** Whether `url` is a Discord CDN URL whose path names its content (`cdnOrigin`: DISCORD_CDN_URL). */
export function contentNamedUrl (url: string, cdnOrigin: string): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  const configured = URL.canParse(cdnOrigin) ? new URL(cdnOrigin).host : ''
  if (!DISCORD_HOSTS.has(parsed.hostname) && parsed.host !== configured) return false
  return CONTENT_NAMED_PATH.test(parsed.pathname)
}

/** The fetcher's cache times (REMOTE_IMAGE_FRESH_SECONDS; content-named Discord URLs a day). */
export function remoteImageFreshness (config: { remoteImageFreshSeconds: number, discordCdnUrl: string }): { cacheTtlMs: number, cacheTtlFor: (url: string) => number } {
  const fresh = config.remoteImageFreshSeconds * 1000
  return { cacheTtlMs: fresh, cacheTtlFor: (url) => contentNamedUrl(url, config.discordCdnUrl) ? Math.max(fresh, CONTENT_NAMED_FRESH_MS) : fresh }
}
