// Unpacking a gif pack that comes as one file (.tar.gz or .zip) into a fresh folder, the
// only thing the importer then reads. Safety lives in the writer (createWriter), which is
// ours whatever reads the archive: only regular files and folders are created, each under
// the fresh folder, each opened with O_EXCL ('wx'), so
// - a name that is absolute, holds "..", a backslash or a NUL is refused (path traversal,
//   "zip slip");
// - links (symbolic or hard), devices and FIFOs are refused, never created: no later
//   write can go through one;
// - every entry, the number of entries and the bytes written in all are bounded, counted
//   as the bytes come out of the decompressor (a zip's declared sizes are checked, not
//   trusted); zip entries whose data overlap (D. Fifield's "better zip bomb", 2019),
//   encrypted entries and ZIP64 archives are refused;
// - a pack is manifest.json and <category>/<file>: a name deeper than two levels is
//   refused before any folder is made (one 354-byte entry named a/a/a/… made 20,000
//   folders), and every folder made, by its own entry or for a file's path, counts
//   against the entries;
// - a name too long for the file system (NAME_MAX, 255 bytes per name) is refused alone;
// - a second manifest.json is refused: which one is meant is ambiguous (tar -x keeps the
//   last, unzip asks).
// A refused entry is reported and skipped; an archive that cannot be read at all, or
// that breaks a bound, is refused whole.
//
// The readers (docs/gif-packs.md, "Which reader"):
// - .zip: yauzl reads the central directory and the local headers, asked for raw names
//   and unchecked sizes so that the checks above decide. The end record is chosen here
//   (yauzl takes the last signature, which may lie in the comment), and yauzl is shown the
//   file up to it. Each entry's data is read in one pread and inflated by zlib; the
//   overlap, size and CRC-32 checks are ours, as yauzl makes none of them.
// - .tar.gz: ours, not tar-stream, which reads a size field of "12abc" as 10, "+1" as 1
//   and blanks as 0 without showing the field, and reads entries past the end-of-archive
//   blocks that GNU tar never lists (test/unit/gifs/pack-archive.test.ts): a pack must unpack
//   to what `tar -tzf` shows. Numbers are read as GNU tar reads them.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { crc32, createGunzip, inflateRawSync } from 'node:zlib'
import type * as Yauzl from 'yauzl'

// Required rather than imported: an ES module import of this CommonJS package made the
// process 12 MiB larger (Node's lexer of its exports), a require 2 MiB.
const yauzl = createRequire(import.meta.url)('yauzl') as typeof Yauzl

/** Entries (files and folders) read from one archive. */
export const MAX_PACK_ENTRIES = 20_000
/** Bytes written in all (the unpacked size of the pack). */
export const MAX_PACK_BYTES = 2 * 1024 * 1024 * 1024
/** One entry: the importer's own limit for a gif (MAX_IMPORT_BYTES). */
export const MAX_PACK_ENTRY_BYTES = 64 * 1024 * 1024
/** Levels of a name: manifest.json, <category>/<file>. */
export const MAX_PACK_DEPTH = 2
/** Bytes of one file or folder name: NAME_MAX of Linux, macOS and Windows file systems. */
export const MAX_NAME_BYTES = 255
/**
 * A zip's central directory, read whole: 20,000 entries with names, extra fields and
 * comments of 3 KB each. Without it, a file's size was the only bound on the buffer.
 */
export const MAX_CENTRAL_DIRECTORY_BYTES = 64 * 1024 * 1024
/** The pack's one control file, which must not be ambiguous. */
export const PACK_MANIFEST = 'manifest.json'

export interface ArchiveLimits {
  maxEntries: number
  maxBytes: number
  maxEntryBytes: number
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = { maxEntries: MAX_PACK_ENTRIES, maxBytes: MAX_PACK_BYTES, maxEntryBytes: MAX_PACK_ENTRY_BYTES }

export interface UnpackReport {
  /** Files written, relative to the folder, with '/'. */
  files: string[]
  /** Folders made (by their own entry or for a file's path). */
  folders: number
  /** Entries refused (and not written), with the reason. */
  refused: Array<{ entry: string, reason: string }>
}

/** The archive cannot be unpacked at all (unreadable, not an archive, over a bound). */
export class ArchiveError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'ArchiveError'
  }
}

