// A gif pack's manifest (manifest.json at the top of the pack): which file is which gif,
// in which category, made by whom. Published as a JSON Schema in
// docs/gif-pack.schema.json, described in docs/gif-packs.md. Version 1:
//   { "version": 1, "gifs": [ { "file": "hug/a.gif", "category": "hug",
//     "anime_name": "…", "artist": "…", "artist_url": "…", "source_url": "…" } ] }
// Fields this version does not know are ignored (a later minor addition must not break
// an older importer); a wrong entry is refused alone, with its reason; only a manifest
// that is not JSON, or of another major version, is refused whole.
import { safeEntryPath } from './pack-archive.js'
import type { Attribution } from './catalog-writer.js'

export const MANIFEST_NAME = 'manifest.json'
export const PACK_VERSION = 1
/** A manifest of 200,000 entries with attribution fits. */
export const MAX_MANIFEST_BYTES = 64 * 1024 * 1024
const MAX_TEXT = 500
const MAX_URL = 2048

export interface PackEntry {
  /** Position in "gifs", for messages. */
  index: number
  /** Path inside the pack, '/'-separated and checked (no "..", not absolute). */
  file?: string
  /** An external entry (gifs add-url): the API answers this URL. */
  url?: string
  category?: string
  attribution: Attribution
  sha256?: string
  hidden?: boolean
  width?: number
  height?: number
  frames?: number
}

export interface ParsedManifest {
  entries: PackEntry[]
  refused: Array<{ index: number, label: string, reason: string }>
}

/** The manifest cannot be used at all. */
export class ManifestError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'ManifestError'
  }
}

/** How an entry is named in messages: "manifest.json gifs[3] (hug/a.gif)". */
export function entryLabel (index: number, raw: unknown): string {
  const file = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).file ?? (raw as Record<string, unknown>).url : undefined
  return `${MANIFEST_NAME} gifs[${index}]${typeof file === 'string' ? ` (${file.slice(0, 200)})` : ''}`
}

function httpUrl (value: string): boolean {
  if (value.length > MAX_URL) return false
  try {
    const u = new URL(value)
    return u.protocol === 'http:' || u.protocol === 'https:'
  } catch {
    return false
  }
}

export function parseManifest (text: string): ParsedManifest {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (err) {
    throw new ManifestError(`${MANIFEST_NAME} is not valid JSON (${(err as Error).message})`)
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new ManifestError(`${MANIFEST_NAME} must be a JSON object with "version" and "gifs"`)
  const { version, gifs } = doc as Record<string, unknown>
  if (version !== PACK_VERSION) {
    throw new ManifestError(typeof version === 'number' && Number.isInteger(version) && version > PACK_VERSION
      ? `${MANIFEST_NAME} is of pack version ${version}; this importer reads version ${PACK_VERSION}: update the API`
      : `${MANIFEST_NAME} must say "version": ${PACK_VERSION}`)
  }
  if (!Array.isArray(gifs)) throw new ManifestError(`${MANIFEST_NAME} must hold a "gifs" list`)
  const parsed: ParsedManifest = { entries: [], refused: [] }
  gifs.forEach((raw: unknown, index) => {
    const result = parseEntry(raw, index)
    if (typeof result === 'string') parsed.refused.push({ index, label: entryLabel(index, raw), reason: result })
    else parsed.entries.push(result)
  })
  return parsed
}

/** The entry, or why it is refused. */
function parseEntry (raw: unknown, index: number): PackEntry | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'an entry must be an object with "file" (or "url") and "category"'
  const e = raw as Record<string, unknown>
  const entry: PackEntry = { index, attribution: {} }
  if ((e.file === undefined) === (e.url === undefined)) return 'an entry must have exactly one of "file" and "url"'
  if (e.file !== undefined) {
    if (typeof e.file !== 'string') return '"file" must be a path inside the pack'
    const safe = safeEntryPath(e.file)
    if ('reason' in safe) return `"file" is refused: ${safe.reason}`
    entry.file = safe.path
  } else {
    if (typeof e.url !== 'string' || !httpUrl(e.url)) return `"url" must be an http(s) URL of at most ${MAX_URL} characters`
    entry.url = e.url
  }
  if (e.category !== undefined) {
    if (typeof e.category !== 'string') return '"category" must be a gif type'
    entry.category = e.category.trim().toLowerCase()
  }
  const texts: Array<[keyof Attribution, string, boolean]> = [
    ['animeName', 'anime_name', false], ['artist', 'artist', false], ['artistUrl', 'artist_url', true], ['sourceUrl', 'source_url', true]
  ]
  for (const [field, key, isUrl] of texts) {
    const value = e[key]
    if (value === undefined || value === null || value === '') continue
    if (typeof value !== 'string') return `"${key}" must be a string`
    if (isUrl ? !httpUrl(value) : value.length > MAX_TEXT) return isUrl ? `"${key}" must be an http(s) URL of at most ${MAX_URL} characters` : `"${key}" is longer than ${MAX_TEXT} characters`
    entry.attribution[field] = value
  }
  if (e.sha256 !== undefined) {
    if (typeof e.sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(e.sha256)) return '"sha256" must be 64 hex digits'
    entry.sha256 = e.sha256.toLowerCase()
  }
  if (e.hidden !== undefined) {
    if (typeof e.hidden !== 'boolean') return '"hidden" must be true or false'
    entry.hidden = e.hidden
  }
  for (const key of ['width', 'height', 'frames'] as const) {
    const value = e[key]
    if (value === undefined) continue
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 1_000_000) return `"${key}" must be a whole number`
    entry[key] = value
  }
  return entry
}

/** The manifest `gifs export` writes: version 1, with every field the importer reads. */
export interface ManifestEntryOut {
  file?: string
  url?: string
  category: string
  sha256?: string
  anime_name?: string
  artist?: string
  artist_url?: string
  source_url?: string
  hidden?: true
  width?: number
  height?: number
  frames?: number
}
