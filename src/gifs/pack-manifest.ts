// A gif pack's manifest (manifest.json at the top of the pack): which file is which gif,
// in which category, made by whom. Published as a JSON Schema in
// docs/gif-pack.schema.json, described in docs/gif-packs.md. Version 1:
//   { "version": 1, "gifs": [ { "file": "hug/a.gif", "category": "hug",
//     "anime_name": "…", "artist": "…", "artist_url": "…", "source_url": "…" } ] }
// Fields this version does not know are ignored (a later minor addition must not break
// an older importer); a wrong entry is refused alone, with its reason; only a manifest
// that is not JSON, or of another major version, or over a bound, is refused whole.
// The bounds hold what a pack controls before any of it is parsed: the bytes, then the
// number of entries and JSON objects and lists, counted by a scan of the text, so a
// small archive cannot make the importer hold millions of values or refusals.
import type { Attribution } from './catalog-writer.js'
import { checkExternalUrl, MAX_EXTERNAL_URL_LENGTH } from './external-url.js'
import { PACK_MANIFEST, safeEntryPath } from './pack-archive.js'

export const MANIFEST_NAME = PACK_MANIFEST
export const PACK_VERSION = 1
/** Entries of "gifs": as many as the files an archive may hold (MAX_PACK_ENTRIES). */
export const MAX_MANIFEST_ENTRIES = 20_000
/** Entries with "url": each adds a catalog row that no file backs. */
export const MAX_MANIFEST_URL_ENTRIES = 5_000
/** MAX_MANIFEST_ENTRIES with full attribution (about 800 bytes each) fit. */
export const MAX_MANIFEST_BYTES = 16 * 1024 * 1024
/** JSON objects and lists in all: one per entry, with room for fields the importer does not know. */
const MAX_CONTAINERS = MAX_MANIFEST_ENTRIES * 4 + 64
const MAX_TEXT = 500
const MAX_URL = MAX_EXTERNAL_URL_LENGTH

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
}

/** Called once for each entry refused, as it is read (refusals are not kept here). */
export type RefuseEntry = (index: number, label: string, reason: string) => void

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

/**
 * Counts, without parsing, the elements of the manifest's top-level lists (commas at
 * depth 2, outside strings) and every JSON object and list: refused past the bounds
 * before JSON.parse makes them (a 66 MB manifest of 1s held 5 GB).
 */
function checkShape (text: string): void {
  let depth = 0
  let containers = 0
  let elements = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
      continue
    }
    if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) {
      if (++containers > MAX_CONTAINERS) throw new ManifestError(`${MANIFEST_NAME} holds more than ${MAX_CONTAINERS} JSON objects and lists (at most ${MAX_MANIFEST_ENTRIES} gifs): split the pack`)
      depth++
    } else if (c === 0x7d || c === 0x5d) depth--
    else if (c === 0x2c && depth === 2 && ++elements >= MAX_MANIFEST_ENTRIES) {
      throw new ManifestError(`${MANIFEST_NAME} lists more than ${MAX_MANIFEST_ENTRIES} gifs (at most ${MAX_MANIFEST_ENTRIES}): split the pack`)
    }
  }
}

/** Reads the manifest; each entry refused is handed to `refuse` once, the others are returned. */
export function parseManifest (text: string, refuse: RefuseEntry): ParsedManifest {
  checkShape(text)
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
  if (gifs.length > MAX_MANIFEST_ENTRIES) throw new ManifestError(`${MANIFEST_NAME} lists ${gifs.length} gifs (at most ${MAX_MANIFEST_ENTRIES}): split the pack`)
  const urls = gifs.filter((g: unknown) => typeof g === 'object' && g !== null && (g as Record<string, unknown>).url !== undefined).length
  if (urls > MAX_MANIFEST_URL_ENTRIES) throw new ManifestError(`${MANIFEST_NAME} lists ${urls} "url" entries (at most ${MAX_MANIFEST_URL_ENTRIES}): split the pack`)
  const parsed: ParsedManifest = { entries: [] }
  gifs.forEach((raw: unknown, index) => {
    const result = parseEntry(raw, index)
    if (typeof result === 'string') refuse(index, entryLabel(index, raw), result)
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
    if (typeof e.url !== 'string') return `"url" must be an http(s) URL of at most ${MAX_URL} characters`
    // The rule of `gifs add-url` (src/gifs/external-url.ts).
    const checked = checkExternalUrl(e.url)
    if ('reason' in checked) return `"url" is refused: ${checked.reason}`
    entry.url = checked.url
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
