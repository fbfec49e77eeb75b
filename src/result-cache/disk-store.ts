// The cache's entries on disk: DATA_DIR/result-cache/<two hex digits>/<address>, one file
// per entry (entry-format.ts), within RESULT_CACHE_MAX_BYTES, the least recently used
// going first.
//
// - Written whole to a temporary file beside its place, then renamed over it: a reader
//   sees the old state or the whole entry. No fsync: a power cut may lose or truncate the
//   last entries written, and the check on read (the header's SHA-256) turns any such
//   file into a miss, deleted then. A cache is worth less than an fsync per picture.
// - The accounting (what is held, in which order it was used) lives in memory, rebuilt at
//   start from the folder by an asynchronous scan, one shard folder at a time, that never
//   holds the event loop: until it has ended, a lookup not known yet looks at the disk.
//   A hit touches its file's time at most once an hour, which orders the scan.
// - Every disk call has a deadline (RESULT_CACHE_DISK_TIMEOUT): past it, or on any error,
//   a read is a miss and a write is dropped. The cache never fails a request.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { ADDRESS_PATTERN } from './address.js'
import { decodeEntry, encodeEntry, type StoredAnswer } from './entry-format.js'

/** The file calls the store makes: node:fs/promises, or a test's stand-in (a disk that hangs or fails). */
export interface DiskIo {
  /**
   * The file's bytes; with `size` (the size it had when written), at most one byte more
   * than that is read: a file that grew fails the entry's check, as one cut short does.
   */
  readFile (file: string, size?: number): Promise<Buffer>
  writeFile (file: string, data: Buffer): Promise<void>
  rename (from: string, to: string): Promise<void>
  unlink (file: string): Promise<void>
  mkdir (dir: string): Promise<void>
  readdir (dir: string): Promise<string[]>
  stat (file: string): Promise<{ size: number, mtimeMs: number, isFile: () => boolean }>
  utimes (file: string, time: Date): Promise<void>
}

export const NODE_DISK_IO: DiskIo = {
  async readFile (file, size) {
    if (size === undefined) return await fs.promises.readFile(file)
    // Two trips to libuv's threads instead of readFile's four (open, stat, read, close):
    // the size is known, and the close is not waited for. Each trip waits for a thread,
    // which on a busy machine is most of a hit's time.
    const handle = await fs.promises.open(file, 'r')
    try {
      const buffer = Buffer.allocUnsafe(size + 1)
      const { bytesRead } = await handle.read(buffer, 0, size + 1, 0)
      return buffer.subarray(0, bytesRead)
    } finally {
      handle.close().catch(() => {})
    }
  },
  // 'wx': a temporary name is never shared; a leftover one is not overwritten.
  writeFile: async (file, data) => await fs.promises.writeFile(file, data, { flag: 'wx' }),
  rename: async (from, to) => await fs.promises.rename(from, to),
  unlink: async (file) => await fs.promises.unlink(file),
  mkdir: async (dir) => { await fs.promises.mkdir(dir, { recursive: true }) },
  readdir: async (dir) => await fs.promises.readdir(dir),
  stat: async (file) => await fs.promises.lstat(file),
  utimes: async (file, time) => await fs.promises.utimes(file, time, time)
}

/** A hit moves its file's time forward at most this often (the order the next start's scan rebuilds). */
export const TOUCH_INTERVAL_MS = 60 * 60_000
/** An entry above this share of the cache's size is not kept: it would push out many others. */
const LARGEST_SHARE = 4
/** Disk failures are logged at most this often (the others are counted in the next line). */
const WARN_INTERVAL_MS = 10_000
/** Files stat'ed at once by the scan. */
const SCAN_BATCH = 64
const TEMP_FILE = /\.tmp$/
const SHARD = /^[0-9a-f]{2}$/

export interface DiskStoreStats {
  bytes: number
  entries: number
  evictions: number
  /** Disk calls that failed or passed their deadline (each one a miss or a dropped write). */
  errors: number
  /** Entries found damaged, deleted and drawn again. */
  damaged: number
  /** The start's scan has ended. */
  scanned: boolean
}

export interface DiskStoreOptions {
  dir: string
  maxBytes: number
  /** Deadline of each disk call, in ms. */
  timeoutMs: number
  io?: DiskIo
  now?: () => number
  /** Told of each eviction and of what is held after each change (metrics). */
  onEvicted?: () => void
  onHeld?: (bytes: number, entries: number) => void
  /** A problem worth a log line (a damaged entry, a disk that fails). */
  warn?: (message: string) => void
}

