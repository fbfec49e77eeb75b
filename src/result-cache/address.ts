// A picture's content address: SHA-256 over a canonical form of everything that decides
// its bytes (the parameters, a hash of each remote image's bytes, the versions of the
// code, fonts and assets). Canonical: object keys sorted, so that two requests that say
// the same thing in another key order share one address.
import { createHash } from 'node:crypto'

/** JSON with every object's keys sorted; `undefined` members are left out, as JSON.stringify does. */
export function canonicalJson (value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map((v) => v === undefined ? 'null' : canonicalJson(v)).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
}

/** 64 hex digits: what names an entry on disk and a picture's ETag. */
export const ADDRESS_PATTERN = /^[0-9a-f]{64}$/

export function contentAddress (parts: unknown): string {
  return createHash('sha256').update(canonicalJson(parts)).digest('hex')
}

const hashes = new WeakMap<Buffer, string>()

/** SHA-256 of `bytes`, hex; worked out once per buffer (a remote image kept by the fetcher's cache is the same buffer each time). */
export function bytesHash (bytes: Buffer): string {
  let hash = hashes.get(bytes)
  if (hash === undefined) {
    hash = createHash('sha256').update(bytes).digest('hex')
    hashes.set(bytes, hash)
  }
  return hash
}
