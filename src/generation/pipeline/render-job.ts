// A picture as a job for a worker thread (src/work/): the main thread checks the request
// and fetches its images (network waits, cheap), decodes the images that are larger
// than they are drawn with shrink-on-load in sharp (libuv threads, never the event
// loop), and sends the worker the fields, the description and the pixels; the worker
// draws and encodes (drawer.ts). Nothing in a job is a class: it crosses the thread by
// structured clone.
import sharp from 'sharp'
import { AppError, isAppError } from '../../errors.js'
import { readHeader } from '../../images/header.js'
import { checkSource, OPERATOR_ASSET_LIMITS } from '../../images/limits.js'
import type { FetchBytes } from '../../remote-fetch/fetcher.js'
import type { ImageFetcher } from '../../remote-fetch/image-fetcher.js'
import { type AssetCatalog, type AssetKind, isUrlLike, listedImage, listedImageSize, listedKey, readRegularFile } from '../assets/asset-catalog.js'
import type { ImageSource } from '../assets/image-source.js'
import { customImageBoxes, prepareCustom } from '../custom/custom.js'
import type { CustomBody } from '../custom/custom-schema.js'
import type { Sized } from '../drawable.js'
import { ANIMATED_FORMATS, type OutputFormat } from '../canvas/draw.js'
import type { FontRegistry } from '../text/fonts.js'
import { emojiUrl, MAX_EMOJI_PER_PICTURE } from '../text/markup.js'
import { type AnimatedMode, planTimeline, playedDelays } from './timeline.js'
import { listValues, templateByName, type TemplateFields } from '../template-registry.js'

/**
 * Budget of a request's remote images, counted from their headers before any is decoded:
 * the pixels of every image as sent (10 images of 5000×5000 are 250 MP: refused).
 * Decoding them, even shrunk, costs CPU in proportion to these pixels.
 */
export const MAX_SOURCE_PIXELS = 100_000_000
/**
 * Budget of the pixels decoded for a request after shrink-on-load (each image at most
 * about the size it is drawn at): the memory a picture's images take in the worker,
 * 4 bytes a pixel (32 MP: 128 MB).
 */
export const MAX_DECODED_PIXELS = 32_000_000
/**
 * An image up to this factor larger than its drawn box (per side) is decoded as it is,
 * by the canvas, as before; a larger one is shrunk first. The slack keeps small images
 * (avatars) drawn exactly as they always were, and downscaling quality where it shows.
 */
const SHRINK_SLACK = 2
/**
 * The box a custom emoji is decoded for: Discord keeps them at 128×128 at most, and a
 * larger image from the CDN is shrunk to twice this (a text of 240 px draws them 256 high).
 */
const EMOJI_BOX = { width: 256, height: 256 }
/**
 * The largest custom emoji fetched: Discord takes emoji of at most 256 KB, and a larger
 * answer from the CDN is drawn as its :name:. A picture's 20 emoji then hold at most
 * 20 MB of REMOTE_FETCH_MEMORY, not 20 × REMOTE_FETCH_MAX_BYTES (issue 35).
 */
export const MAX_EMOJI_BYTES = 1024 * 1024

/**
 * Drawing an animation costs this many times the units of a picture's source pixels per
 * pixel drawn (frames × canvas): the cost model's prior for `draw` counts source pixels
 * (GENERATION_PRIORS, service.ts), and a frame drawn, read back and encoded as GIF costs about five
 * times a pixel decoded.
 */
const ANIMATION_UNITS_PER_PIXEL = 5

/**
 * One image of a job: the bytes as fetched, or RGBA pixels decoded by sharp (shrunk, or
 * every frame of an animated image, stacked, when the picture animates).
 */
export interface PreparedImage {
  encoded?: Uint8Array
  raw?: Uint8Array
  /** Of one frame. */
  width: number
  height: number
  naturalWidth: number
  naturalHeight: number
  /** Each frame's delay as played, when `raw` holds more than one frame. */
  delays?: number[]
}

