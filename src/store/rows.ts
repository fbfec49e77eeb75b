// Rows as both SQL backends return them (same columns, same names; PostgreSQL's BIGINT
// comes back as a number, see postgres/database.ts), and the records they make.
import { ADMIN_SCOPES, type AdminScope, type ApiKeyRecord, type AuditEntry, type GifAttribution, type IdempotencyRecord, type KeyFilter, type KeyLimits, type KeyMeta, type KeyPatch, type KeyStatus, type MintedLink, type GifRecord, type GifReport, type GifReportReason, type NewApiKey, type OperatorToken, type UsageEntry } from './interface.js'

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
  owner: string | null
  meta: string | null
  expires_at: number | null
  units_total: number
  credits_base: number | null
  credits_mark: number
  credits_granted: number | null
  refill_amount: number | null
  refill_period: 'day' | 'month' | null
  refilled_period: string | null
  previous_hash: string | null
  previous_valid_until: number | null
  created_at: number
  updated_at: number
}

function parseMeta (text: string | null): KeyMeta | null {
  if (text === null) return null
  try {
    const value = JSON.parse(text) as unknown
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as KeyMeta : null
  } catch {
    return null
  }
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
    owner: row.owner,
    meta: parseMeta(row.meta),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
    unitsTotal: row.units_total,
    credits: row.credits_base === null
      ? null
      : {
          base: row.credits_base,
          mark: row.credits_mark,
          granted: row.credits_granted,
          refill: row.refill_amount !== null && row.refill_period !== null ? { amount: row.refill_amount, period: row.refill_period } : null,
          refilledPeriod: row.refilled_period
        },
    previousHash: row.previous_hash,
    previousValidUntil: row.previous_valid_until === null ? null : new Date(row.previous_valid_until),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at)
  }
}

/**
 * SQL both backends share for keys, written through `param`, which adds a value and
 * answers its placeholder (`?` for SQLite, `$n` for PostgreSQL), and the two functions
 * whose names differ.
 */
export interface KeySql {
  param: (value: unknown) => string
  greatest: (a: string, b: string) => string
  /** Whether `needle` occurs in `haystack` (SQLite's instr, PostgreSQL's strpos). */
  contains: (haystack: string, needle: string) => string
}

/** What is left, as the store holds it, in SQL (over the row's old values inside an UPDATE). */
const LEFT = 'credits_base - (units_total - credits_mark)'

/** The columns and values of a new key, beyond the ones every key has. */
export function newKeyColumns (key: NewApiKey): Array<[string, unknown]> {
  const credits = key.credits ?? (key.refill ? key.refill.amount : undefined)
  return [
    ['owner', key.owner ?? null],
    ['meta', key.meta == null ? null : JSON.stringify(key.meta)],
    ['expires_at', key.expiresAt?.getTime() ?? null],
    ['credits_base', credits ?? null],
    ['credits_granted', credits ?? null],
    ['refill_amount', key.refill?.amount ?? null],
    ['refill_period', key.refill?.period ?? null],
    ['refilled_period', key.refill ? key.refilledPeriod ?? null : null]
  ]
}

const LIMIT_COLUMNS: Record<keyof KeyLimits, string> = { rateMax: 'rate_max', rateWindowMs: 'rate_window_ms', quotaMax: 'quota_max', quotaPeriod: 'quota_period' }

