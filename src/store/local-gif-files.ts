// Gif bytes on this machine's disk: DATA_DIR/gifs/<sha256>.gif. The name is computed
// from the content, so a file's content never changes under its URL. Files land by
// temp file + rename, so a reader never sees half a file; the catalog row is added
// only after the rename (src/gifs/importer.ts, src/gifs/starter.ts).
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { DERIVED_FORMATS, type DerivedFormat, type GifFileStore, HASH_PATTERN, type OpenGifFile } from './gif-files.js'

export const GIF_DIR_NAME = 'gifs'
const TEMP_PREFIX = '.tmp-'
/**
 * Files without a catalog row are deleted only when older than this: an import running
 * in another process may have renamed its file and not yet added the row.
 */
export const ORPHAN_GRACE_MS = 10 * 60 * 1000

// O_NOFOLLOW: a symbolic link put in DATA_DIR/gifs in place of a gif is refused (ELOOP),
// never followed to whatever it names; O_NONBLOCK: a FIFO there cannot hang the open.
const OPEN_NO_FOLLOW = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK
/** What opening something that is not a stored regular file fails with: all mean "not stored". */
const NOT_STORED = new Set(['ENOENT', 'ELOOP', 'ENOTDIR', 'EISDIR', 'ENXIO', 'EMLINK'])

/** Whether the process named in a temp file's name (.tmp-<hash>-<pid>-<random>) no longer runs on this machine. */
function writerIsGone (name: string): boolean {
  const pid = Number(/^\.tmp-[0-9a-f]{64}-(\d+)-[0-9a-f]+$/.exec(name)?.[1])
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return false
  } catch (err) {
    // EPERM: a process of another user holds that pid: alive.
    return (err as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

export function gifDirOf (dataDir: string): string {
  return path.join(dataDir, GIF_DIR_NAME)
}

/** The path of a stored gif (or of a format made from it); throws on anything but a hex SHA-256. */
function gifPath (dir: string, hash: string, extension: 'gif' | DerivedFormat = 'gif'): string {
  if (!HASH_PATTERN.test(hash)) throw new Error(`not a content hash: ${JSON.stringify(hash)}`)
  return path.join(dir, `${hash}.${extension}`)
}

export interface LocalGifFileStore extends GifFileStore {
  /** DATA_DIR/gifs. */
  readonly dir: string
  /** Size and modification time of this machine's copy, or undefined when it holds none (as `open` decides). */
  describe (hash: string): Promise<{ size: number, modifiedAt: Date } | undefined>
}

export function createLocalGifFileStore (dataDir: string): LocalGifFileStore {
  const dir = gifDirOf(dataDir)

  async function open (hash: string, extension: 'gif' | DerivedFormat = 'gif'): Promise<OpenGifFile | undefined> {
    let handle: fs.promises.FileHandle
    try {
      handle = await fs.promises.open(gifPath(dir, hash, extension), OPEN_NO_FOLLOW)
    } catch (err) {
      if (NOT_STORED.has((err as NodeJS.ErrnoException).code ?? '')) return undefined
      throw err
    }
    try {
      const stat = await handle.stat()
      if (!stat.isFile()) {
        await handle.close()
        return undefined
      }
      return { handle, size: stat.size, close: () => handle.close() }
    } catch (err) {
      await handle.close()
      throw err
    }
  }

  async function put (hash: string, bytes: Uint8Array, extension: 'gif' | DerivedFormat = 'gif'): Promise<void> {
    const target = gifPath(dir, hash, extension)
    await fs.promises.mkdir(dir, { recursive: true })
    try {
      // lstat: a link in place of the file is replaced by the real content below.
      const stat = await fs.promises.lstat(target)
      if (stat.isFile() && stat.size === bytes.length) return
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    }
    const temp = path.join(dir, `${TEMP_PREFIX}${hash}-${process.pid}-${randomBytes(4).toString('hex')}`)
    const handle = await fs.promises.open(temp, 'wx')
    try {
      await handle.writeFile(bytes)
      await handle.sync()
    } catch (err) {
      await handle.close()
      await fs.promises.rm(temp, { force: true })
      throw err
    }
    await handle.close()
    try {
      await fs.promises.rename(temp, target)
    } catch (err) {
      await fs.promises.rm(temp, { force: true })
      throw err
    }
  }

  return {
    kind: 'local',
    dir,
    open: (hash) => open(hash),
    openDerived: (hash, format) => open(hash, format),
    putDerived: (hash, format, bytes) => put(hash, bytes, format),
    async describe (hash) {
      const file = await open(hash)
      if (file === undefined) return undefined
      try {
        const stat = await file.handle.stat()
        return { size: stat.size, modifiedAt: stat.mtime }
      } finally {
        await file.close()
      }
    },
    async read (hash) {
      const file = await open(hash)
      if (file === undefined) return undefined
      try {
        return await file.handle.readFile()
      } finally {
        await file.close()
      }
    },
    put: (hash, bytes) => put(hash, bytes),
    async delete (hash) {
      await fs.promises.rm(gifPath(dir, hash), { force: true })
      for (const format of DERIVED_FORMATS) await fs.promises.rm(gifPath(dir, hash, format), { force: true })
    },
    async cleanOrphans (referenced, { graceMs = ORPHAN_GRACE_MS, now = Date.now() } = {}) {
      let names: string[]
      try {
        names = await fs.promises.readdir(dir)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
        throw err
      }
      const removed: string[] = []
      for (const name of names) {
        const hash = /^([0-9a-f]{64})\.(?:gif|webp)$/.exec(name)?.[1]
        const orphan = name.startsWith(TEMP_PREFIX) || (hash !== undefined && HASH_PATTERN.test(hash) && !referenced.has(hash))
        if (!orphan) continue
        const file = path.join(dir, name)
        const stat = await fs.promises.lstat(file).catch(() => undefined)
        // A temp file of a process that is gone (killed mid-write) cannot be renamed by anyone.
        const abandoned = name.startsWith(TEMP_PREFIX) && writerIsGone(name)
        if (!stat?.isFile() || (!abandoned && now - stat.mtimeMs < graceMs)) continue
        await fs.promises.rm(file, { force: true })
        removed.push(name)
      }
      return removed
    }
  }
}
