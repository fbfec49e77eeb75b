// Banners and icons by name: the project's own art (art.ts) and image files an operator
// drops into DATA_DIR/banners and DATA_DIR/icons (the file name without extension is the
// name; picked up when the folder changes). Names are matched case-insensitively, as one
// client checks them. This is the part both threads need: the main thread answers lists
// and refuses unknown names before any work is queued; the threads that draw decode and
// draw the assets (assets.ts).
// Only regular image files of an operator folder are used: symbolic links (which could
// point anywhere, /etc/passwd included), directories, other special files, files too
// large and files whose first bytes are not PNG, JPEG, WebP or GIF are skipped, each
// with one warning when the folder is scanned, and never answer a 500. The file is
// opened without following links, so one swapped in after the scan is refused too.
import fs from 'node:fs'
import path from 'node:path'
import { AppError } from '../../errors.js'
import { type SniffedFormat, sniff } from '../../images/sniff.js'
import { BANNER_HEIGHT, BANNER_WIDTH, BANNERS, ICON_SIZE, ICONS } from './art.js'

export type AssetKind = 'banner' | 'icon'

export function isUrlLike (value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(value.trim())
}

/** `icon:star`, `banner:space` (a trailing s allowed): a listed image named in its list, not a URL. */
export const LISTED_PREFIX = /^(icon|banner)s?:/i

/** Whether an image field of /gen/custom fetches a URL, rather than naming a listed image. */
export function isFetchedUrl (value: string): boolean {
  return isUrlLike(value) && !LISTED_PREFIX.test(value.trim())
}
const OPERATOR_FILE = /\.(png|jpe?g|webp|gif)$/i
/** Operator files above this size are skipped (they are decoded into memory). */
const MAX_OPERATOR_FILE_BYTES = 16 * 1024 * 1024

/** What the canvas decodes (src/images/sniff.ts names them from the first bytes). */
const OPERATOR_FORMATS: ReadonlySet<SniffedFormat> = new Set(['PNG', 'JPEG', 'WebP', 'GIF'])

/** PNG, JPEG, WebP or GIF, from the first bytes. */
function looksLikeImage (head: Buffer): boolean {
  const sniffed = sniff(head)
  return sniffed !== undefined && sniffed.readable && OPERATOR_FORMATS.has(sniffed.format)
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
export async function readRegularFile (file: string): Promise<Buffer | undefined> {
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

export interface AssetCatalog {
  names (kind: AssetKind): string[]
  has (kind: AssetKind, name: string): boolean
  /** The name as the catalog keys it (lower case), or undefined when there is no such asset. */
  canonical (kind: AssetKind, name: string): string | undefined
  /** Like canonical, but an unknown name is the AppError UNKNOWN_ASSET naming `field`. */
  resolve (kind: AssetKind, name: string, field?: string): string
  /** The operator's file behind a canonical name; undefined for the project's own art. */
  operatorFile (kind: AssetKind, canonical: string): string | undefined
  /** Forgets an operator file found unusable at its use, until the folder changes. */
  drop (kind: AssetKind, canonical: string): void
  /** Called when an operator folder's content changed: what was made from it is stale. */
  onChange (listener: (kind: AssetKind) => void): void
}

interface OperatorDir { dir: string, mtime: number, checkedAt: number, files: Map<string, string> }

/**
 * How often an operator folder is looked at again (a stat per lookup was on every
 * picture's path, two or three times, and an exception each while the folder is absent):
 * files added there are seen within this time.
 */
export const OPERATOR_RESCAN_MS = 1000

export interface AssetCatalogOptions {
  dataDir: string
  /** Told once per skipped operator file per scan; defaults to a process warning. */
  warn?: (message: string) => void
}

export function createAssetCatalog (options: AssetCatalogOptions): AssetCatalog {
  const warn = options.warn ?? ((message: string) => process.emitWarning(message, 'OperatorAssetWarning'))
  const builtIn: Record<AssetKind, Readonly<Record<string, unknown>>> = { banner: BANNERS, icon: ICONS }
  const dirs: Record<AssetKind, OperatorDir> = {
    banner: { dir: path.join(options.dataDir, 'banners'), mtime: -1, checkedAt: -Infinity, files: new Map() },
    icon: { dir: path.join(options.dataDir, 'icons'), mtime: -1, checkedAt: -Infinity, files: new Map() }
  }
  const listeners: Array<(kind: AssetKind) => void> = []
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
      for (const listener of listeners) listener(kind)
    }
    return d.files
  }

  const catalog: AssetCatalog = {
    names (kind) {
      return [...new Set([...Object.keys(builtIn[kind]), ...operatorFiles(kind).keys()])].sort()
    },
    has (kind, name) {
      return catalog.canonical(kind, name) !== undefined
    },
    canonical (kind, name) {
      const lower = name.trim().toLowerCase()
      if (operatorFiles(kind).has(lower)) return lower
      return Object.hasOwn(builtIn[kind], lower) ? lower : undefined
    },
    resolve (kind, name, field = kind) {
      const key = catalog.canonical(kind, name)
      if (key === undefined) {
        throw new AppError('UNKNOWN_ASSET', `Unknown ${kind} "${name.slice(0, 60)}" in "${field}": use a name from /list/${kind}s or an image URL`, { details: { field, valid: catalog.names(kind) } })
      }
      return key
    },
    operatorFile (kind, canonical) {
      return operatorFiles(kind).get(canonical)
    },
    drop (kind, canonical) {
      dirs[kind].files.delete(canonical)
    },
    onChange (listener) {
      listeners.push(listener)
    }
  }
  return catalog
}

