// Image generation as a service: what /gen/{template}, /gen/custom, the four /list
// endpoints and the previews of banners and icons answer, from plain values. The routes
// (routes.ts) speak HTTP over it; what it uses (the fonts' names, the asset catalogue,
// the image fetcher, the previews kept, the work engine) is built once by src/app.ts and
// handed in.
import { AppError } from '../errors.js'
import type { ImageFetcher } from '../remote-fetch/image-fetcher.js'
import { type ByteBudget, type ByteHold, createByteBudget } from '../work/byte-budget.js'
import { MIN_RETRY_AFTER_SECONDS, type Owner } from '../work/scheduler.js'
import { type CostPrior, threadCode, type Work } from '../work/work.js'
import type { AssetCatalog, AssetKind } from './assets/asset-catalog.js'
import type { CustomBody } from './custom/custom-schema.js'
import { type OutputFormat, parseFormat } from './canvas/draw.js'
import { encodeAnimation, parseMaxBytes, stillWithin } from './pipeline/output-budget.js'
import { type PictureAnswer, type PictureCache, recordSources } from './pipeline/picture-cache.js'
import { collectJob, type JobSpec } from './pipeline/render-job.js'
import type * as thread from './pipeline/thread.js'
import { parseAnimated } from './pipeline/timeline.js'
import { TEMPLATES, templateByName, type TemplateFields } from './template-registry.js'

/**
 * The reason a picture's fetches are stopped once it is made, failed or served without
 * drawing: one instance for all, since an AppError made per request (its stack captured)
 * was about 5 % of a cached link's CPU (docs/performance.md, "The result cache").
 */
const NO_LONGER_WANTED = new AppError('TIMEOUT', 'The picture was made or failed: its fetches are no longer wanted')
import type { FontRegistry } from './text/fonts.js'

/** The drawing threads' code (pipeline/thread.ts), run by src/work/. */
const DRAW = threadCode<typeof thread.draw>(new URL('./pipeline/thread.js', import.meta.url), 'draw')
const PREVIEW = threadCode<typeof thread.preview>(new URL('./pipeline/thread.js', import.meta.url), 'preview')

/**
 * Running time of each kind of job on one lane of a 2-core machine: a picture by the
 * source pixels it decodes (bench/bursts.bench.ts: a welcome banner without images about
 * 25 ms); its images' shrinking by sharp by their pixels as sent (CPU time of sharp's
 * shrink-on-load to 256 px, noise: 4000×3000 JPEG 95 ms, 2000×2000 PNG 21 ms, 1000×1000
 * JPEG 11 ms; a lossy WebP about seven times that, which the observed times correct).
 */
export const GENERATION_PRIORS = {
  threads: {
    draw: { baseMs: 25, msPerUnit: 0.00003 },
    preview: { baseMs: 40, msPerUnit: 0 }
  },
  libvips: {
    'gen-decode': { baseMs: 1, msPerUnit: 0.00001 }
  }
} satisfies Record<string, Record<string, CostPrior>>

/** What the lists of /list/{kind} name. */
export const LIST_KINDS = ['templates', 'banners', 'icons', 'fonts'] as const
export type ListKind = typeof LIST_KINDS[number]

/** Who asks for a picture, and until when it is wanted: the request, as plain values. */
export interface Caller {
  /** The API key's id: fair order between keys (src/work/scheduler.ts), and whose fetched bytes are shed. */
  owner: Owner
  /** Fires when the request was answered meanwhile (its deadline) or its client left. */
  signal: AbortSignal
  /** Milliseconds since the request came in, read when a job is admitted against the request's deadline. */
  elapsedMs: () => number
  /** The request's If-None-Match: a picture whose address it names is not modified (304). */
  ifNoneMatch?: string
}

/**
 * A picture in the format asked for: its bytes and what was reduced to stay within
 * max_bytes, with how the result cache answered it and its address as an ETag; or not
 * modified, when If-None-Match named that address (pipeline/picture-cache.ts).
 */
export type Picture = PictureAnswer & { format: OutputFormat }

export interface GenerationService {
  /** A /gen/{template} picture from its fields (lower-cased names, string values). */
  template (name: string, fields: TemplateFields, caller: Caller): Promise<Picture>
  /** A /gen/custom picture from its checked body. */
  custom (body: CustomBody, caller: Caller): Promise<Picture>
  list (kind: ListKind): string[]
  /** A banner or icon as PNG (its public preview); ASSET_NOT_FOUND when there is none. */
  preview (kind: AssetKind, name: string, caller: Caller): Promise<Buffer>
}