export type ArchiveKind = 'tar.gz' | 'zip'

/** The kind of archive a file is, from its first bytes; undefined when neither. */
export async function archiveKind (file: string): Promise<ArchiveKind | undefined> {
  const handle = await fs.promises.open(file, 'r')
  try {
    const head = Buffer.alloc(4)
    const { bytesRead } = await handle.read(head, 0, 4, 0)
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz'
    if (bytesRead === 4 && head.readUInt32LE(0) === 0x04034b50) return 'zip'
    if (bytesRead === 4 && head.readUInt32LE(0) === 0x06054b50) return 'zip'
    return undefined
  } finally {
    await handle.close()
  }
}

/**
 * The entry's path inside the pack, or the reason it is refused. "./a/b.gif" and
 * "a//b.gif" are "a/b.gif"; "/a", "../a", "a/../../b", "C:x", "a\\b" are refused.
 */
export function safeEntryPath (name: string): { path: string } | { reason: string } {
  if (name.includes('\0')) return { reason: 'its name holds a NUL character' }
  if (name.includes('\\')) return { reason: 'its name holds a backslash (a Windows path)' }
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return { reason: 'its path is absolute' }
  const parts = name.split('/').filter((p) => p !== '' && p !== '.')
  if (parts.includes('..')) return { reason: 'its path leaves the pack ("..")' }
  if (parts.length === 0) return { reason: 'its name is empty' }
  return { path: parts.join('/') }
}

/**
 * Why a (safe) path cannot be unpacked into a pack: too deep, or a name longer than file
 * systems take. Undefined when it can.
 */
function packPathProblem (safePath: string): string | undefined {
  const parts = safePath.split('/')
  if (parts.length > MAX_PACK_DEPTH) return `${parts.length} levels deep: a pack holds ${PACK_MANIFEST} and <category>/<file> only`
  const long = parts.find((p) => Buffer.byteLength(p) > MAX_NAME_BYTES)
  if (long !== undefined) return `a name of ${Buffer.byteLength(long)} bytes: file systems take at most ${MAX_NAME_BYTES}`
  return undefined
}

/** Called as entries are read: how many so far, and how many in all when the archive says (a zip). */
export type UnpackProgress = (entries: number, total: number | undefined) => void

/** Unpacks a .tar.gz or .zip into `dest` (an empty folder this process made). */
export async function unpackArchive (file: string, dest: string, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS, onProgress?: UnpackProgress): Promise<UnpackReport> {
  const kind = await archiveKind(file)
  if (kind === undefined) throw new ArchiveError(`"${file}" is neither a folder, a .tar.gz nor a .zip archive`)
  const writer = createWriter(dest, limits, onProgress)
  if (kind === 'tar.gz') await readTarGz(file, writer, limits)
  else await readZip(file, writer, limits)
  return writer.report
}

interface Writer {
  report: UnpackReport
  /** The number of entries in all, when the archive says it before its entries (a zip). */
  total?: number
  /** Counts an entry against the bound on entries (every entry, refused ones too). */
  count (name: string): void
  refuse (name: string, reason: string): void
  dir (name: string): Promise<void>
  file (name: string, bytes: Buffer): Promise<void>
}

