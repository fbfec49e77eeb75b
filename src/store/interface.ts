// Storage behind small interfaces: one definition here, one file per backend
// (src/store/sqlite/ by default). Features receive a Store and never see SQL.
import type { GifFileStore } from './gif-files.js'

export type KeyStatus = 'active' | 'disabled' | 'revoked'

/** A key's own limits; null fields fall back to the service defaults (or no quota). */
export interface KeyLimits {
  /** Units allowed per rate window. */
  rateMax: number | null
  rateWindowMs: number | null
  /** Units allowed per quota period (UTC day or month); null: no quota. */
  quotaMax: number | null
  quotaPeriod: 'day' | 'month' | null
}

export const NO_KEY_LIMITS: KeyLimits = Object.freeze({ rateMax: null, rateWindowMs: null, quotaMax: null, quotaPeriod: null })

/** A small JSON object an operator keeps with a key (the storefront's plan, say). */
export type KeyMeta = Record<string, unknown>

/** Credits given back on a schedule: what is left is raised to `amount` at each new UTC day or month. */
export interface KeyRefill {
  amount: number
  period: 'day' | 'month'
}

/**
 * A key's prepaid credits as the store holds them (migration 8). What is left is
 * `base - (unitsTotal - mark)`: the balance set at the last grant, less what the key was
 * billed since (storedCredits). An instance's units not written yet are not in it
 * (src/access/credits.ts subtracts them).
 */
export interface KeyCredits {
  base: number
  /** The key's unitsTotal when `base` was last set. */
  mark: number
  /** What was left right after the last grant (set, add or refill): the low-credits level is a share of it. */
  granted: number | null
  refill: KeyRefill | null
  /** The period last refilled: YYYY-MM-DD (day) or YYYY-MM (month). */
  refilledPeriod: string | null
}

/** What a key filter may ask for: a stored status, or `expired` (active but past its expiry). */
export type KeyStatusFilter = KeyStatus | 'expired'

export interface KeyFilter {
  owner?: string
  /** Part of the name, any case. */
  name?: string
  status?: KeyStatusFilter
  /** Keys after this id (ids ascending): the page's cursor. */
  afterId?: number
  limit?: number
  /** The clock `active` and `expired` are decided by (epoch ms). */
  now?: number
}

/** Changes to a key, all in one atomic update; absent fields stay as they are. */
export interface KeyPatch {
  name?: string
  owner?: string | null
  meta?: KeyMeta | null
  limits?: Partial<KeyLimits>
  status?: KeyStatus
  expiresAt?: Date | null
  /** Sets what is left (null: no credits, the key is not metered). */
  credits?: number | null
  /** Adds to what is left (a key without credits starts from 0). */
  addCredits?: number
  refill?: KeyRefill | null
  /** Written with refill: the period counted as refilled already. */
  refilledPeriod?: string | null
}

/** Units of credits left as the store holds them (none: the key has no credits). */
export function storedCredits (key: Pick<ApiKeyRecord, 'credits' | 'unitsTotal'>): number | null {
  return key.credits === null ? null : key.credits.base - (key.unitsTotal - key.credits.mark)
}

export interface ApiKeyRecord {
  id: number
  name: string
  /** The first characters of the key, shown in listings so operators can tell keys apart. */
  prefix: string
  /** SHA-256 of the key, hex. The key itself is never stored. */
  hash: string
  status: KeyStatus
  /** Where the key came from: the command line, API_KEYS, the first start, or the management API. */
  source: 'cli' | 'env' | 'bootstrap' | 'admin'
  limits: KeyLimits
  /**
   * The key's public link id (16 characters of base64url), the first part of every link it
   * signs (docs/links.md): not the key, its prefix or its row id.
   */
  linkId: string
  /**
   * Random per key, replaced by a roll: the key's link secret is derived from it and the
   * server's signing key (src/access/link-secrets.ts), so this column alone signs nothing.
   */
  linkSeed: string
  /** The storefront's customer id, or any label the operator groups keys by. */
  owner: string | null
  meta: KeyMeta | null
  /** Refused from then on (AUTH_KEY_EXPIRED); null: never. */
  expiresAt: Date | null
  /** Every unit the key was ever billed, as written by the usage store (migration 8). */
  unitsTotal: number
  /** Null: no credits (the key is not metered). */
  credits: KeyCredits | null
  /** The key's hash before its last roll, accepted until previousValidUntil. */
  previousHash: string | null
  previousValidUntil: Date | null
  createdAt: Date
  updatedAt: Date
}

