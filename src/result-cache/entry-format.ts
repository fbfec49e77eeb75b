// One cache entry is one file (one inode): a header that says what the file must hold,
// then the answer's bytes. Read back, the header is checked against the address asked
// for and the bytes against the header's length and SHA-256: a file torn by a crash, cut
// short by a full disk or changed by hand is found out and never served.
//
//   "UMRC1\n"  4 bytes: the header's length (big-endian)  the header (JSON)  the bytes
import { createHash } from 'node:crypto'

const MAGIC = Buffer.from('UMRC1\n', 'latin1')
/** A header longer than this is not one of ours. */
const MAX_HEADER_BYTES = 64 * 1024

/** An answer as the cache keeps it. */
export interface StoredAnswer {
  bytes: Buffer
  contentType: string
  /** What the feature needs besides the bytes to answer again (a header's value). */
  meta: Record<string, string>
}

interface Header { address: string, contentType: string, length: number, sha256: string, meta: Record<string, string> }

export function encodeEntry (address: string, answer: StoredAnswer): Buffer {
  const header: Header = { address, contentType: answer.contentType, length: answer.bytes.length, sha256: createHash('sha256').update(answer.bytes).digest('hex'), meta: answer.meta }
  const json = Buffer.from(JSON.stringify(header))
  const size = Buffer.alloc(4)
  size.writeUInt32BE(json.length)
  return Buffer.concat([MAGIC, size, json, answer.bytes])
}

/** The answer a file holds, or why it is not a sound entry for `address`. */
export function decodeEntry (address: string, file: Buffer): { ok: true, answer: StoredAnswer } | { ok: false, why: string } {
  if (file.length < MAGIC.length + 4 || !file.subarray(0, MAGIC.length).equals(MAGIC)) return { ok: false, why: 'not an entry (its first bytes)' }
  const headerLength = file.readUInt32BE(MAGIC.length)
  const start = MAGIC.length + 4
  if (headerLength > MAX_HEADER_BYTES || start + headerLength > file.length) return { ok: false, why: 'its header is cut short' }
  let header: Header
  try {
    header = JSON.parse(file.subarray(start, start + headerLength).toString('utf8')) as Header
  } catch {
    return { ok: false, why: 'its header is not readable' }
  }
  if (header === null || typeof header !== 'object' || header.address !== address) return { ok: false, why: 'its header names another address' }
  const bytes = file.subarray(start + headerLength)
  if (bytes.length !== header.length) return { ok: false, why: `it holds ${bytes.length} bytes where its header says ${String(header.length)}` }
  if (createHash('sha256').update(bytes).digest('hex') !== header.sha256) return { ok: false, why: 'its bytes do not match their SHA-256' }
  if (typeof header.contentType !== 'string' || header.meta === null || typeof header.meta !== 'object') return { ok: false, why: 'its header is incomplete' }
  return { ok: true, answer: { bytes, contentType: header.contentType, meta: header.meta } }
}