function createWriter (dest: string, limits: ArchiveLimits, onProgress?: UnpackProgress): Writer {
  const report: UnpackReport = { files: [], folders: 0, refused: [] }
  /** Folders made so far, relative to `dest`. */
  const made = new Set<string>()
  let entries = 0
  let written = 0
  let manifests = 0

  /** Makes the folder (one level: deeper names never get here), counted as an entry. */
  async function makeFolder (rel: string, name: string): Promise<void> {
    if (made.has(rel)) return
    writer.count(name)
    await fs.promises.mkdir(path.join(dest, rel))
    made.add(rel)
    report.folders++
  }

  /** The entry's path when it can be unpacked; otherwise it is refused and undefined. */
  function checked (name: string): string | undefined {
    const safe = safeEntryPath(name)
    if ('reason' in safe) { writer.refuse(name, safe.reason); return undefined }
    const problem = packPathProblem(safe.path)
    if (problem !== undefined) { writer.refuse(name, problem); return undefined }
    return safe.path
  }

  const writer: Writer = {
    report,
    count (name) {
      if (++entries > limits.maxEntries) throw new ArchiveError(`the archive holds more than ${limits.maxEntries} entries and folders (at "${name}")`)
      if (onProgress !== undefined && entries % PROGRESS_EVERY === 0) onProgress(entries, writer.total)
    },
    refuse (name, reason) { report.refused.push({ entry: name, reason }) },
    async dir (name) {
      // "./": the top of the pack itself.
      if (name.split('/').every((p) => p === '' || p === '.')) return
      const rel = checked(name)
      if (rel === undefined) return
      try {
        if (rel.includes('/')) return writer.refuse(name, `a folder inside a folder: a pack holds ${PACK_MANIFEST} and <category>/<file> only`)
        // The entry itself was counted; the folder is made under that count.
        if (!made.has(rel)) {
          await fs.promises.mkdir(path.join(dest, rel))
          made.add(rel)
          report.folders++
        }
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        if (code === 'EEXIST' || code === 'ENOTDIR') return writer.refuse(name, 'its path crosses a file of the pack')
        if (code === 'ENAMETOOLONG') return writer.refuse(name, 'its name is too long for the file system')
        throw err
      }
    },
    async file (name, bytes) {
      const rel = checked(name)
      if (rel === undefined) return
      if (rel === PACK_MANIFEST && ++manifests > 1) throw new ArchiveError(`the archive holds ${PACK_MANIFEST} twice: which one is meant is ambiguous (tar -x keeps the last, other tools the first)`)
      written += bytes.length
      if (written > limits.maxBytes) throw new ArchiveError(`the archive unpacks to more than ${limits.maxBytes} bytes`)
      const target = path.join(dest, rel)
      try {
        const slash = rel.indexOf('/')
        if (slash !== -1) await makeFolder(rel.slice(0, slash), name)
        // 'wx': never through something already there (a second entry of the same name).
        await fs.promises.writeFile(target, bytes, { flag: 'wx', mode: 0o644 })
      } catch (err) {
        if (err instanceof ArchiveError) throw err
        const code = (err as NodeJS.ErrnoException).code
        if (code === 'EEXIST' && (await fs.promises.lstat(target).catch(() => undefined))?.isFile() === true) return writer.refuse(name, 'a second entry with the same path')
        if (code === 'ENOTDIR' || code === 'EISDIR' || code === 'EEXIST') return writer.refuse(name, 'its path crosses a file of the pack')
        if (code === 'ENAMETOOLONG') return writer.refuse(name, 'its name is too long for the file system')
        throw err
      }
      report.files.push(rel)
    }
  }
  return writer
}

/** Entries between two progress calls. */
const PROGRESS_EVERY = 500

// --- .tar.gz (POSIX ustar, with pax and GNU long names) ---

const BLOCK = 512

/** Reads exact byte counts from a stream of chunks. */
class ChunkReader {
  private buffered: Buffer[] = []
  private length = 0
  private done = false
  constructor (private readonly source: AsyncIterator<Buffer>) {}

  async read (n: number): Promise<Buffer | undefined> {
    while (this.length < n && !this.done) {
      const next = await this.source.next()
      if (next.done === true) this.done = true
      else {
        this.buffered.push(next.value)
        this.length += next.value.length
      }
    }
    if (this.length < n) return undefined
    const all = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered, this.length)
    const out = all.subarray(0, n)
    const rest = all.subarray(n)
    this.buffered = rest.length > 0 ? [rest] : []
    this.length = rest.length
    return out
  }

  async skip (n: number): Promise<boolean> {
    const step = 1024 * 1024
    for (let left = n; left > 0; left -= step) {
      if ((await this.read(Math.min(step, left))) === undefined) return false
    }
    return true
  }
}

function cString (bytes: Buffer): string {
  const end = bytes.indexOf(0)
  return bytes.subarray(0, end === -1 ? bytes.length : end).toString('utf8')
}

/**
 * A numeric header field, read as GNU tar's from_header reads it: octal digits after
 * optional leading spaces (older tars), ended by the field's end, a NUL or a space; or
 * base-256 (the first byte's high bit set, then its sign bit: negative is refused), which
 * GNU tar writes for sizes of 8 GiB and more. An all-NUL field is 0. Anything else
 * ("12abc", "0x10") is not a number: undefined.
 */
