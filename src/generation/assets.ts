// Banners and icons by name: the project's own art (art.ts), drawn once on first use,
// plus image files an operator drops into DATA_DIR/banners and DATA_DIR/icons (the
// file name without extension is the name; picked up when the folder changes).
// Names are matched case-insensitively, as one client checks them.
import fs from 'node:fs'
import path from 'node:path'
import { type Canvas, createCanvas, type Image, loadImage } from '@napi-rs/canvas'
import { AppError } from '../errors.js'
import { BANNER_HEIGHT, BANNER_WIDTH, BANNERS, ICON_SIZE, ICONS } from './art.js'

export type AssetKind = 'banner' | 'icon'
export type Drawable = Canvas | Image
const OPERATOR_FILE = /\.(png|jpe?g|webp|gif)$/i
/** Operator files above this size are skipped (they are decoded into memory). */
const MAX_OPERATOR_FILE_BYTES = 16 * 1024 * 1024

export interface AssetRegistry {
  names (kind: AssetKind): string[]
  has (kind: AssetKind, name: string): boolean
  /** The decoded asset; AppError UNKNOWN_ASSET naming `field` when there is none. */
  get (kind: AssetKind, name: string, field?: string): Promise<Drawable>
  /** PNG bytes of the asset, for the public preview. */
  preview (kind: AssetKind, name: string): Promise<Buffer>
}

interface OperatorDir { dir: string, mtime: number, checkedAt: number, files: Map<string, string> }

/**
 * How often an operator folder is looked at again (a stat per lookup was on every
 * picture's path, two or three times, and an exception each while the folder is absent):
 * files added there are seen within this time.
 */
export const OPERATOR_RESCAN_MS = 1000

export function createAssetRegistry (options: { dataDir: string }): AssetRegistry {
  const builtIn: Record<AssetKind, Readonly<Record<string, (ctx: any, w: number, h: number) => void>>> = { banner: BANNERS, icon: ICONS }
  const dirs: Record<AssetKind, OperatorDir> = {
    banner: { dir: path.join(options.dataDir, 'banners'), mtime: -1, checkedAt: -Infinity, files: new Map() },
    icon: { dir: path.join(options.dataDir, 'icons'), mtime: -1, checkedAt: -Infinity, files: new Map() }
  }
  const decoded = new Map<string, Promise<Drawable>>()
  const previews = new Map<string, Promise<Buffer>>()

  function operatorFiles (kind: AssetKind): Map<string, string> {
    const d = dirs[kind]
    const now = Date.now()
    if (now - d.checkedAt < OPERATOR_RESCAN_MS) return d.files
    d.checkedAt = now
    let mtime = 0
    try { mtime = fs.statSync(d.dir).mtimeMs } catch { mtime = 0 }
    if (mtime !== d.mtime) {
      d.mtime = mtime
      d.files = new Map()
      if (mtime !== 0) {
        for (const file of fs.readdirSync(d.dir).filter((f) => OPERATOR_FILE.test(f)).sort()) {
          d.files.set(file.replace(OPERATOR_FILE, '').toLowerCase(), path.join(d.dir, file))
        }
      }
      for (const key of [...decoded.keys(), ...previews.keys()]) {
        if (key.startsWith(`${kind}:`)) { decoded.delete(key); previews.delete(key) }
      }
    }
    return d.files
  }

  function canonical (kind: AssetKind, name: string): string | undefined {
    const lower = name.trim().toLowerCase()
    if (operatorFiles(kind).has(lower)) return lower
    return Object.hasOwn(builtIn[kind], lower) ? lower : undefined
  }

  async function load (kind: AssetKind, name: string): Promise<Drawable> {
    const file = operatorFiles(kind).get(name)
    if (file) {
      if (fs.statSync(file).size > MAX_OPERATOR_FILE_BYTES) throw new AppError('UNKNOWN_ASSET', `The ${kind} file "${name}" is too large to use`)
      return await loadImage(await fs.promises.readFile(file))
    }
    const [w, h] = kind === 'banner' ? [BANNER_WIDTH, BANNER_HEIGHT] : [ICON_SIZE, ICON_SIZE]
    const canvas = createCanvas(w, h)
    builtIn[kind][name]!(canvas.getContext('2d'), w, h)
    return canvas
  }

  const registry: AssetRegistry = {
    names (kind) {
      return [...new Set([...Object.keys(builtIn[kind]), ...operatorFiles(kind).keys()])].sort()
    },
    has (kind, name) {
      return canonical(kind, name) !== undefined
    },
    async get (kind, name, field = kind) {
      const key = canonical(kind, name)
      if (key === undefined) {
        throw new AppError('UNKNOWN_ASSET', `Unknown ${kind} "${name.slice(0, 60)}" in "${field}": use a name from /list/${kind}s or an image URL`, { details: { field, valid: registry.names(kind) } })
      }
      let job = decoded.get(`${kind}:${key}`)
      if (!job) {
        job = load(kind, key)
        decoded.set(`${kind}:${key}`, job)
        job.catch(() => decoded.delete(`${kind}:${key}`))
      }
      return await job
    },
    async preview (kind, name) {
      const key = canonical(kind, name)
      if (key === undefined) throw new AppError('ASSET_NOT_FOUND', `No ${kind} named "${name.slice(0, 60)}": see /list/${kind}s`)
      let job = previews.get(`${kind}:${key}`)
      if (!job) {
        job = registry.get(kind, key).then(async (image) => {
          const canvas = createCanvas(image.width, image.height)
          canvas.getContext('2d').drawImage(image, 0, 0)
          return await canvas.encode('png')
        })
        previews.set(`${kind}:${key}`, job)
        job.catch(() => previews.delete(`${kind}:${key}`))
      }
      return await job
    }
  }
  return registry
}