export type DrawJob = {
  format: OutputFormat
  /** By URL as the request wrote it, trimmed; custom emoji by their CDN URL. */
  images: Record<string, PreparedImage>
  /** DISCORD_CDN_URL: the thread that draws finds a text's emoji in `images` by their URL (absent: none were fetched). */
  discordCdn?: string
  /**
   * Draw these frames (timeline.ts) and hand back their pixels (output-budget.ts encodes
   * them); absent, one frame, handed back as pixels for a GIF and encoded otherwise.
   */
  animation?: { delays: number[], starts: number[] }
} & ({ template: string, fields: TemplateFields } | { custom: CustomBody })

export type JobSpec = { format: OutputFormat, animated?: AnimatedMode } & ({ template: string, fields: TemplateFields } | { custom: CustomBody })

interface Fetched { bytes: Buffer, width: number, height: number, frames?: number, delays?: number[] }

/** What was decided about a picture before it is admitted. */
export interface JobPlan {
  /** The work's units for the cost model: source pixels, and the frames drawn. */
  units: number
  /** Frames drawn: 1 for a still. */
  frames: number
  /** Frames were merged to fit the animation budgets (X-Image-Reduced: frames). */
  framesMerged: boolean
}

/**
 * An operator's banner or icon file as the main thread knows it: its size from its header
 * (of one frame), and, when it is an animated GIF or WebP, the file as a fetched image is
 * (bytes, frames, delays), so that it moves and counts in the budgets as one does.
 */
interface OperatorImage { width: number, height: number, animated?: Fetched }

/** What the animated operator files kept on the main thread may hold together; the least recently used is read again. */
export const OPERATOR_ANIMATIONS_KEPT_BYTES = 32 * 1024 * 1024

interface OperatorImages {
  /** By file, least recently used first. */
  entries: Map<string, Promise<OperatorImage | undefined>>
  /** Bytes kept per file (animated files only). */
  sizes: Map<string, number>
  total: number
}

const operatorImages = new WeakMap<AssetCatalog, OperatorImages>()

/**
 * The operator's file, read as the threads that draw read it (a regular file, no link
 * followed) and its header parsed on libuv's threads; kept until the folder changes (the
 * threads that draw keep their decoded copy as long), the bytes of animated files within
 * OPERATOR_ANIMATIONS_KEPT_BYTES. Undefined when it is no longer a readable image: the
 * thread that draws then answers it as an unknown name.
 */
async function operatorImage (catalog: AssetCatalog, file: string): Promise<OperatorImage | undefined> {
  let cache = operatorImages.get(catalog)
  if (cache === undefined) {
    const created: OperatorImages = { entries: new Map(), sizes: new Map(), total: 0 }
    catalog.onChange(() => {
      created.entries.clear()
      created.sizes.clear()
      created.total = 0
    })
    operatorImages.set(catalog, cache = created)
  }
  const kept = cache
  let image = kept.entries.get(file)
  if (image !== undefined) {
    kept.entries.delete(file)
    kept.entries.set(file, image)
    return await image
  }
  image = readOperatorImage(file)
  kept.entries.set(file, image)
  const read = await image
  const bytes = read?.animated?.bytes.length ?? 0
  if (bytes > 0 && kept.entries.get(file) === image && !kept.sizes.has(file)) {
    kept.sizes.set(file, bytes)
    kept.total += bytes
    for (const other of kept.entries.keys()) {
      if (kept.total <= OPERATOR_ANIMATIONS_KEPT_BYTES) break
      const size = kept.sizes.get(other)
      if (size === undefined) continue
      kept.sizes.delete(other)
      kept.entries.delete(other)
      kept.total -= size
    }
  }
  return read
}

