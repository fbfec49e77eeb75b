// Banners and icons by name: the project's own art (art.ts), drawn once on first use,
// plus image files an operator drops into DATA_DIR/banners and DATA_DIR/icons (the
// file name without extension is the name; picked up when the folder changes).
// Names are matched case-insensitively, as one client checks them.
// Only regular image files of an operator folder are used: symbolic links (which could
// point anywhere, /etc/passwd included), directories, other special files, files too
// large and files whose first bytes are not PNG, JPEG, WebP or GIF are skipped, each
// with one warning when the folder is scanned, and never answer a 500. The file is
// opened without following links, so one swapped in after the scan is refused too.
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

/** PNG, JPEG, WebP or GIF, from the first bytes: what the canvas decodes. */
function looksLikeImage (head: Buffer): boolean {
  if (head.length < 12) return false
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return true
  if (head.readUInt32BE(0) === 0x89504e47 && head.readUInt32BE(4) === 0x0d0a1a0a) return true
  const ascii = head.toString('latin1', 0, 12)
  return (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') || ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')
}

// O_NOFOLLOW: a link is refused (ELOOP) rather than followed; O_NONBLOCK: a FIFO put
// in the folder cannot hang the open.
const OPEN_NO_FOLLOW = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK

/** Why an operator file cannot be used, or undefined when it is a regular image file. */
function unusable (file: string): string | undefined {
  let fd: number | undefined
  try {
    const link = fs.lstatSync(file)
    if (link.isSymbolicLink()) return 'it is a symbolic link (only regular files are used)'
    if (!link.isFile()) return link.isDirectory() ? 'it is a directory' : 'it is not a regular file'
    if (link.size > MAX_OPERATOR_FILE_BYTES) return `it is larger than ${MAX_OPERATOR_FILE_BYTES / 1024 / 1024} MB`
    fd = fs.openSync(file, OPEN_NO_FOLLOW)
    const head = Buffer.alloc(12)
    const read = fs.readSync(fd, head, 0, head.length, 0)
    if (!looksLikeImage(head.subarray(0, read))) return 'its content is not a PNG, JPEG, WebP or GIF image'
    return undefined
  } catch (err) {
    return `it cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/** The bytes of a regular file, without following a link; undefined when it is no longer one. */
async function readRegularFile (file: string): Promise<Buffer | undefined> {
  let handle: fs.promises.FileHandle
  try {
    handle = await fs.promises.open(file, OPEN_NO_FOLLOW)
  } catch {
    return undefined
  }
  try {
    const stat = await handle.stat()
    if (!stat.isFile() || stat.size > MAX_OPERATOR_FILE_BYTES) return undefined
    const bytes = await handle.readFile()
    return looksLikeImage(bytes) ? bytes : undefined
  } finally {
    await handle.close()
  }
}

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

export interface AssetRegistryOptions {
  dataDir: string
  /** Told once per skipped operator file per scan; defaults to a process warning. */
  warn?: (message: string) => void
}

export function createAssetRegistry (options: AssetRegistryOptions): AssetRegistry {
  const warn = options.warn ?? ((message: string) => process.emitWarning(message, 'OperatorAssetWarning'))
  const builtIn: Record<AssetKind, Readonly<Record<string, (ctx: any, w: number, h: number) => void>>> = { banner: BANNERS, icon: ICONS }
  const dirs: Record<AssetKind, OperatorDir> = {
    banner: { dir: path.join(options.dataDir, 'banners'), mtime: -1, checkedAt: -Infinity, files: new Map() },
    icon: { dir: path.join(options.dataDir, 'icons'), mtime: -1, checkedAt: -Infinity, files: new Map() }
  }
  const decoded = new Map<string, Promise<Drawable>>()
  const previews = new Map<string, Promise<Buffer>>()
  // Scanned at once: a bad file is reported at start, not at its first use.
  operatorFiles('banner')
  operatorFiles('icon')

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
        let names: string[] = []
        try { names = fs.readdirSync(d.dir) } catch (err) { warn(`DATA_DIR/${kind}s cannot be listed: ${(err as Error).message}`) }
        for (const file of names.filter((f) => OPERATOR_FILE.test(f)).sort()) {
          const full = path.join(d.dir, file)
          const why = unusable(full)
          if (why !== undefined) {
            warn(`Skipped ${kind} file ${full}: ${why}`)
            continue
          }
          d.files.set(file.replace(OPERATOR_FILE, '').toLowerCase(), full)
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
      // Checked again: the file may have been replaced since the scan.
      const bytes = await readRegularFile(file)
      const image = bytes === undefined ? undefined : await loadImage(bytes).catch(() => undefined)
      if (image === undefined) {
        warn(`Skipped ${kind} file ${file}: it is no longer a regular image file that can be decoded`)
        dirs[kind].files.delete(name)
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
        job = registry.get(kind, key).catch((err: unknown) => {
          // An operator file found unusable at its first use: the public path answers 404.
          if (err instanceof AppError && err.code === 'UNKNOWN_ASSET') throw new AppError('ASSET_NOT_FOUND', err.message)
          throw err
        }).then(async (image) => {
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
