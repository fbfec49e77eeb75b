// The thread that draws (src/generation/pipeline/thread.ts): a job collected on the main thread
// (render-job.ts) becomes a picture. Fonts, assets and canvases are this thread's,
// loaded on its first picture and kept for its life.
import { createCanvas, ImageData } from '@napi-rs/canvas'
import { AppError } from '../../errors.js'
import { isUrlLike, listedImage, listedKey } from '../assets/asset-catalog.js'
import { type AssetKind, createAssetRegistry } from '../assets/assets.js'
import type { ImageSource } from '../assets/image-source.js'
import { type Drawable, drawn, setNaturalSize } from '../drawable.js'
import { createCanvasPool } from '../canvas/canvas-pool.js'
import { createDecodedImages, type DecodedImages } from './decoded-images.js'
import { prepareCustom } from '../custom/custom.js'
import { encodeSync } from '../canvas/draw.js'
import { createDrawingFonts } from '../text/font-loading.js'
import { emojiUrl } from '../text/markup.js'
import type { DrawnFrames } from './output-budget.js'
import { createFrameDrawer } from './still-layers.js'
import { frameAt } from './timeline.js'
import type { DrawJob, PreparedImage } from './render-job.js'
import { templateByName } from '../template-registry.js'

/** A picture drawn: its encoded bytes, or its frames' pixels for the main thread to encode (a GIF, an animation: output-budget.ts). */
export type Drawn = Uint8Array | DrawnFrames

export interface Drawer {
  draw (job: DrawJob): Promise<Drawn>
  /** A banner or icon as PNG, for its public preview; AppError ASSET_NOT_FOUND when there is none. */
  preview (kind: AssetKind, name: string): Promise<Uint8Array>
  /** Lets go of what only serves the next pictures of a burst (the idle canvases). */
  quiet (): void
}

export function createDrawer (options: { dataDir: string }): Drawer {
  const fonts = createDrawingFonts({ dataDir: options.dataDir })
  const assets = createAssetRegistry({ dataDir: options.dataDir })
  const canvases = createCanvasPool()
  const decodedImages = createDecodedImages()
  return {
    preview: async (kind, name) => await assets.preview(kind, name),
    quiet: () => {
      canvases.clear()
      decodedImages.clear()
    },
    async draw (job) {
      const decoded = new Map<string, Promise<Drawable>>()
      const moving: MovingImage[] = []
      const source: ImageSource = {
        async url (url) {
          const key = url.trim()
          let image = decoded.get(key)
          if (image === undefined) decoded.set(key, image = decodePrepared(key, job.images[key]!, moving, decodedImages))
          return await image
        },
        async assetOrUrl (kind: AssetKind, value, role) {
          return isUrlLike(value) ? await source.url(value, role) : await listed(kind, assets.resolve(kind, value, role), role)
        },
        async image (value, role, field) {
          const named = listedImage(assets, value, field)
          return named === undefined ? await source.url(value, role) : await listed(named.kind, named.name, field)
        },
        async emoji (e) {
          // Fetched on the main thread, or drawn as its :name: (render-job.ts).
          const url = job.discordCdn === undefined ? undefined : emojiUrl(job.discordCdn, e)
          if (url === undefined || job.images[url] === undefined) return undefined
          return await source.url(url, 'emoji').catch(() => undefined)
        }
      }
      /** A listed banner or icon: as the main thread prepared it when its file moves (render-job.ts), else the decoded asset. */
      async function listed (kind: AssetKind, name: string, field: string): Promise<Drawable> {
        const key = listedKey(kind, name)
        return job.images[key] !== undefined ? await source.url(key, field) : await assets.get(kind, name, field)
      }
      const deps = { fonts, images: source }
      const draw = 'template' in job ? await templateByName(job.template)!.prepare(deps, job.fields) : await prepareCustom(deps, job.custom)
      if (job.animation === undefined && job.format !== 'gif') {
        const canvas = draw(canvases.acquire, drawn)
        try {
          return encodeSync(canvas, job.format)
        } finally {
          canvases.release(canvas)
        }
      }
      // Frame by frame: each moving image shows its frame at the frame's time, over what
      // was painted before the first of them, painted once (still-layers.ts); the
      // picture's pixels are stacked for the encoder.
      const { delays, starts } = job.animation ?? { delays: [0], starts: [0] }
      const frameBytes = draw.width * draw.height * 4
      const raw = new Uint8Array(frameBytes * delays.length)
      const frames = createFrameDrawer(draw, new Set(moving.map((m) => m.canvas)), canvases)
      starts.forEach((ms, k) => {
        for (const m of moving) m.show(frameAt(m.delays, ms))
        const canvas = frames.frame()
        try {
          raw.set(canvas.getContext('2d').getImageData(0, 0, draw.width, draw.height).data, k * frameBytes)
        } finally {
          canvases.release(canvas)
        }
      })
      return { raw, width: draw.width, height: draw.height, delays }
    }
  }
}

/** An animated image as the picture draws it: one canvas whose pixels are the frame shown. */
interface MovingImage {
  canvas: Drawable
  delays: number[]
  show (frame: number): void
}

async function decodePrepared (url: string, prepared: PreparedImage, moving: MovingImage[], decodedImages: DecodedImages): Promise<Drawable> {
  if (prepared.encoded !== undefined) {
    try {
      return await decodedImages.decode(prepared.encoded)
    } catch {
      throw new AppError('REMOTE_IMAGE_INVALID', `The image at ${url} could not be decoded`, { details: { url } })
    }
  }
  const canvas = createCanvas(prepared.width, prepared.height)
  const frameBytes = prepared.width * prepared.height * 4
  const frame = (i: number): ImageData => new ImageData(new Uint8ClampedArray(prepared.raw!.buffer, prepared.raw!.byteOffset + i * frameBytes, frameBytes), prepared.width, prepared.height)
  const ctx = canvas.getContext('2d')
  ctx.putImageData(frame(0), 0, 0)
  if (prepared.delays !== undefined && prepared.delays.length > 1) {
    let shown = 0
    moving.push({
      canvas,
      delays: prepared.delays,
      show (i) {
        if (i === shown) return
        shown = i
        ctx.putImageData(frame(i), 0, 0)
      }
    })
  }
  setNaturalSize(canvas, prepared.naturalWidth, prepared.naturalHeight)
  return canvas
}
