// The catalog's files under DATA_DIR/gifs/, named by their SHA-256 (<hash>.gif): the
// name is computed by us from the content, never taken from a request or a path, and a
// file's content can never change under its URL. Files land by temp file + rename, so
// a reader never sees half a file; the catalog row is added only after the rename.
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

export const GIF_DIR_NAME = 'gifs'
export const HASH_PATTERN = /^[0-9a-f]{64}$/
const TEMP_PREFIX = '.tmp-'
/**
 * Files without a catalog row are deleted only when older than this: an import running
 * in another process may have renamed its file and not yet added the row.
 */
export const ORPHAN_GRACE_MS = 10 * 60 * 1000

export function gifDirOf (dataDir: string): string {
  return path.join(dataDir, GIF_DIR_NAME)
}

export function sha256 (bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** The path of a stored gif; throws on anything but a hex SHA-256. */
export function gifPath (dir: string, hash: string): string {
  if (!HASH_PATTERN.test(hash)) throw new Error(`not a content hash: ${JSON.stringify(hash)}`)
  return path.join(dir, `${hash}.gif`)
}

/** Writes the content under its hash, atomically; a file already there is kept. */
export async function putGifFile (dir: string, hash: string, bytes: Uint8Array): Promise<string> {
  const target = gifPath(dir, hash)
  await fs.promises.mkdir(dir, { recursive: true })
  try {
    const stat = await fs.promises.stat(target)
    if (stat.isFile() && stat.size === bytes.length) return target
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
  return target
}

/** Deletes a stored gif's file; a missing file is not an error. */
export async function deleteGifFile (dir: string, hash: string): Promise<void> {
  await fs.promises.rm(gifPath(dir, hash), { force: true })
}

/**
 * Deletes what an interrupted import or removal left behind: temp files, and gif files
 * the catalog does not refer to, when older than `graceMs`. Returns the names deleted.
 */
export async function cleanOrphanFiles (dir: string, referenced: ReadonlySet<string>, graceMs = ORPHAN_GRACE_MS, now = Date.now()): Promise<string[]> {
  let names: string[]
  try {
    names = await fs.promises.readdir(dir)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw err
  }
  const removed: string[] = []
  for (const name of names) {
    const hash = name.endsWith('.gif') ? name.slice(0, -4) : undefined
    const orphan = name.startsWith(TEMP_PREFIX) || (hash !== undefined && HASH_PATTERN.test(hash) && !referenced.has(hash))
    if (!orphan) continue
    const file = path.join(dir, name)
    const stat = await fs.promises.lstat(file).catch(() => undefined)
    if (!stat?.isFile() || now - stat.mtimeMs < graceMs) continue
    await fs.promises.rm(file, { force: true })
    removed.push(name)
  }
  return removed
}