export interface NewApiKey {
  name: string
  prefix: string
  hash: string
  source: ApiKeyRecord['source']
  limits?: Partial<KeyLimits>
  /** Made by the store when absent (src/store/link-ids.ts); a copy of an install keeps its own. */
  linkId?: string
  linkSeed?: string
  owner?: string | null
  meta?: KeyMeta | null
  expiresAt?: Date | null
  /** Prepaid units; absent: no credits. */
  credits?: number
  refill?: KeyRefill | null
  /** The period counted as refilled already (the current one, when the key is made). */
  refilledPeriod?: string | null
}

export interface KeyStore {
  /** Adds a key; throws StoreConflictError when the name or hash is taken. */
  create (key: NewApiKey): Promise<ApiKeyRecord>
  /** The key with this hash, or whose previous hash (before a roll) it is, whatever its grace. */
  findByHash (hash: string): Promise<ApiKeyRecord | undefined>
  findById (id: number): Promise<ApiKeyRecord | undefined>
  findByName (name: string): Promise<ApiKeyRecord | undefined>
  /** The key whose links carry this link id (GET /l/...). */
  findByLinkId (linkId: string): Promise<ApiKeyRecord | undefined>
  /** Gives a key a new link seed (its link secret changes; links signed before stop working). */
  rollLinkSeed (id: number): Promise<ApiKeyRecord | undefined>
  /** Keys by id ascending; every key without a filter. */
  list (filter?: KeyFilter): Promise<ApiKeyRecord[]>
  /** Changes a key in one update; undefined for an unknown id; StoreConflictError when a new name is taken. */
  update (id: number, patch: KeyPatch): Promise<ApiKeyRecord | undefined>
  /**
   * Gives a key a new hash (and prefix), keeping its id, limits, credits and usage; the
   * old hash stays findable as previousHash, valid until `previousValidUntil`.
   */
  roll (id: number, next: { hash: string, prefix: string, previousValidUntil: Date }): Promise<ApiKeyRecord | undefined>
  /**
   * The lazy refill: if the key has a refill and `period` (YYYY-MM-DD or YYYY-MM) is after
   * the one last refilled, raises what is left to the refill amount (never lowers it) in
   * one conditional update. The updated record, or undefined when there was nothing to do
   * (another instance did it first).
   */
  refill (id: number, period: string): Promise<ApiKeyRecord | undefined>
  /** Active keys whose expiry falls in [fromMs, toMs), soonest first (the webhooks' expiry sweep). */
  expiringBetween (fromMs: number, toMs: number): Promise<ApiKeyRecord[]>
  /** Changes a key's status; returns the updated record, or undefined if no key has that name. */
  setStatus (name: string, status: KeyStatus): Promise<ApiKeyRecord | undefined>
  /** Changes some of a key's limits; returns the updated record, or undefined if no key has that name. */
  setLimits (name: string, limits: Partial<KeyLimits>): Promise<ApiKeyRecord | undefined>
  /** Renames a key; undefined if no key has the old name; StoreConflictError when the new name is taken. */
  rename (name: string, newName: string): Promise<ApiKeyRecord | undefined>
  count (): Promise<number>
}

/** How long applied usage batch ids are remembered: far longer than any retry or spill waits. */
export const USAGE_BATCH_ID_DAYS = 30

/** Bounds that no UTC day (YYYY-MM-DD) falls outside: an open end of a usage range. */
export const FIRST_DAY = '0000-00-00'
export const LAST_DAY = '9999-99-99'

/** Requests and cost units counted for one key, one UTC day and one endpoint group. */
export interface UsageEntry {
  keyId: number
  /** UTC day, YYYY-MM-DD. */
  day: string
  group: string
  requests: number
  units: number
}