/** The public previews, drawn once by a thread and kept until the operator's folder of that kind changes. */
export interface PreviewCache {
  get (kind: AssetKind, name: string): Buffer | undefined
  set (kind: AssetKind, name: string, png: Buffer): void
}

export function createPreviewCache (assets: AssetCatalog): PreviewCache {
  const previews = new Map<string, Buffer>()
  assets.onChange((kind) => {
    for (const key of previews.keys()) if (key.startsWith(`${kind}:`)) previews.delete(key)
  })
  return {
    get: (kind, name) => previews.get(`${kind}:${name}`),
    set: (kind, name, png) => { previews.set(`${kind}:${name}`, png) }
  }
}

/**
 * The fetched images of every picture being made, from each answer's headers until the
 * picture is drawn (docs/generation.md, "Fetched images' memory"). Held bytes are let go
 * as the pictures queued ahead are drawn, and the fetches under way end within
 * REMOTE_FETCH_TIMEOUT_MS: after both, a retry finds them gone.
 */
export function createFetchedImagesBudget (options: { limitBytes: number, fetchTimeoutMs: number, work: Work }): ByteBudget {
  const { work } = options
  return createByteBudget({
    limitBytes: options.limitBytes,
    busyCode: 'RENDER_BUSY',
    retryAfterSeconds: () => Math.max(MIN_RETRY_AFTER_SECONDS, Math.ceil((work.stats.threads.drainMs + options.fetchTimeoutMs) / 1000)),
    setting: 'REMOTE_FETCH_MEMORY',
    what: 'fetched images',
    detail: 'fetchMemoryBytes'
  })
}

export interface GenerationDeps {
  /** The heavy work's engine (src/work/work.ts): drawing on its threads, decoding on its libvips lanes. */
  work: Work
  /** The fonts' names only: this thread never draws (canvas/drawer.ts draws, in src/work/'s threads). */
  fonts: FontRegistry
  assets: AssetCatalog
  /** Image URLs fetched (src/remote-fetch/image-fetcher.ts). */
  images: ImageFetcher
  /** REMOTE_FETCH_MEMORY: createFetchedImagesBudget. */
  fetchedBytes: ByteBudget
  previews: PreviewCache
  /** Pictures by content address through the result cache (pipeline/picture-cache.ts). */
  pictures: PictureCache
  /** Where custom emoji are fetched from (DISCORD_CDN_URL). */
  discordCdn: string
  /** REQUEST_TIMEOUT_MS: the limit of sharp's shrinking when WORK_TIMEOUT_MS is 0. */
  requestTimeoutMs: number
}