export interface DiskStore {
  /** The entry for `address`, checked; undefined when there is none, it is damaged, or the disk did not answer in time. Never throws. */
  get (address: string): Promise<StoredAnswer | undefined>
  /** Stores the entry (evicting as needed); resolves once written or dropped. Never throws. */
  put (address: string, answer: StoredAnswer): Promise<void>
  has (address: string): boolean
  /** Resolves once the start's scan has ended. */
  readonly scan: Promise<void>
  readonly stats: DiskStoreStats
  /** Waits for the writes under way (each within its deadline). */
  close (): Promise<void>
}

class DiskTimeout extends Error {}

interface Known { size: number, usedAt: number }

export function createDiskStore (options: DiskStoreOptions): DiskStore {
  const io = options.io ?? NODE_DISK_IO
  const now = options.now ?? Date.now
  const warn = options.warn ?? (() => {})
  const { dir, maxBytes, timeoutMs } = options
  /** Entries in use order, least recently used first. */
  let index = new Map<string, Known>()
  /** Entries the scan found and nobody has used yet in this run (older than anything in `index`). */
  const scanned = new Map<string, Known>()
  let scanning = true
  let bytes = 0
  const stats = { evictions: 0, errors: 0, damaged: 0 }
  const shards = new Set<string>()
  const writes = new Set<Promise<void>>()

  const fileOf = (address: string): string => path.join(dir, address.slice(0, 2), address)
  const held = (): void => options.onHeld?.(bytes, index.size + scanned.size)

  /** `op`, or DiskTimeout past the deadline (the call itself goes on: Node cannot stop it). */
  async function deadline<T> (op: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined
    try {
      return await Promise.race([op, new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new DiskTimeout(`no answer from the disk within ${timeoutMs} ms`)), timeoutMs) })])
    } finally {
      clearTimeout(timer)
    }
  }

  // A disk that fails, fails for every picture: one line per WARN_INTERVAL_MS, with the count.
  let warnedAt = -Infinity
  let unsaid = 0
  function failed (what: string, err: unknown): void {
    stats.errors++
    const at = now()
    if (at - warnedAt < WARN_INTERVAL_MS) {
      unsaid++
      return
    }
    warn(`result cache: ${what} failed (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); the picture is drawn instead${unsaid > 0 ? ` (${unsaid} more disk failures since the last warning)` : ''}`)
    warnedAt = at
    unsaid = 0
  }

  function forget (address: string): Known | undefined {
    const known = index.get(address) ?? scanned.get(address)
    if (known === undefined) return undefined
    index.delete(address)
    scanned.delete(address)
    bytes -= known.size
    return known
  }

  function remove (address: string): void {
    if (forget(address) === undefined) return
    held()
    deadline(io.unlink(fileOf(address))).catch((err: unknown) => { if ((err as NodeJS.ErrnoException).code !== 'ENOENT') failed('deleting an entry', err) })
  }

  /** Evicts the least recently used until `incoming` more bytes fit. */
  function makeRoom (incoming: number): void {
    for (;;) {
      if (bytes + incoming <= maxBytes) return
      const oldest = scanned.keys().next().value ?? index.keys().next().value
      if (oldest === undefined) return
      remove(oldest)
      stats.evictions++
      options.onEvicted?.()
    }
  }

  function used (address: string, known: Known): void {
    index.delete(address)
    scanned.delete(address)
    index.set(address, known)
    const at = now()
    if (at - known.usedAt < TOUCH_INTERVAL_MS) return
    known.usedAt = at
    deadline(io.utimes(fileOf(address), new Date(at))).catch(() => {})
  }

  async function scan (): Promise<void> {
    let names: string[] = []
    try {
      names = await deadline(io.readdir(dir))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') failed('listing the cache folder', err)
    }
    for (const shard of names.filter((n) => SHARD.test(n)).sort()) {
      let files: string[]
      try {
        files = await deadline(io.readdir(path.join(dir, shard)))
      } catch (err) {
        failed(`listing ${shard}/`, err)
        continue
      }
      shards.add(shard)
      for (let i = 0; i < files.length; i += SCAN_BATCH) {
        await Promise.all(files.slice(i, i + SCAN_BATCH).map(async (name) => {
          const file = path.join(dir, shard, name)
          // A temporary file left by a crash: nobody writes it any more (it was this process's or a dead one's).
          if (TEMP_FILE.test(name)) return await deadline(io.unlink(file)).catch(() => {})
          if (!ADDRESS_PATTERN.test(name) || name.slice(0, 2) !== shard || index.has(name) || scanned.has(name)) return
          try {
            const stat = await deadline(io.stat(file))
            if (!stat.isFile() || index.has(name) || scanned.has(name)) return
            scanned.set(name, { size: stat.size, usedAt: stat.mtimeMs })
            bytes += stat.size
          } catch {}
        }))
      }
    }
    // Oldest first, before what this run has used already.
    const found = [...scanned].sort(([, a], [, b]) => a.usedAt - b.usedAt)
    scanned.clear()
    index = new Map([...found, ...index])
    scanning = false
    makeRoom(0)
    held()
  }

  const scanDone = scan().catch((err: unknown) => {
    failed('scanning the cache folder', err)
    scanning = false
  })

  async function read (address: string, known: Known | undefined): Promise<StoredAnswer | undefined> {
    let file: Buffer
    try {
      file = await deadline(io.readFile(fileOf(address), known?.size))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        // Deleted behind our back (an operator emptying the folder): forgotten.
        if (forget(address) !== undefined) held()
      } else {
        failed('reading an entry', err)
      }
      return undefined
    }
    const entry = decodeEntry(address, file)
    if (!entry.ok) {
      stats.damaged++
      warn(`result cache: entry ${address} is damaged (${entry.why}): deleted, drawn again`)
      // Deleted before the picture is drawn again (a rare event: the wait is worth a file
      // that is gone when the answer is).
      if (forget(address) !== undefined) held()
      await deadline(io.unlink(fileOf(address))).catch((err: unknown) => { if ((err as NodeJS.ErrnoException).code !== 'ENOENT') failed('deleting a damaged entry', err) })
      return undefined
    }
    if (known === undefined) {
      // Found on disk before the scan reached it.
      if (!index.has(address) && !scanned.has(address)) {
        const size = file.length
        bytes += size
        index.set(address, { size, usedAt: now() })
        makeRoom(0)
        held()
      }
    } else if (index.has(address) || scanned.has(address)) {
      used(address, known)
    }
    return entry.answer
  }

  async function write (address: string, answer: StoredAnswer): Promise<void> {
    const data = encodeEntry(address, answer)
    if (data.length > maxBytes / LARGEST_SHARE || index.has(address) || scanned.has(address)) return
    // Room first: the folder stays within its size while the temporary file is written.
    makeRoom(data.length)
    const known: Known = { size: data.length, usedAt: now() }
    index.set(address, known)
    bytes += data.length
    held()
    const shard = address.slice(0, 2)
    const file = fileOf(address)
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`
    let renamed: Promise<void> | undefined
    try {
      if (!shards.has(shard)) {
        await deadline(io.mkdir(path.join(dir, shard)))
        shards.add(shard)
      }
      try {
        await deadline(io.writeFile(temp, data))
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
        // The folder was deleted under the server (an operator emptying the cache): made again.
        await deadline(io.mkdir(path.join(dir, shard)))
        await deadline(io.writeFile(temp, data))
      }
      renamed = io.rename(temp, file)
      await deadline(renamed)
    } catch (err) {
      failed('writing an entry', err)
      if (index.get(address) === known) forget(address)
      held()
      // Late or not, what was written goes: the temporary file, or the entry a late rename
      // put in place, which the accounting no longer counts (a leftover is deleted by the
      // next start's scan).
      if (renamed === undefined) io.unlink(temp).catch(() => {})
      else renamed.then(async () => { if (!index.has(address)) await io.unlink(file) }, async () => await io.unlink(temp)).catch(() => {})
    }
  }

  return {
    async get (address) {
      const known = index.get(address) ?? scanned.get(address)
      if (known === undefined && !scanning) return undefined
      return await read(address, known)
    },
    async put (address, answer) {
      const job = write(address, answer)
      writes.add(job)
      try {
        await job
      } finally {
        writes.delete(job)
      }
    },
    has: (address) => index.has(address) || scanned.has(address),
    scan: scanDone,
    get stats () {
      return { bytes, entries: index.size + scanned.size, ...stats, scanned: !scanning }
    },
    async close () {
      await Promise.all([...writes, scanDone])
    }
  }
}
