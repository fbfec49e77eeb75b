// Rows as both SQL backends return them (same columns, same names; PostgreSQL's BIGINT
// comes back as a number, see postgres/database.ts), and the records they make.
import { ADMIN_SCOPES, type AdminScope, type ApiKeyRecord, type AuditEntry, type GifAttribution, type IdempotencyRecord, type MintedLink, type GifRecord, type GifReport, type GifReportReason, type KeyLimits, type KeyStatus, type OperatorToken, type UsageEntry } from './interface.js'

export interface KeyRow {
  id: number
  name: string
  prefix: string
  hash: string
  status: KeyStatus
  source: ApiKeyRecord['source']
  rate_max: number | null
  rate_window_ms: number | null
  quota_max: number | null
  quota_period: KeyLimits['quotaPeriod']
  /** Null only between migration 7 and the backfill that follows it at open (link-ids.ts). */
  link_id: string | null
  link_seed: string | null
  created_at: number
  updated_at: number
}

export function keyFromRow (row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    hash: row.hash,
    status: row.status,
    source: row.source,
    limits: { rateMax: row.rate_max, rateWindowMs: row.rate_window_ms, quotaMax: row.quota_max, quotaPeriod: row.quota_period },
    linkId: row.link_id ?? '',
    linkSeed: row.link_seed ?? '',
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at)
  }
}

export interface GifRow {
  id: number
  category: string
  /** Null while hidden. */
  seq: number | null
  hash: string | null
  url: string | null
  size: number
  width: number
  height: number
  frames: number
  content_type: string
  added_at: number
  anime_name: string | null
  artist: string | null
  artist_url: string | null
  source_url: string | null
  dominant_color: string | null
  phash: string | null
  /** SQLite answers 0/1, PostgreSQL a boolean. */
  hidden: number | boolean
}

export function gifFromRow (row: GifRow): GifRecord {
  return {
    id: row.id,
    category: row.category,
    hash: row.hash,
    url: row.url,
    size: row.size,
    width: row.width,
    height: row.height,
    frames: row.frames,
    contentType: row.content_type,
    addedAt: new Date(row.added_at),
    animeName: row.anime_name,
    artist: row.artist,
    artistUrl: row.artist_url,
    sourceUrl: row.source_url,
    dominantColor: row.dominant_color,
    phash: row.phash,
    hidden: row.hidden === true || row.hidden === 1
  }
}

/** The attribution columns and the record fields they hold, in one order for both stores. */
export const GIF_ATTRIBUTION_COLUMNS = [
  ['anime_name', 'animeName'],
  ['artist', 'artist'],
  ['artist_url', 'artistUrl'],
  ['source_url', 'sourceUrl'],
  ['dominant_color', 'dominantColor'],
  ['phash', 'phash']
] as const satisfies ReadonlyArray<readonly [string, keyof GifAttribution]>

/** A field's value as stored: absent is null, colours in lower case. */
export function attributionValue (field: keyof GifAttribution, value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null
  return field === 'dominantColor' || field === 'phash' ? value.toLowerCase() : value
}

export interface GifReportRow { id: number, gif_id: number, key_id: number | null, reason: GifReportReason, created_at: number, dismissed_at: number | null }

export function reportFromRow (r: GifReportRow): GifReport {
  return { id: r.id, gifId: r.gif_id, keyId: r.key_id, reason: r.reason, createdAt: new Date(r.created_at), dismissedAt: r.dismissed_at == null ? null : new Date(r.dismissed_at) }
}

export interface OperatorTokenRow { id: number, name: string, prefix: string, hash: string, scopes: string, status: 'active' | 'revoked', created_at: number, last_used_at: number | null }

export function operatorTokenFromRow (r: OperatorTokenRow): OperatorToken {
  const scopes = r.scopes.split(',').filter((s): s is AdminScope => (ADMIN_SCOPES as readonly string[]).includes(s))
  return { id: r.id, name: r.name, prefix: r.prefix, hash: r.hash, scopes, status: r.status, createdAt: new Date(r.created_at), lastUsedAt: r.last_used_at == null ? null : new Date(r.last_used_at) }
}

export interface AuditRow { id: number, at: number, actor: string, action: string, target: string | null, details: string | null, address: string | null }

export function auditFromRow (r: AuditRow): AuditEntry {
  return { id: r.id, at: new Date(r.at), actor: r.actor, action: r.action, target: r.target, details: r.details == null ? null : JSON.parse(r.details) as Record<string, unknown>, address: r.address }
}

export interface IdempotencyRow { actor: string, idempotency_key: string, body_hash: string, key_id: number | null, answer: string | null, created_at: number }

export function idempotencyFromRow (r: IdempotencyRow): IdempotencyRecord {
  return { actor: r.actor, key: r.idempotency_key, bodyHash: r.body_hash, keyId: r.key_id, answer: r.answer, createdAt: new Date(r.created_at) }
}

/** Rows a gif listing answers when the caller sets no limit. */
export const DEFAULT_LIST_LIMIT = 1000

export interface UsageRow { key_id: number, day: string, endpoint_group: string, requests: number, units: number }

export function usageFromRow (r: UsageRow): UsageEntry {
  return { keyId: r.key_id, day: r.day, group: r.endpoint_group, requests: r.requests, units: r.units }
}

export interface MintedLinkRow { id: string, key_id: number, target: string, created_at: number }

export function mintedLinkFromRow (r: MintedLinkRow): MintedLink {
  return { id: r.id, keyId: r.key_id, target: r.target, createdAt: new Date(r.created_at) }
}

/**
 * The tables that make an install, in an order that keeps references valid, and their
 * columns: what moving an install between stores copies (src/cli/copy-to-postgres.ts).
 */
export const INSTALL_TABLES = {
  api_keys: ['id', 'name', 'prefix', 'hash', 'status', 'source', 'rate_max', 'rate_window_ms', 'quota_max', 'quota_period', 'link_id', 'link_seed', 'created_at', 'updated_at'],
  key_usage: ['key_id', 'day', 'endpoint_group', 'requests', 'units'],
  gifs: ['id', 'category', 'seq', 'hash', 'url', 'size', 'width', 'height', 'frames', 'content_type', 'added_at',
    'anime_name', 'artist', 'artist_url', 'source_url', 'dominant_color', 'phash', 'hidden'],
  gif_categories: ['category', 'count', 'version'],
  gif_reports: ['id', 'gif_id', 'key_id', 'reason', 'created_at', 'dismissed_at'],
  minted_links: ['id', 'key_id', 'target', 'created_at'],
  operator_tokens: ['id', 'name', 'prefix', 'hash', 'scopes', 'status', 'created_at', 'last_used_at'],
  audit_log: ['id', 'at', 'actor', 'action', 'target', 'details', 'address']
} as const satisfies Record<string, readonly string[]>

export type InstallTable = keyof typeof INSTALL_TABLES
