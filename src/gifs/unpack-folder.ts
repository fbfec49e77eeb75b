// The folder an archive is unpacked into, under the system's temporary folder, and its
// removal on every way out: at the end of the import (success or error), on SIGINT and
// SIGTERM (handlers held only while the folder exists, which then end the process as the
// signal would have), and on process.exit. A crash or SIGKILL runs nothing, so the
// folder's name carries the pid of its process (uma-pack-<pid>-XXXXXX), and every import
// first removes the folders of processes that are gone.
import fs from 'node:fs'
import path from 'node:path'

const PREFIX = 'uma-pack-'
/** uma-pack-<pid>-<6 characters of mkdtemp>. */
const NAME = /^uma-pack-(\d{1,10})-[A-Za-z0-9]{6}$/

export interface UnpackFolder {
  path: string
  /** Removes the folder and lets go of the handlers; safe to call twice. */
  remove (): Promise<void>
}

function alive (pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: it exists, and belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Removes the unpack folders in `workDir` whose process is gone (a crash, SIGKILL), and
 * only folders: never what a link points to, never another user's. Their paths.
 */
export async function removeStaleUnpackFolders (workDir: string): Promise<string[]> {
  const names = await fs.promises.readdir(workDir).catch(() => [] as string[])
  const removed: string[] = []
  for (const name of names) {
    const match = NAME.exec(name)
    if (match === null) continue
    const pid = Number(match[1])
    if (pid === process.pid || alive(pid)) continue
    const full = path.join(workDir, name)
    const stat = await fs.promises.lstat(full).catch(() => undefined)
    if (stat?.isDirectory() !== true || (process.getuid !== undefined && stat.uid !== process.getuid())) continue
    await fs.promises.rm(full, { recursive: true, force: true })
    removed.push(full)
  }
  return removed
}

export function createUnpackFolder (workDir: string): UnpackFolder {
  let dir: string | undefined
  const removeNow = (): void => {
    // A write of the unpacking may land between the listing and the removal: retried.
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  }
  const onSignal = (signal: NodeJS.Signals): void => {
    release()
    try {
      removeNow()
    } finally {
      // With our handler gone, the signal's default action ends the process (exit status
      // 128 + its number), unless the program has handlers of its own.
      process.kill(process.pid, signal)
    }
  }
  const release = (): void => {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    process.off('exit', removeNow)
  }
  // The handlers first, then the folder, in one synchronous step: a signal's handler runs
  // only after it, so no signal finds the folder made and no handler to remove it.
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  process.on('exit', removeNow)
  try {
    dir = fs.mkdtempSync(path.join(workDir, `${PREFIX}${process.pid}-`))
  } catch (err) {
    release()
    throw err
  }
  const made = dir
  let removed = false
  return {
    path: made,
    async remove () {
      if (removed) return
      removed = true
      release()
      await fs.promises.rm(made, { recursive: true, force: true })
    }
  }
}