export interface UsageStore {
  /**
   * Adds counts (upsert: counts for the same key, day and group are summed). With a batch
   * id, the batch is applied at most once: a retry of a batch whose first write was applied
   * but whose reply was lost changes nothing (the ids are kept USAGE_BATCH_ID_DAYS).
   */
  add (entries: UsageEntry[], batchId?: string): Promise<void>
  /** Units used by a key since a UTC day (inclusive). */
  unitsSince (keyId: number, day: string): Promise<number>
  /**
   * Usage rows of one key (or all keys) from sinceDay to untilDay (UTC days, both
   * inclusive; absent: no bound), ordered by key, day and group. Reports read it through
   * src/account/usage-report.ts, so /me, `keys usage` and the usage export agree.
   */
  list (options: { keyId?: number, sinceDay?: string, untilDay?: string }): Promise<UsageEntry[]>
}

/** One gif of the catalog: a local file (named by its content hash) or an external URL. */
export interface GifRecord {
  /** Numeric, never reused: clients see it as a string. */
  id: number
  category: string
  /** SHA-256 of the content, hex; the local file is <hash>.gif. Null for external entries. */
  hash: string | null
  /** An external location (a CDN) instead of a local file; null for local files. */
  url: string | null
  size: number
  width: number
  height: number
  frames: number
  contentType: string
  addedAt: Date
  /** The anime (or other work) the gif comes from; null or absent: unknown. */
  animeName?: string | null
  /** Who made the gif, and where to find them. */
  artist?: string | null
  artistUrl?: string | null
  /** Where the gif was taken from. */
  sourceUrl?: string | null
  /** The gif's dominant colour, `#rrggbb` in lower case (src/gifs/gif-info.ts). */
  dominantColor?: string | null
  /** A perceptual hash, hex (written by the importer, for near-duplicates). */
  phash?: string | null
  /**
   * Hidden gifs are never picked and their files answer 404, but their rows stay until
   * removed: out of the category's dense positions and count (migration 6).
   */
  hidden: boolean
}

/** The fields of a gif that describe it and can be changed after it was added. */
export type GifAttribution = Pick<GifRecord, 'animeName' | 'artist' | 'artistUrl' | 'sourceUrl' | 'dominantColor' | 'phash'>

export type NewGif = Omit<GifRecord, 'id' | 'addedAt' | 'hidden'> & { addedAt?: Date }

/** Why a key reports a gif: the fixed list the schema's CHECK holds (migration 6). */
export const GIF_REPORT_REASONS = ['not_sfw', 'wrong_category', 'broken', 'duplicate', 'other'] as const
export type GifReportReason = typeof GIF_REPORT_REASONS[number]

export interface GifReport {
  id: number
  gifId: number
  /** The key that reported it; null once that key is gone. */
  keyId: number | null
  reason: GifReportReason
  createdAt: Date
  /** When the operator dismissed it (nothing wrong with the gif); null while open (migration 9). */
  dismissedAt: Date | null
}

/** Which reports a listing holds: those still open, the dismissed ones, or both. */
export type GifReportStatus = 'open' | 'dismissed' | 'all'