export function tarNumber (bytes: Buffer): number | undefined {
  const first = bytes[0]
  if (first === undefined) return undefined
  if ((first & 0x80) !== 0) {
    if ((first & 0x40) !== 0) return undefined
    let value = first & 0x3f
    for (let i = 1; i < bytes.length; i++) value = value * 256 + bytes[i]!
    return Number.isSafeInteger(value) ? value : Number.POSITIVE_INFINITY
  }
  let at = first === 0 ? 1 : 0
  while (at < bytes.length && bytes[at] === 0x20) at++
  if (at === bytes.length) return bytes.every((b) => b === 0) ? 0 : undefined
  if (bytes[at] === 0) return bytes.subarray(at).every((b) => b === 0) ? 0 : undefined
  let value = 0
  let digits = 0
  for (; at < bytes.length && bytes[at]! >= 0x30 && bytes[at]! <= 0x37; at++, digits++) value = value * 8 + bytes[at]! - 0x30
  if (digits === 0) return undefined
  if (at < bytes.length && bytes[at] !== 0 && bytes[at] !== 0x20) return undefined
  return value
}

function checksumOk (header: Buffer): boolean {
  let sum = 0
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!
  return sum === tarNumber(header.subarray(148, 156))
}

/** pax decimal numbers (length, size): digits only, as GNU tar's decode_num. */
function paxNumber (text: string): number | undefined {
  return /^[0-9]{1,15}$/.test(text) ? Number(text) : undefined
}

/** pax extended header records: "<length> <key>=<value>\n". */
function paxRecords (data: Buffer): Record<string, string> {
  const out: Record<string, string> = {}
  let at = 0
  while (at < data.length) {
    const space = data.indexOf(0x20, at)
    if (space === -1) break
    const length = paxNumber(data.subarray(at, space).toString('latin1'))
    if (length === undefined || length <= space - at || at + length > data.length) throw new ArchiveError('a pax extended header is damaged (a record length that is not a decimal number)')
    const record = data.subarray(space + 1, at + length - 1).toString('utf8')
    const eq = record.indexOf('=')
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1)
    at += length
  }
  return out
}

const TAR_TYPES: Record<string, string> = {
  1: 'a hard link', 2: 'a symbolic link', 3: 'a character device', 4: 'a block device', 6: 'a FIFO'
}