export function createGenerationService (deps: GenerationDeps): GenerationService {
  const { work, fonts, assets, fetchedBytes, previews, pictures } = deps
  const collecting = { fonts, assets, images: deps.images, discordCdn: deps.discordCdn }
  // sharp's own time limit for shrinking a request's images, in whole seconds.
  const decodeLimitMs = work.timeoutMs > 0 ? work.timeoutMs : deps.requestTimeoutMs > 0 ? deps.requestTimeoutMs : 30_000

  /**
   * The request is checked and its images fetched first (network waits, outside the
   * scheduler), each counted in REMOTE_FETCH_MEMORY before its body is read and held
   * until the picture is drawn; then the job is admitted by its estimated time (the source
   * pixels it decodes) against what is left of the request's deadline, waits for its turn
   * in fair order between keys (src/work/scheduler.ts), and on its thread lane its images
   * are decoded (sharp, on a libvips lane of its own, admitted the same way) and the
   * picture drawn (a worker).
   */
  async function render (spec: JobSpec, maxBytes: number, caller: Caller): Promise<Picture> {
    const { owner } = caller
    const requestSignal = caller.signal
    // Shed to make room for another key's fetches (byte-budget.ts): its fetches and its
    // place in the queue stop with the busy error. Also fired once the picture is made or
    // has failed: a download still under way (a picture's other images) stops.
    const stop = new AbortController()
    let hold: ByteHold | undefined
    // Once this request draws, the drawing owns its fetched bytes: it may outlive the
    // request (another request waits for the same picture: pipeline/picture-cache.ts).
    let drawing = false
    try {
      hold = fetchedBytes.reserve(owner, 0, (err) => stop.abort(err))
      const held = hold
      const sources = recordSources(deps.images)
      const collected = await collectJob({ ...collecting, images: sources.images }, spec, { signal: AbortSignal.any([requestSignal, stop.signal]), bytes: { reserve: (n) => held.grow(n), giveBack: (n) => held.shrink(n) } })
      const answer = await pictures.answer({ spec, maxBytes, sources, ifNoneMatch: caller.ifNoneMatch, signal: requestSignal }, async (drawSignal) => {
        drawing = true
        const signal = AbortSignal.any([drawSignal, stop.signal])
        try {
          const options = { signal, busy: 'RENDER_BUSY' as const, owner, elapsedMs: caller.elapsedMs() }
          const encoded = await work.run('threads', { kind: 'draw', units: collected.plan.units }, options, async (lane) => {
            // Its work has started: its images are no longer shed.
            held.pin()
            // The encoding after the drawing thread's work ends by WORK_TIMEOUT_MS from the slot's start, too.
            const deadline = work.timeoutMs > 0 ? performance.now() + work.timeoutMs : Infinity
            // Images sharp shrinks or unpacks take a libvips lane beside image conversions
            // (IMAGE_CONCURRENCY), held while they decode; the others are drawn as sent.
            const job = collected.decodePixels === 0
              ? await collected.decode(decodeLimitMs)
              : await work.run('libvips', { kind: 'gen-decode', units: collected.decodePixels }, { ...options, elapsedMs: caller.elapsedMs() }, async () => await collected.decode(decodeLimitMs))
            const transfer = Object.values(job.images).flatMap((i) => i.raw !== undefined && i.raw.byteOffset === 0 && i.raw.byteLength === i.raw.buffer.byteLength ? [i.raw.buffer as ArrayBuffer] : [])
            const drawn = await lane.thread(DRAW, job, transfer)
            // Encoded by the thread that draws (PNG, JPEG, still WebP), or frames encoded here by sharp (GIF, animations).
            if (drawn instanceof Uint8Array) return await stillWithin(Buffer.from(drawn.buffer, drawn.byteOffset, drawn.byteLength), spec.format as 'png' | 'jpg' | 'webp', maxBytes, deadline)
            return await encodeAnimation(drawn, spec.format === 'webp' ? 'webp' : 'gif', maxBytes, deadline)
          })
          if (collected.plan.framesMerged && !encoded.reduced.includes('frames')) encoded.reduced.unshift('frames')
          return encoded
        } finally {
          // Drawn, failed, shed, or nobody waits any more: its fetched bytes are let go.
          stop.abort(NO_LONGER_WANTED)
          held.release()
        }
      })
      return { ...answer, format: spec.format }
    } finally {
      if (!drawing) {
        // Served without drawing (the cache, another request's drawing), failed, or its deadline passed.
        stop.abort(NO_LONGER_WANTED)
        hold?.release()
      }
    }
  }

  const lists: Record<ListKind, () => string[]> = {
    templates: () => TEMPLATES.map((t) => t.name),
    banners: () => assets.names('banner'),
    icons: () => assets.names('icon'),
    fonts: () => fonts.names()
  }

  return {
    async template (name, fields, caller) {
      const template = templateByName(name)
      if (!template) throw new AppError('TEMPLATE_NOT_FOUND', `No template named "${name.slice(0, 60)}": use one of ${TEMPLATES.map((t) => t.name).join(', ')}`, { details: { valid: TEMPLATES.map((t) => t.name) } })
      const format = parseFormat(fields.output ?? fields.format, template.defaultFormat, fields.output !== undefined ? 'output' : 'format')
      const animated = parseAnimated(fields.animated)
      const maxBytes = parseMaxBytes(fields.max_bytes)
      return await render({ format, animated, template: template.name, fields }, maxBytes, caller)
    },
    async custom (body, caller) {
      const format = parseFormat(body.output ?? body.format, 'jpg', body.output !== undefined ? 'output' : 'format')
      const animated = parseAnimated(body.animated)
      const maxBytes = parseMaxBytes(body.max_bytes)
      return await render({ format, animated, custom: body }, maxBytes, caller)
    },
    list: (kind) => lists[kind](),
    async preview (kind, name, caller) {
      const key = assets.canonical(kind, name)
      if (key === undefined) throw new AppError('ASSET_NOT_FOUND', `No ${kind} named "${name.slice(0, 60)}": see /list/${kind}s`)
      let png = previews.get(kind, key)
      if (png === undefined) {
        const bytes = await work.thread(PREVIEW, { asset: kind, name: key }, { kind: 'preview', units: 0 }, { signal: caller.signal, busy: 'RENDER_BUSY', elapsedMs: caller.elapsedMs() })
        png = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
        previews.set(kind, key, png)
      }
      return png
    }
  }
}