export interface GifCatalogStore {
  /**
   * Adds gifs to their categories, all or none. Throws StoreConflictError when a
   * category already holds the same content hash (or the same external URL).
   */
  add (gifs: NewGif[]): Promise<GifRecord[]>
  /** Removes a gif; resolves to the removed record, or undefined for an unknown id. */
  remove (id: number): Promise<GifRecord | undefined>
  /** Removes several gifs in one transaction; resolves to the removed records (unknown ids are skipped). */
  removeMany (ids: readonly number[]): Promise<GifRecord[]>
  get (id: number): Promise<GifRecord | undefined>
  /** Some entry with that content hash, a visible one if any (the file serving looks files up this way). */
  findByHash (hash: string): Promise<GifRecord | undefined>
  /** Whether a category already holds this hash (or external URL). */
  has (category: string, key: { hash?: string, url?: string }): Promise<boolean>
  /**
   * Random picks in constant time: `choose` receives the category's size and returns
   * positions in 0..count-1; the store answers the entries at those positions, from one
   * consistent snapshot. An empty category gives an empty list without calling `choose`.
   */
  pick (category: string, choose: (count: number) => number[]): Promise<GifRecord[]>
  /**
   * The entry at position floor(fraction × count) of the category, fraction in [0, 1):
   * one uniformly random gif in one indexed lookup. Undefined for an empty category.
   */
  pickOne (category: string, fraction: number): Promise<GifRecord | undefined>
  /**
   * A category's count and change counter: `version` grows with every add or remove
   * in the category (migration 4), so a cache of its entries can tell, in one cheap
   * query, whether they are still current. `{ count: 0, version: 0 }` for a category
   * never written to.
   */
  categoryState (category: string): Promise<{ count: number, version: number }>
  /** Gifs by id, hidden ones included, with every field (phash too: near-duplicate search reads it). */
  list (options?: { category?: string, limit?: number, afterId?: number }): Promise<GifRecord[]>
  /** Number of visible gifs per category (categories with none are absent). */
  counts (): Promise<Record<string, number>>
  /** All content hashes the catalog refers to, hidden gifs' included (for cleaning orphan files). */
  hashes (): Promise<Set<string>>
  /**
   * Takes a gif out of its category's picks without deleting it: the category's last
   * entry takes its position, the count drops and the version rises. The record as it
   * is now (already hidden: unchanged), or undefined for an unknown id.
   */
  hide (id: number): Promise<GifRecord | undefined>
  /** Puts a hidden gif back at the end of its category's positions (the version rises). */
  unhide (id: number): Promise<GifRecord | undefined>
  /**
   * Changes a gif's attribution fields: undefined leaves a field as it is, null clears it.
   * The category's version rises (cached records carry these fields). Undefined for an unknown id.
   */
  setAttribution (id: number, fields: GifAttribution): Promise<GifRecord | undefined>
  /** Records a report; undefined when the gif does not exist. */
  report (report: { gifId: number, keyId: number | null, reason: GifReportReason, at?: Date }): Promise<GifReport | undefined>
  /** Reports in the order they were made, of one gif or all; open and dismissed alike unless `status` says which. */
  reports (options?: { gifId?: number, afterId?: number, limit?: number, status?: GifReportStatus }): Promise<GifReport[]>
  /** Marks a report dismissed (kept, out of the open queue); the report as it is now, undefined for an unknown id. */
  dismissReport (id: number, at?: Date): Promise<GifReport | undefined>
}

/**
 * A minted link whose request is too long for a short URL (docs/links.md): the link reads
 * /m/{id} in place of the request, and the request is kept here.
 */
export interface MintedLink {
  /** 22 characters of base64url of a SHA-256 of the key and the request: the same request minted twice is one row. */
  id: string
  keyId: number
  /** The request as a link target: path and query, a JSON body as ?body=base64url. */
  target: string
  createdAt: Date
}

export interface MintedLinkStore {
  /** Keeps a minted link; a row with the same id already there stays as it is. */
  save (link: Omit<MintedLink, 'createdAt'>): Promise<void>
  get (id: string): Promise<MintedLink | undefined>
}

/** What an operator token may reach of the management API (docs/admin-api.md). */
export const ADMIN_SCOPES = ['keys', 'usage', 'gifs'] as const
export type AdminScope = typeof ADMIN_SCOPES[number]

/** A token of the management API (/admin/v1/), never an API key: stored as its SHA-256, like keys. */
export interface OperatorToken {
  id: number
  name: string
  /** The first characters of the token, for listings. */
  prefix: string
  hash: string
  scopes: AdminScope[]
  status: 'active' | 'revoked'
  createdAt: Date
  lastUsedAt: Date | null
}

/** One change made through the management API or the admin CLI: who, what, when, from where. */
export interface AuditEntry {
  id: number
  at: Date
  /** "token:NAME", "ADMIN_TOKEN" or "cli". */
  actor: string
  /** "key.create", "gif.hide", "token.revoke", ... */
  action: string
  /** What was changed: "key:12", "gif:7", "token:shop". */
  target: string | null
  details: Record<string, unknown> | null
  /** The client address of an HTTP change; null from the command line. */
  address: string | null
}

/**
 * An Idempotency-Key seen on POST /admin/v1/keys, per operator: the body it came with, the
 * key it made and the answer, encrypted (src/admin/idempotency.ts), until it is forgotten.
 */