async function readOperatorImage (file: string): Promise<OperatorImage | undefined> {
  // The source-image gate (src/images/limits.ts); readRegularFile has sniffed the bytes.
  const bytes = await readRegularFile(file)
  const header = bytes === undefined ? undefined : await readHeader(bytes).catch(() => undefined)
  if (bytes === undefined || header === undefined || !checkSource(header, OPERATOR_ASSET_LIMITS).ok) return undefined
  const size = { width: header.width, height: header.height }
  const frames = header.frames
  if (frames === 1) return size
  return { ...size, animated: { bytes, ...size, frames, ...(header.delays !== undefined ? { delays: header.delays } : {}) } }
}

/** How a request's fetches are counted and stopped (src/generation/service.ts holds their bytes until the picture is drawn). */
export interface Fetching {
  bytes: FetchBytes
  /** Fires when the request is answered, its client gone, or its bytes shed: fetches stop and fail with its reason. */
  signal: AbortSignal
}

/**
 * Main-thread side: checks the request (the same code the worker draws with, so every
 * 400 is answered before work is queued) and fetches its URLs; `decode` (run inside the
 * render slot) turns the fetched bytes into a job, within the pixel budgets.
 */
export async function collectJob (deps: { fonts: FontRegistry, assets: AssetCatalog, images: ImageFetcher, discordCdn: string }, spec: JobSpec, fetching?: Fetching): Promise<{ sourcePixels: number, decodePixels: number, plan: JobPlan, decode: (timeoutMs: number) => Promise<DrawJob> }> {
  const fetched = new Map<string, Fetched>()
  const emoji = new Set<string>()
  // An operator's animated banner or icon joins the fetched images when the picture can
  // move, under its listed key (listedKey), known here by the names the fields wrote.
  const mayMove = spec.animated !== 'off' && ANIMATED_FORMATS.has(spec.format)
  const listedAs = new Map<string, string>()
  async function listed (kind: AssetKind, name: string, written: string): Promise<Sized | undefined> {
    const file = deps.assets.operatorFile(kind, name)
    const image = file === undefined ? undefined : await operatorImage(deps.assets, file)
    if (image?.animated !== undefined && mayMove) {
      fetched.set(listedKey(kind, name), image.animated)
      listedAs.set(written.trim(), listedKey(kind, name))
    }
    return image
  }
  // The role each URL was fetched for (a field, or a place in a list: `players[3].avatar`).
  const roles = new Map<string, string>()
  async function fetchUrl (url: string, role: string, options?: { cacheFailure?: boolean, maxBytes?: number }): Promise<Sized> {
    const key = url.trim()
    if (!roles.has(key)) roles.set(key, role)
    const image = await deps.images.fetchImage(key, role, { ...options, ...fetching })
    fetched.set(key, image)
    // Only the size is read on this thread (the canvas size of /gen/custom follows its base).
    return { width: image.width, height: image.height }
  }
  // The event loop's phase (drawable.ts): the images are their sizes, read from their headers.
  const source: ImageSource<Sized> = {
    url: fetchUrl,
    async assetOrUrl (kind, value, role) {
      if (isUrlLike(value)) return await source.url(value, role)
      // Unknown names fail here with their 400; known ones are drawn by the worker.
      const size = await listed(kind, deps.assets.resolve(kind, value, role), value)
      return size ?? { width: 0, height: 0 }
    },
    async image (value, role, field) {
      const named = listedImage(deps.assets, value, field)
      if (named === undefined) return await source.url(value, role)
      // Drawn by the worker; its size decides the canvas of a base and the budgets here.
      return await listedImageSize(deps.assets, named, async () => await listed(named.kind, named.name, value))
    },
    async emoji (e) {
      const url = emojiUrl(deps.discordCdn, e)
      // Counted when asked, in the order the texts are read: the same emoji each time.
      if (!emoji.has(url)) {
        if (emoji.size >= MAX_EMOJI_PER_PICTURE) return undefined
        emoji.add(url)
      }
      try {
        // A failure is kept briefly (image-fetcher.ts): a dead emoji is not fetched for every picture.
        return await fetchUrl(url, 'emoji', { cacheFailure: true, maxBytes: MAX_EMOJI_BYTES })
      } catch (err) {
        // The request's own failure (stopped, or its fetched bytes over REMOTE_FETCH_MEMORY:
        // a 503) is the picture's: drawn without the emoji, it would be a wrong answer.
        if (fetching?.signal.aborted === true || (isAppError(err) && err.status === 503)) throw err
        // Drawn as its :name: (markup.ts); the fetch's outcome is in the metrics.
        return undefined
      }
    }
  }
  let boxes: Map<string, { width: number, height: number }>
  let canvas: { width: number, height: number }
  if ('template' in spec) {
    const template = templateByName(spec.template)!
    canvas = await template.prepare({ fonts: deps.fonts, images: source }, spec.fields)
    boxes = new Map()
    for (const [field, box] of Object.entries(template.imageBoxes)) {
      const values = template.fields[field]?.list === true ? listValues(spec.fields[field], field) : [spec.fields[field]?.trim() ?? '']
      for (const value of values) if (value !== '') boxes.set(value, box)
    }
    // Images of a list's items have the box of their role without its index (`players[].avatar`).
    for (const [url, role] of roles) {
      const box = template.imageBoxes[role.replace(/\[\d+\]/g, '[]')]
      if (box !== undefined && !boxes.has(url)) boxes.set(url, box)
    }
  } else {
    canvas = await prepareCustom({ fonts: deps.fonts, images: source }, spec.custom)
    boxes = customImageBoxes(spec.custom, (url) => fetched.get(listedAs.get(url.trim()) ?? url.trim()))
  }
  // A listed image is drawn in the boxes of the names that wrote it.
  for (const [written, key] of listedAs) {
    const box = boxes.get(written)
    const other = boxes.get(key)
    if (box !== undefined) boxes.set(key, other === undefined ? box : { width: Math.max(box.width, other.width), height: Math.max(box.height, other.height) })
  }

  for (const url of emoji) if (!boxes.has(url)) boxes.set(url, EMOJI_BOX)

  // Animated when an image moves and the output can (docs/generation.md, "Animated pictures").
  const movingImages = [...fetched.values()].filter((i) => (i.frames ?? 1) > 1)
  if (spec.animated === 'on' && !ANIMATED_FORMATS.has(spec.format)) {
    throw new AppError('VALIDATION', `"animated" is true but the output is ${spec.format}, which cannot move: ask for output gif or webp`, { details: { field: 'animated' } })
  }
  const animate = mayMove && movingImages.length > 0
  const timeline = animate ? planTimeline(movingImages.map((i) => playedDelays(i.delays, i.frames!)), canvas.width * canvas.height) : undefined

  // Budgets, decided from the headers before anything is decoded.
  let sourcePixels = 0
  let decodedPixels = 0
  let sharpPixels = 0
  const plans = new Map<string, { image: Fetched, target: { width: number, height: number } | undefined }>()
  for (const [url, image] of fetched) {
    // Every frame of an image that moves is decoded; a still picture decodes the first.
    const frames = animate ? image.frames ?? 1 : 1
    sourcePixels += image.width * image.height * frames
    const box = boxes.get(url)
    let target: { width: number, height: number } | undefined
    if (box !== undefined && (image.width > box.width * SHRINK_SLACK || image.height > box.height * SHRINK_SLACK)) {
      // fit "outside": both sides at least the box's, so stretched and cover drawings keep their detail.
      const scale = Math.min(1, Math.max(box.width / image.width, box.height / image.height))
      target = { width: Math.max(1, Math.ceil(image.width * scale)), height: Math.max(1, Math.ceil(image.height * scale)) }
    }
    decodedPixels += (target === undefined ? image.width * image.height : target.width * target.height) * frames
    // What `decode` hands sharp (a shrink, or every frame of an image that moves).
    if (target !== undefined || (animate && frames > 1)) sharpPixels += image.width * image.height * frames
    plans.set(url, { image, target })
  }
  if (sourcePixels > MAX_SOURCE_PIXELS) {
    throw new AppError('GEN_BUDGET_EXCEEDED', `The request's images hold ${sourcePixels} pixels as sent, above the budget of ${MAX_SOURCE_PIXELS} per request: use smaller images`, { details: { budget: 'source pixels', limit: MAX_SOURCE_PIXELS, value: sourcePixels } })
  }
  if (decodedPixels > MAX_DECODED_PIXELS) {
    throw new AppError('GEN_BUDGET_EXCEEDED', `The request's images, at the sizes they are drawn, hold ${decodedPixels} pixels, above the budget of ${MAX_DECODED_PIXELS} per request: draw them smaller`, { details: { budget: 'decoded pixels', limit: MAX_DECODED_PIXELS, value: decodedPixels } })
  }

  const framesDrawn = timeline?.delays.length ?? 1
  return {
    sourcePixels,
    decodePixels: sharpPixels,
    plan: {
      units: sourcePixels + (timeline === undefined ? 0 : framesDrawn * canvas.width * canvas.height * ANIMATION_UNITS_PER_PIXEL),
      frames: framesDrawn,
      framesMerged: timeline?.merged ?? false
    },
    async decode (timeoutMs) {
      const entries = await Promise.all([...plans].map(async ([url, { image, target }]): Promise<[string, PreparedImage]> => {
        const natural = { naturalWidth: image.width, naturalHeight: image.height }
        if (animate && (image.frames ?? 1) > 1) return [url, await decodeFrames(url, image, target, timeoutMs)]
        if (target === undefined) return [url, { encoded: image.bytes, width: image.width, height: image.height, ...natural }]
        let raw: Buffer
        try {
          raw = await sharp(image.bytes, { limitInputPixels: false, sequentialRead: true })
            // libvips stops the pipeline when the job's time is up.
            .timeout({ seconds: Math.max(1, Math.ceil(timeoutMs / 1000)) })
            .resize({ width: target.width, height: target.height, fit: 'outside', withoutEnlargement: true })
            .ensureAlpha()
            .raw()
            .toBuffer()
        } catch (err) {
          throw new AppError('REMOTE_IMAGE_INVALID', `The image at ${url} could not be decoded`, { details: { url }, cause: err })
        }
        return [url, { raw, width: target.width, height: target.height, ...natural }]
      }))
      const common = { format: spec.format, images: Object.fromEntries(entries), discordCdn: deps.discordCdn, ...(timeline === undefined ? {} : { animation: { delays: timeline.delays, starts: timeline.starts } }) }
      return 'template' in spec ? { ...common, template: spec.template, fields: spec.fields } : { ...common, custom: spec.custom }
    }
  }
}

/** Every frame of an animated image, as RGBA stacked, each shrunk to `target` like a still. */
async function decodeFrames (url: string, image: Fetched, target: { width: number, height: number } | undefined, timeoutMs: number): Promise<PreparedImage> {
  try {
    let pipeline = sharp(image.bytes, { animated: true, limitInputPixels: false })
      .timeout({ seconds: Math.max(1, Math.ceil(timeoutMs / 1000)) })
    if (target !== undefined) pipeline = pipeline.resize({ width: target.width, height: target.height, fit: 'outside', withoutEnlargement: true })
    const { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    const frames = image.frames ?? 1
    const height = info.height / frames
    return { raw: data, width: info.width, height, naturalWidth: image.width, naturalHeight: image.height, delays: playedDelays(image.delays, frames) }
  } catch (err) {
    throw new AppError('REMOTE_IMAGE_INVALID', `The image at ${url} could not be decoded`, { details: { url }, cause: err })
  }
}
