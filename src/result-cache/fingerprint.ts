// Versions that go into content addresses: what a picture was drawn with besides its
// parameters. A change to any of them gives every picture drawn with it a new address,
// so an entry drawn before is never served again (and ages out of the cache).
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/**
 * The names, sizes and modification times of a folder's entries (an operator's banners,
 * icons or fonts: a handful of files, read when the folder changes); '' when it is absent.
 */
export function folderFingerprint (dir: string): string {
  let names: string[]
  try {
    names = fs.readdirSync(dir).sort()
  } catch {
    return ''
  }
  const hash = createHash('sha256')
  for (const name of names) {
    try {
      const stat = fs.lstatSync(path.join(dir, name))
      hash.update(`${name}\0${stat.size}\0${stat.mtimeMs}\n`)
    } catch {
      hash.update(`${name}\0gone\n`)
    }
  }
  return hash.digest('hex')
}

/**
 * The content of every file under `dir` whose name ends in one of `extensions`, with its
 * path (the server's compiled code, hashed once at start: some hundreds of files, read
 * asynchronously), and of each of `files` (package-lock.json: the dependencies' versions).
 */
export async function contentFingerprint (dir: string, extensions: readonly string[], files: readonly string[] = []): Promise<string> {
  const found: string[] = []
  async function walk (at: string): Promise<void> {
    for (const entry of await fs.promises.readdir(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name)
      if (entry.isDirectory()) await walk(full)
      else if (entry.isFile() && extensions.some((e) => entry.name.endsWith(e)) && !entry.name.endsWith('.d.ts')) found.push(full)
    }
  }
  await walk(dir)
  const hash = createHash('sha256')
  for (const file of found.sort()) {
    hash.update(`${path.relative(dir, file)}\0`)
    hash.update(await fs.promises.readFile(file))
  }
  for (const file of files) {
    const bytes = await fs.promises.readFile(file).catch(() => undefined)
    hash.update(`${path.basename(file)}\0`)
    if (bytes !== undefined) hash.update(bytes)
  }
  return hash.digest('hex')
}