export interface IdempotencyRecord {
  actor: string
  key: string
  bodyHash: string
  /** Null while the first request is still making the key. */
  keyId: number | null
  /** The first answer, encrypted; null once older than the time answers are kept. */
  answer: string | null
  createdAt: Date
}

export interface AdminStore {
  /** Throws StoreConflictError when the name or hash is taken. */
  createToken (token: { name: string, prefix: string, hash: string, scopes: AdminScope[] }): Promise<OperatorToken>
  findTokenByHash (hash: string): Promise<OperatorToken | undefined>
  listTokens (): Promise<OperatorToken[]>
  /** Revokes a token by name; undefined if none has it. */
  revokeToken (name: string): Promise<OperatorToken | undefined>
  /** Active tokens: none (and no ADMIN_TOKEN) means the management API answers 404 throughout. */
  activeTokenCount (): Promise<number>
  touchToken (id: number, at: Date): Promise<void>
  appendAudit (entry: Omit<AuditEntry, 'id'>): Promise<AuditEntry>
  /** Newest first, below `beforeId` when given. */
  auditEntries (options: { beforeId?: number, limit: number, action?: string }): Promise<AuditEntry[]>
  /**
   * Claims an idempotency key for a request: undefined when this call claimed it (the
   * caller makes the key, then completes or releases), else the record already there.
   */
  claimIdempotency (record: { actor: string, key: string, bodyHash: string, at: Date }): Promise<IdempotencyRecord | undefined>
  completeIdempotency (actor: string, key: string, keyId: number, answer: string | null): Promise<void>
  releaseIdempotency (actor: string, key: string): Promise<void>
  /** Drops the encrypted answers made before `before` (their key ids stay); the number dropped. */
  forgetAnswers (before: Date): Promise<number>
}

export interface Store {
  readonly kind: string
  readonly keys: KeyStore
  readonly usage: UsageStore
  readonly gifs: GifCatalogStore
  /** Minted links stored server-side (POST /links, when the link would be long). */
  readonly links: MintedLinkStore
  /** Operator tokens, the audit log and idempotency keys of the management API (src/admin/). */
  readonly admin: AdminStore
  /** The gifs' bytes (src/store/gif-files.ts): DATA_DIR/gifs, plus a shared table in PostgreSQL. */
  readonly gifFiles: GifFileStore
  /** Resolves when the store answers a trivial query (readiness). */
  ping (): Promise<void>
  /**
   * The database's own state for readiness, where the backend can tell more than a ping:
   * SQLite reports whether the file it has open is still the one at its path.
   */
  readonly database?: () => DatabaseState
  close (): Promise<void>
}

export interface DatabaseState {
  state: 'ok' | 'down'
  /** The database file and its identity (SQLite). */
  path?: string
  device?: number
  inode?: number
  /** What is wrong, when down. */
  problem?: string
}

export class StoreConflictError extends Error {
  constructor (readonly field: string, message: string) {
    super(message)
    this.name = 'StoreConflictError'
  }
}

/**
 * The store did not answer in time or could not be reached (a refused or reset
 * connection, a timeout, too many calls already waiting for a connection): nothing is
 * wrong with the request, and the same call may succeed a moment later. The error
 * handler answers it 503 STORE_UNAVAILABLE with Retry-After; the caches in front of the
 * store (cached-keys.ts, cached-gifs.ts) answer from memory instead where they can.
 */
export class StoreUnavailableError extends Error {
  constructor (message: string, readonly retryAfterSeconds: number, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'StoreUnavailableError'
  }
}

export function isStoreUnavailable (err: unknown): err is StoreUnavailableError {
  return err instanceof StoreUnavailableError
}

/**
 * Exit code of a server or command line that cannot reach its store when it starts
 * (sysexits.h EX_UNAVAILABLE): PostgreSQL refused, reset or did not answer the first
 * connection. Said in one sentence naming DATABASE_URL (docs/operations-faults.md).
 */
export const EXIT_STORE_UNAVAILABLE = 69

/** A start refused before the store opened: one sentence for the operator and the exit code. */
export class DatabaseStartError extends Error {
  constructor (message: string, readonly exitCode: number) {
    super(message)
    this.name = 'DatabaseStartError'
  }
}
