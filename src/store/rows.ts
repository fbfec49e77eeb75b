// Rows as both SQL backends return them (same columns, same names; PostgreSQL's BIGINT
// comes back as a number, see postgres/database.ts), and the records they make.
import type { ApiKeyRecord, GifRecord, KeyLimits, KeyStatus, UsageEntry } from './interface.js'

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
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at)
  }
}

export interface GifRow {
  id: number
  category: string
  seq: number
  hash: string | null
  url: string | null
  size: number
  width: number
  height: number
  frames: number
  content_type: string
  added_at: number
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
    addedAt: new Date(row.added_at)
  }
}

/** Rows a gif listing answers when the caller sets no limit. */
export const DEFAULT_LIST_LIMIT = 1000

export interface UsageRow { key_id: number, day: string, endpoint_group: string, requests: number, units: number }

export function usageFromRow (r: UsageRow): UsageEntry {
  return { keyId: r.key_id, day: r.day, group: r.endpoint_group, requests: r.requests, units: r.units }
}

/**
 * The tables that make an install, in an order that keeps references valid, and their
 * columns: what moving an install between stores copies (src/cli/copy-to-postgres.ts).
 */
export const INSTALL_TABLES = {
  api_keys: ['id', 'name', 'prefix', 'hash', 'status', 'source', 'rate_max', 'rate_window_ms', 'quota_max', 'quota_period', 'created_at', 'updated_at'],
  key_usage: ['key_id', 'day', 'endpoint_group', 'requests', 'units'],
  gifs: ['id', 'category', 'seq', 'hash', 'url', 'size', 'width', 'height', 'frames', 'content_type', 'added_at'],
  gif_categories: ['category', 'count', 'version']
} as const satisfies Record<string, readonly string[]>

export type InstallTable = keyof typeof INSTALL_TABLES
