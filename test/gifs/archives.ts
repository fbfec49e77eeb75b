// Archives built byte by byte for the tests: a .tar.gz and a .zip of given entries,
// including the hostile ones no archiver makes on purpose (names with "..", links,
// lying sizes, entries sharing their data).
import { crc32, deflateRawSync, gzipSync } from 'node:zlib'

export interface TarEntry {
  name: string
  data?: Buffer | string
  /** '0' file (default), '2' symbolic link, '1' hard link, '5' folder, '3' device. */
  type?: string
  linkName?: string
  /** The 12 bytes of the size field as written, instead of the real size in octal. */
  sizeField?: Buffer | string
  /** pax extended header records written before the entry ("size", "path"). */
  pax?: Record<string, string>
}

function header (name: string, size: number, type: string, linkName = '', sizeField?: Buffer | string): Buffer {
  const h = Buffer.alloc(512)
  h.write(name.slice(0, 100), 0, 'utf8')
  h.write('0000644\0', 100, 'ascii')
  h.write('0000000\0', 108, 'ascii')
  h.write('0000000\0', 116, 'ascii')
  if (sizeField === undefined) h.write(size.toString(8).padStart(11, '0') + '\0', 124, 'ascii')
  else Buffer.from(sizeField as string).copy(h, 124, 0, 12)
  h.write('00000000000\0', 136, 'ascii')
  h.write('        ', 148, 'ascii')
  h.write(type, 156, 'ascii')
  h.write(linkName, 157, 'utf8')
  h.write('ustar\0', 257, 'ascii')
  h.write('00', 263, 'ascii')
  let sum = 0
  for (const b of h) sum += b
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii')
  return h
}

/** "<length> <key>=<value>\n", the length counting itself. */
function paxRecord (key: string, value: string): string {
  const body = ` ${key}=${value}\n`
  let length = Buffer.byteLength(body) + 1
  while (String(length).length + Buffer.byteLength(body) !== length) length++
  return `${length}${body}`
}

export function tarGz (entries: TarEntry[]): Buffer {
  const blocks: Buffer[] = []
  for (const e of entries) {
    const data = e.data === undefined ? Buffer.alloc(0) : Buffer.from(e.data)
    if (Buffer.byteLength(e.name) > 100) {
      // GNU long name: a 'L' entry whose content is the name.
      const long = Buffer.from(e.name + '\0')
      blocks.push(header('././@LongLink', long.length, 'L'), long, Buffer.alloc((512 - (long.length % 512)) % 512))
    }
    if (e.pax !== undefined) {
      const records = Buffer.from(Object.entries(e.pax).map(([k, v]) => paxRecord(k, v)).join(''))
      blocks.push(header('PaxHeader', records.length, 'x'), records, Buffer.alloc((512 - (records.length % 512)) % 512))
    }
    blocks.push(header(e.name, data.length, e.type ?? '0', e.linkName, e.sizeField), data, Buffer.alloc((512 - (data.length % 512)) % 512))
  }
  blocks.push(Buffer.alloc(1024))
  return gzipSync(Buffer.concat(blocks))
}

export interface ZipEntry {
  name: string
  data?: Buffer | string
  /** Unix mode (with file type bits), e.g. 0o120777 for a symbolic link. */
  mode?: number
  deflate?: boolean
  /** The size written in the headers instead of the real one. */
  declaredSize?: number
  encrypted?: boolean
}

/**
 * A .zip; `shareData` points every entry's local header offset at the first one
 * (overlap); `comment` is the archive's comment, after the end record.
 */
export function zip (entries: ZipEntry[], options: { shareData?: boolean, comment?: Buffer } = {}): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  let firstOffset = 0
  for (const [i, e] of entries.entries()) {
    const data = e.data === undefined ? Buffer.alloc(0) : Buffer.from(e.data)
    const body = e.deflate === true ? deflateRawSync(data) : data
    const name = Buffer.from(e.name)
    const size = e.declaredSize ?? data.length
    const crc = crc32(data)
    const flags = e.encrypted === true ? 1 : 0
    const method = e.deflate === true ? 8 : 0
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(flags, 6)
    local.writeUInt16LE(method, 8)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(size, 22)
    local.writeUInt16LE(name.length, 26)
    const here = options.shareData === true && i > 0 ? firstOffset : offset
    if (i === 0) firstOffset = offset
    if (!(options.shareData === true && i > 0)) {
      locals.push(local, name, body)
      offset += 30 + name.length + body.length
    }
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE((3 << 8) | 20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(flags, 8)
    central.writeUInt16LE(method, 10)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(body.length, 20)
    central.writeUInt32LE(size, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(((e.mode ?? (e.name.endsWith('/') ? 0o040755 : 0o100644)) << 16) >>> 0, 38)
    central.writeUInt32LE(here, 42)
    centrals.push(central, name)
  }
  const cd = Buffer.concat(centrals)
  const eocd = Buffer.alloc(22)
  eocd.writeUInt32LE(0x06054b50, 0)
  eocd.writeUInt16LE(entries.length, 8)
  eocd.writeUInt16LE(entries.length, 10)
  eocd.writeUInt32LE(cd.length, 12)
  eocd.writeUInt32LE(offset, 16)
  const comment = options.comment ?? Buffer.alloc(0)
  eocd.writeUInt16LE(comment.length, 20)
  return Buffer.concat([...locals, cd, eocd, comment])
}
