// Banners and icons as pictures, in the threads that draw (src/generation/pipeline/thread.ts): the
// project's own art drawn once on first use, operators' files decoded once, both kept
// until the operator's folder changes. Which names exist is the catalog's (asset-catalog.ts).
import { createCanvas, loadImage } from '@napi-rs/canvas'
import { AppError } from '../../errors.js'
import type { Drawable } from '../drawable.js'
import { BANNER_HEIGHT, BANNER_WIDTH, BANNERS, ICON_SIZE, ICONS } from './art.js'
import { type AssetCatalog, type AssetCatalogOptions, type AssetKind, createAssetCatalog, readRegularFile } from './asset-catalog.js'

export type { AssetKind } from './asset-catalog.js'

export interface AssetRegistry extends AssetCatalog {
  /** The decoded asset; AppError UNKNOWN_ASSET naming `field` when there is none. */
  get (kind: AssetKind, name: string, field?: string): Promise<Drawable>
  /** PNG bytes of the asset, for the public preview; AppError ASSET_NOT_FOUND when there is none. */
  preview (kind: AssetKind, name: string): Promise<Uint8Array>
}

export function createAssetRegistry (options: AssetCatalogOptions): AssetRegistry {
  const warn = options.warn ?? ((message: string) => process.emitWarning(message, 'OperatorAssetWarning'))
  const catalog = createAssetCatalog({ ...options, warn })
  const builtIn: Record<AssetKind, Readonly<Record<string, (ctx: any, w: number, h: number) => void>>> = { banner: BANNERS, icon: ICONS }
  const decoded = new Map<string, Promise<Drawable>>()
  catalog.onChange((kind) => {
    for (const key of decoded.keys()) if (key.startsWith(`${kind}:`)) decoded.delete(key)
  })

  async function load (kind: AssetKind, name: string): Promise<Drawable> {
    const file = catalog.operatorFile(kind, name)
    if (file) {
      // Checked again: the file may have been replaced since the scan.
      const bytes = await readRegularFile(file)
      const image = bytes === undefined ? undefined : await loadImage(bytes).catch(() => undefined)
      if (image === undefined) {
        warn(`Skipped ${kind} file ${file}: it is no longer a regular image file that can be decoded`)
        catalog.drop(kind, name)
        throw new AppError('UNKNOWN_ASSET', `The ${kind} "${name}" cannot be used (the operator's file is not a readable image): use another name from /list/${kind}s`)
      }
      return image
    }
    const [w, h] = kind === 'banner' ? [BANNER_WIDTH, BANNER_HEIGHT] : [ICON_SIZE, ICON_SIZE]
    const canvas = createCanvas(w, h)
    builtIn[kind][name]!(canvas.getContext('2d'), w, h)
    return canvas
  }

  const registry: AssetRegistry = {
    ...catalog,
    async get (kind, name, field = kind) {
      const key = catalog.resolve(kind, name, field)
      let job = decoded.get(`${kind}:${key}`)
      if (!job) {
        job = load(kind, key)
        decoded.set(`${kind}:${key}`, job)
        job.catch(() => decoded.delete(`${kind}:${key}`))
      }
      return await job
    },
    async preview (kind, name) {
      if (!catalog.has(kind, name)) throw new AppError('ASSET_NOT_FOUND', `No ${kind} named "${name.slice(0, 60)}": see /list/${kind}s`)
      let image: Drawable
      try {
        image = await registry.get(kind, name)
      } catch (err) {
        // An operator file found unusable at its first use: the public path answers 404.
        if (err instanceof AppError && err.code === 'UNKNOWN_ASSET') throw new AppError('ASSET_NOT_FOUND', err.message)
        throw err
      }
      const canvas = createCanvas(image.width, image.height)
      canvas.getContext('2d').drawImage(image, 0, 0)
      return await canvas.encode('png')
    }
  }
  return registry
}