/** The SET clauses of a key patch (updated_at excluded); empty when it changes nothing. */
export function keyPatchSets (patch: KeyPatch, sql: KeySql): string[] {
  const sets: string[] = []
  const set = (column: string, value: unknown): void => { sets.push(`${column} = ${sql.param(value)}`) }
  if (patch.name !== undefined) set('name', patch.name)
  if (patch.owner !== undefined) set('owner', patch.owner)
  if (patch.meta !== undefined) set('meta', patch.meta === null ? null : JSON.stringify(patch.meta))
  for (const [field, column] of Object.entries(LIMIT_COLUMNS) as Array<[keyof KeyLimits, string]>) {
    if (patch.limits !== undefined && field in patch.limits) set(column, patch.limits[field] ?? null)
  }
  if (patch.status !== undefined) set('status', patch.status)
  if (patch.expiresAt !== undefined) set('expires_at', patch.expiresAt?.getTime() ?? null)
  if (patch.credits !== undefined) {
    // A new balance counts from now: the mark moves to what the key was billed so far.
    set('credits_base', patch.credits)
    set('credits_granted', patch.credits)
    sets.push('credits_mark = units_total')
  } else if (patch.addCredits !== undefined) {
    // A placeholder per use: SQLite's ? are positional.
    const add = (): string => sql.param(patch.addCredits)
    // Every right-hand side reads the row as it was: no credits yet starts from 0 now.
    sets.push(`credits_base = CASE WHEN credits_base IS NULL THEN ${add()} ELSE credits_base + ${add()} END`)
    sets.push(`credits_granted = CASE WHEN credits_base IS NULL THEN ${add()} ELSE ${LEFT} + ${add()} END`)
    sets.push('credits_mark = CASE WHEN credits_base IS NULL THEN units_total ELSE credits_mark END')
  }
  if (patch.refill !== undefined) {
    set('refill_amount', patch.refill?.amount ?? null)
    set('refill_period', patch.refill?.period ?? null)
    set('refilled_period', patch.refill === null ? null : patch.refilledPeriod ?? null)
  }
  return sets
}

/** The lazy refill as one conditional UPDATE (KeyStore.refill); `RETURNING *` is the caller's. */
export function refillSql (id: number, period: string, now: number, sql: KeySql): string {
  const left = sql.greatest(LEFT, 'refill_amount')
  return `UPDATE api_keys SET credits_base = ${left}, credits_granted = ${left}, credits_mark = units_total,
    refilled_period = ${sql.param(period)}, updated_at = ${sql.param(now)}
    WHERE id = ${sql.param(id)} AND credits_base IS NOT NULL AND refill_amount IS NOT NULL
      AND (refilled_period IS NULL OR refilled_period < ${sql.param(period)})`
}

/** The WHERE and LIMIT of a key listing. */
export function keyFilterSql (filter: KeyFilter, sql: KeySql): string {
  const where: string[] = []
  const now = filter.now ?? Date.now()
  if (filter.owner !== undefined) where.push(`owner = ${sql.param(filter.owner)}`)
  // Part of the name in any case, without LIKE's wildcards to escape.
  if (filter.name !== undefined) where.push(sql.contains('lower(name)', sql.param(filter.name.toLowerCase())))
  if (filter.status === 'expired') where.push(`status = 'active' AND expires_at IS NOT NULL AND expires_at <= ${sql.param(now)}`)
  else if (filter.status === 'active') where.push(`status = 'active' AND (expires_at IS NULL OR expires_at > ${sql.param(now)})`)
  else if (filter.status !== undefined) where.push(`status = ${sql.param(filter.status)}`)
  if (filter.afterId !== undefined) where.push(`id > ${sql.param(filter.afterId)}`)
  return `${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id${filter.limit !== undefined ? ` LIMIT ${sql.param(filter.limit)}` : ''}`
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

/** Units per key of a usage batch, keys ascending (one lock order for every writer), none with 0. */
export function unitsPerKey (entries: readonly UsageEntry[]): Array<[number, number]> {
  const sums = new Map<number, number>()
  for (const e of entries) sums.set(e.keyId, (sums.get(e.keyId) ?? 0) + e.units)
  return [...sums].filter(([, units]) => units !== 0).sort((a, b) => a[0] - b[0])
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
  api_keys: ['id', 'name', 'prefix', 'hash', 'status', 'source', 'rate_max', 'rate_window_ms', 'quota_max', 'quota_period', 'link_id', 'link_seed', 'created_at', 'updated_at',
    'owner', 'meta', 'expires_at', 'units_total', 'credits_base', 'credits_mark', 'credits_granted', 'refill_amount', 'refill_period', 'refilled_period',
    'previous_hash', 'previous_valid_until'],
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