/**
 * What an image field of /gen/custom (`base.url`, `images[].url`) names: undefined for an
 * image URL (a scheme, as `https:`), else the listed icon or banner, so that a picture can
 * use the server's own art (whose preview URL is this server's address, which the fetcher
 * refuses as loopback or private). `icon:NAME` and `banner:NAME` look in that list; a bare
 * name in the icons, then the banners (the bundled lists share no name; an operator's
 * file can make one both). Names are matched as the templates match theirs.
 */
export function listedImage (catalog: AssetCatalog, value: string, field: string): { kind: AssetKind, name: string } | undefined {
  const text = value.trim()
  const prefix = LISTED_PREFIX.exec(text)
  if (prefix) {
    const kind = prefix[1]!.toLowerCase() as AssetKind
    return { kind, name: catalog.resolve(kind, text.slice(prefix[0].length), field) }
  }
  if (isUrlLike(text)) return undefined
  for (const kind of ['icon', 'banner'] as const) {
    const name = catalog.canonical(kind, text)
    if (name !== undefined) return { kind, name }
  }
  throw new AppError('UNKNOWN_ASSET', `Unknown image "${text.slice(0, 60)}" in "${field}": use a name from /list/icons or /list/banners ("star", "icon:star", "banner:space") or an absolute http(s) URL`, {
    details: { field, icons: catalog.names('icon'), banners: catalog.names('banner') }
  })
}

/**
 * How a listed image whose file moves is named among a job's images (render-job.ts,
 * drawer.ts): `banner:name`, the spelling of listedImage, which no fetched URL has.
 */
export function listedKey (kind: AssetKind, canonical: string): string {
  return `${kind}:${canonical}`
}

/** The size a listed image is drawn at by default: the bundled art's, or the operator file's `sizeOf`. */
export async function listedImageSize (catalog: AssetCatalog, image: { kind: AssetKind, name: string }, sizeOf: (file: string) => Promise<{ width: number, height: number } | undefined>): Promise<{ width: number, height: number }> {
  const file = catalog.operatorFile(image.kind, image.name)
  const builtIn = image.kind === 'banner' ? { width: BANNER_WIDTH, height: BANNER_HEIGHT } : { width: ICON_SIZE, height: ICON_SIZE }
  return file === undefined ? builtIn : (await sizeOf(file)) ?? builtIn
}