async function readTarGz (file: string, writer: Writer, limits: ArchiveLimits): Promise<void> {
  const gunzip = createGunzip()
  const input = fs.createReadStream(file)
  input.on('error', (err) => gunzip.destroy(err))
  input.pipe(gunzip)
  // Bounds the decompressed stream itself, headers and padding included.
  let out = 0
  const maxStream = limits.maxBytes + (limits.maxEntries * 3 + 2) * BLOCK * 2
  async function * bounded (): AsyncGenerator<Buffer> {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      out += chunk.length
      if (out > maxStream) throw new ArchiveError(`the archive unpacks to more than ${limits.maxBytes} bytes`)
      yield chunk
    }
  }
  const reader = new ChunkReader(bounded()[Symbol.asyncIterator]())
  let longName: string | undefined
  let pax: Record<string, string> = {}
  try {
    for (;;) {
      const header = await reader.read(BLOCK)
      if (header === undefined) throw new ArchiveError('the .tar.gz archive ends in the middle of an entry (truncated)')
      if (header.every((b) => b === 0)) return
      if (!checksumOk(header)) throw new ArchiveError('not a tar archive inside the gzip file (a header checksum is wrong)')
      const type = String.fromCharCode(header[156]!)
      const ustar = header.subarray(257, 262).toString('latin1') === 'ustar'
      const prefix = ustar ? cString(header.subarray(345, 500)) : ''
      const name = pax.path ?? longName ?? (prefix !== '' ? `${prefix}/${cString(header.subarray(0, 100))}` : cString(header.subarray(0, 100)))
      const size = pax.size !== undefined ? paxNumber(pax.size) : tarNumber(header.subarray(124, 136))
      if (size === undefined) throw new ArchiveError(`the entry "${name}" has a size that is not a number (${pax.size !== undefined ? `pax size "${pax.size}"` : `"${cString(header.subarray(124, 136))}"`}): GNU tar refuses it too`)
      if (!Number.isSafeInteger(size)) throw new ArchiveError(`the entry "${name}" is larger than any pack allows`)
      const padded = Math.ceil(size / BLOCK) * BLOCK
      const meta = type === 'x' || type === 'g' || type === 'L' || type === 'K'
      if (!meta) {
        longName = undefined
        pax = {}
      }
      if (meta) {
        if (size > 1024 * 1024) throw new ArchiveError(`an extended header of ${size} bytes (at most 1 MB)`)
        const data = await reader.read(padded)
        if (data === undefined) throw new ArchiveError('the .tar.gz archive ends in the middle of an entry (truncated)')
        if (type === 'x') pax = paxRecords(data.subarray(0, size))
        if (type === 'L') longName = cString(data.subarray(0, size))
        continue
      }
      writer.count(name)
      // A file entry named "x/" is a folder in archives older than POSIX.1-1988.
      if ((type === '0' || type === '\0' || type === '7') && !name.endsWith('/')) {
        if (size > limits.maxEntryBytes) {
          writer.refuse(name, `${size} bytes, over the limit of ${limits.maxEntryBytes} per file`)
          if (!(await reader.skip(padded))) throw new ArchiveError('the .tar.gz archive ends in the middle of an entry (truncated)')
          continue
        }
        const data = await reader.read(padded)
        if (data === undefined) throw new ArchiveError(`the .tar.gz archive ends in the middle of "${name}" (truncated)`)
        await writer.file(name, data.subarray(0, size))
      } else if (type === '5' || type === '0' || type === '\0' || type === '7') {
        await writer.dir(name)
        if (!(await reader.skip(padded))) throw new ArchiveError('the .tar.gz archive ends in the middle of an entry (truncated)')
      } else {
        writer.refuse(name, `${TAR_TYPES[type] ?? `an entry of tar type "${type}"`}: only files and folders are unpacked`)
        if (!(await reader.skip(padded))) throw new ArchiveError('the .tar.gz archive ends in the middle of an entry (truncated)')
      }
    }
  } catch (err) {
    if (err instanceof ArchiveError) throw err
    const code = (err as NodeJS.ErrnoException).code
    if (code?.startsWith('Z_') === true) throw new ArchiveError(`the gzip data is corrupt (${(err as Error).message})`)
    throw err
  } finally {
    input.destroy()
    gunzip.destroy()
  }
}

// --- .zip: the end record found here, the rest read by yauzl (PKWARE APPNOTE 6.3) ---

const EOCD_SIGNATURE = 0x06054b50
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50
const EOCD_MIN = 22
const ZIP64_LOCATOR = 20
const MAX_COMMENT = 0xffff
const S_IFMT = 0o170000
const S_IFREG = 0o100000
const S_IFDIR = 0o040000
const S_IFLNK = 0o120000

/** The end of central directory record chosen, and what it says. */
interface EndRecord {
  /** Where the record starts in the file. */
  offset: number
  total: number
  cdSize: number
  cdOffset: number
  /** A ZIP64 locator's signature lies just before it. */
  zip64Locator: boolean
}

async function readAt (handle: fs.promises.FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length)
  const { bytesRead } = await handle.read(buffer, 0, length, position)
  if (bytesRead !== length) throw new ArchiveError('the .zip archive is truncated')
  return buffer
}

/**
 * The end record is the one whose comment runs exactly to the end of the file and whose
 * central directory ends where it starts: a comment may hold the signature bytes (a fake
 * end record), which made a valid zip unreadable when the last signature was taken, as
 * yauzl and fflate take it. Failing that, the last signature whose comment reaches the
 * end, then the last signature (bytes after the comment), as Info-ZIP does.
 */
async function findEndRecord (handle: fs.promises.FileHandle, fileSize: number): Promise<EndRecord> {
  const tailLength = Math.min(fileSize, EOCD_MIN + MAX_COMMENT)
  const tail = await readAt(handle, fileSize - tailLength, tailLength)
  const base = fileSize - tail.length
  let eocd = -1
  let reaching = -1
  let last = -1
  for (let i = tail.length - EOCD_MIN; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== EOCD_SIGNATURE) continue
    if (last === -1) last = i
    if (i + EOCD_MIN + tail.readUInt16LE(i + 20) !== tail.length) continue
    if (reaching === -1) reaching = i
    if (tail.readUInt32LE(i + 16) + tail.readUInt32LE(i + 12) === base + i) { eocd = i; break }
  }
  if (eocd === -1) eocd = reaching !== -1 ? reaching : last
  if (eocd === -1) throw new ArchiveError('not a readable .zip archive (no end of central directory)')
  if (tail.readUInt16LE(eocd + 4) !== 0 || tail.readUInt16LE(eocd + 6) !== 0) throw new ArchiveError('a multi-part .zip archive: join it into one file first')
  return {
    offset: base + eocd,
    total: tail.readUInt16LE(eocd + 10),
    cdSize: tail.readUInt32LE(eocd + 12),
    cdOffset: tail.readUInt32LE(eocd + 16),
    zip64Locator: eocd >= ZIP64_LOCATOR && tail.readUInt32LE(eocd - ZIP64_LOCATOR) === ZIP64_LOCATOR_SIGNATURE
  }
}

/**
 * The file as yauzl is shown it: ending at the chosen end record, whose comment length
 * reads 0, and with no ZIP64 locator before it. yauzl takes the last end-record signature
 * of a file and, after a ZIP64 locator, the ZIP64 record's numbers: either way it would
 * read another directory than the one bounded here. Each read is a pread of the file.
 */
class EndRecordView extends yauzl.RandomAccessReader {
  constructor (private readonly fd: number, private readonly end: EndRecord) { super() }

  /** Bytes of the view: the file up to the end record's comment. */
  get size (): number { return this.end.offset + EOCD_MIN }

  override read (buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null, bytesRead?: number) => void): void {
    fs.read(this.fd, buffer, offset, Math.max(0, Math.min(length, this.size - position)), position, (err, bytesRead) => {
      if (err !== null) return callback(err)
      const hide = (from: number, length: number): void => {
        for (let at = Math.max(position, from); at < Math.min(position + bytesRead, from + length); at++) buffer[offset + at - position] = 0
      }
      if (this.end.zip64Locator) hide(this.end.offset - ZIP64_LOCATOR, 4)
      hide(this.end.offset + 20, 2)
      callback(null, bytesRead)
    })
  }
}

function openZip (view: EndRecordView): Promise<Yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // decodeStrings off: names are read as UTF-8 and checked by safeEntryPath, as tar names
    // are (yauzl would decode CP437, turn backslashes into slashes and refuse the whole
    // archive for one "../" name). validateEntrySizes off: entryBytes checks the sizes, and
    // refuses the one entry that lies rather than the archive.
    yauzl.fromRandomAccessReader(view, view.size, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: false }, (err, zipfile) => {
      if (err !== null) reject(err)
      else resolve(zipfile)
    })
  })
}

/**
 * The entry's bytes, or why it is refused. Its compressed bytes (at most the per-entry
 * bound) are read in one pread and inflated in one call: yauzl's read streams (three
 * streams an entry, and an inflate stream whose zlib memory waits for the garbage
 * collector, as yauzl replaces its destroy()) took a third more CPU on a pack of 300 gifs.
 */
function entryBytes (compressed: Buffer, entry: Yauzl.Entry): Buffer | string {
  let bytes = compressed
  if (entry.compressionMethod === 8) {
    try {
      // At most the declared size comes out: more is a lie about the size (a bomb).
      bytes = inflateRawSync(compressed, { maxOutputLength: Math.max(1, entry.uncompressedSize) })
    } catch (err) {
      return err instanceof RangeError ? 'it inflates to more than its declared size (a zip bomb)' : `its compressed data is corrupt (${(err as Error).message})`
    }
  }
  if (bytes.length !== entry.uncompressedSize) return `it unpacks to ${bytes.length} bytes, not the ${entry.uncompressedSize} declared`
  if (crc32(bytes) !== entry.crc32) return 'its CRC-32 does not match (damaged)'
  return bytes
}

async function readZip (file: string, writer: Writer, limits: ArchiveLimits): Promise<void> {
  const handle = await fs.promises.open(file, 'r')
  let zipfile: Yauzl.ZipFile | undefined
  try {
    const { size: fileSize } = await handle.stat()
    const end = await findEndRecord(handle, fileSize)
    if (end.total === 0xffff || end.cdSize === 0xffffffff || end.cdOffset === 0xffffffff) throw new ArchiveError('a ZIP64 archive (over 4 GB or 65,535 entries): use a .tar.gz or a folder instead')
    if (end.total > limits.maxEntries) throw new ArchiveError(`the archive holds more than ${limits.maxEntries} entries`)
    if (end.cdOffset + end.cdSize > fileSize) throw new ArchiveError('not a readable .zip archive (the central directory lies outside the file)')
    if (end.cdSize > MAX_CENTRAL_DIRECTORY_BYTES) throw new ArchiveError(`a central directory of ${end.cdSize} bytes (at most ${MAX_CENTRAL_DIRECTORY_BYTES})`)
    try {
      zipfile = await openZip(new EndRecordView(handle.fd, end))
    } catch (err) {
      throw new ArchiveError(`not a readable .zip archive (${(err as Error).message})`)
    }
    const entries: Yauzl.Entry[] = []
    // Every entry is kept until the data is checked: the directory's own size bounds them.
    let directory = 0
    try {
      for await (const entry of zipfile.eachEntry()) {
        directory += 46 + entry.fileNameLength + entry.extraFieldLength + entry.fileCommentLength
        if (directory > end.cdSize) throw new ArchiveError('not a readable .zip archive (a damaged central directory)')
        entries.push(entry)
      }
    } catch (err) {
      if (err instanceof ArchiveError) throw err
      throw new ArchiveError(`not a readable .zip archive (${(err as Error).message})`)
    }
    const declared = entries.reduce((sum, e) => sum + e.uncompressedSize, 0)
    if (declared > limits.maxBytes) throw new ArchiveError(`the archive unpacks to ${declared} bytes, over the limit of ${limits.maxBytes}`)

    // Where each entry's data lies; two entries sharing bytes is how a small zip
    // unpacks to terabytes, and never happens in an archive made by a zip tool.
    const spans: Array<{ entry: Yauzl.Entry, name: string, start: number, dataStart: number, end: number }> = []
    for (const entry of entries) {
      const name = entry.fileNameRaw.toString('utf8')
      let dataStart: number
      try {
        ({ fileDataStart: dataStart } = await zipfile.readLocalFileHeaderPromise(entry, { minimal: true }))
      } catch (err) {
        throw new ArchiveError(`the entry "${name}" has no readable local header where the directory says (${(err as Error).message})`)
      }
      spans.push({ entry, name, start: entry.relativeOffsetOfLocalHeader, dataStart, end: dataStart + entry.compressedSize })
    }
    const sorted = [...spans].sort((a, b) => a.start - b.start)
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]!.start < sorted[i - 1]!.end) throw new ArchiveError(`entries "${sorted[i - 1]!.name}" and "${sorted[i]!.name}" share their data (a zip bomb)`)
    }
    if (sorted.length > 0 && sorted.at(-1)!.end > end.cdOffset) throw new ArchiveError('an entry\'s data runs into the central directory')

    writer.total = entries.length
    for (const { entry, name, dataStart } of spans) {
      writer.count(name)
      // 3: Unix (APPNOTE 4.4.2), whose mode is the high half of the external attributes.
      const type = entry.versionMadeBy >> 8 === 3 ? (entry.externalFileAttributes >>> 16) & S_IFMT : undefined
      if (name.endsWith('/') || type === S_IFDIR) {
        await writer.dir(name)
        continue
      }
      if (type === S_IFLNK) { writer.refuse(name, 'a symbolic link: only files and folders are unpacked'); continue }
      if (type !== undefined && type !== 0 && type !== S_IFREG) { writer.refuse(name, 'a device, FIFO or socket: only files and folders are unpacked'); continue }
      if (entry.isEncrypted()) { writer.refuse(name, 'encrypted: not unpacked'); continue }
      if (entry.uncompressedSize > limits.maxEntryBytes || entry.compressedSize > limits.maxEntryBytes) {
        writer.refuse(name, `${Math.max(entry.uncompressedSize, entry.compressedSize)} bytes, over the limit of ${limits.maxEntryBytes} per file`)
        continue
      }
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
        writer.refuse(name, `compressed with method ${entry.compressionMethod}: only stored and deflate entries are read`)
        continue
      }
      const bytes = entryBytes(await readAt(handle, dataStart, entry.compressedSize), entry)
      if (typeof bytes === 'string') { writer.refuse(name, bytes); continue }
      await writer.file(name, bytes)
    }
  } finally {
    zipfile?.close()
    await handle.close()
  }
}
