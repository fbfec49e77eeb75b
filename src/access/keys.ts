// API keys: made here, stored only as a SHA-256 hash, looked up by that hash.
// Keys are 192 random bits, so a fast hash is enough (no password stretching needed:
// there is nothing to brute-force), and lookups stay cheap on the hot path.
import { hash, randomBytes } from 'node:crypto'
import { AppError } from '../errors.js'
import type { ApiKeyRecord, KeyLimits, KeyMeta, KeyPatch, KeyRefill, KeyStatus, KeyStatusFilter, KeyStore } from '../store/interface.js'
import { StoreConflictError } from '../store/interface.js'
import { type AccessEvents, NO_ACCESS_EVENTS } from './events.js'
import { periodLabel } from './usage-recorder.js'

export const KEY_PREFIX = 'um_'
const KEY_RANDOM_BYTES = 24
/** Characters of the key kept in clear for listings: the prefix and four more. */
const SHOWN_PREFIX_LENGTH = KEY_PREFIX.length + 4
/** Longest Authorization value we hash; anything longer cannot be one of our keys. */
export const MAX_KEY_LENGTH = 512
export const KEY_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
/**
 * The rate limit of the key made at first start, the operator's: far above what a 2-core
 * machine serves (about 2,400 pictures, 12,000 units, a minute), so the machine's capacity
 * (src/work/scheduler.ts) is its only bound. Keys the operator hands out get RATE_LIMIT_MAX.
 */
export const OPERATOR_KEY_LIMITS: Partial<KeyLimits> = { rateMax: 1_000_000, rateWindowMs: 60_000 }

export function generateKey (): string {
  return KEY_PREFIX + randomBytes(KEY_RANDOM_BYTES).toString('base64url')
}

export function hashKey (key: string): string {
  return hash('sha256', key, 'hex')
}

export function shownPrefix (key: string): string {
  return key.slice(0, SHOWN_PREFIX_LENGTH)
}

const visible = (code: number): boolean => code > 0x20 && code < 0x7f

/**
 * The key from an Authorization header value: the bare key (as every existing client
 * sends it), or "Bearer <key>" (docs/compatibility.md, "Keys").
 */
export function keyFromHeader (value: string): string {
  // The common case first: a bare key, nothing around it, not starting with "b".
  const first = value.charCodeAt(0)
  if (visible(first) && first !== 0x62 && first !== 0x42 && visible(value.charCodeAt(value.length - 1))) return value
  const trimmed = value.trim()
  const m = /^bearer\s+(.*)$/i.exec(trimmed)
  return (m ? m[1]! : trimmed).trim()
}

export class KeyError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'KeyError'
  }
}

export function invalidName (name: string): string {
  return `Invalid key name "${name}": use 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit`
}

/** The name a revoked key moves to when its name is given to a new key: NAME.revoked-ID, within 64 characters. */
function retiredName (name: string, id: number): string {
  const suffix = `.revoked-${id}`
  return name.slice(0, 64 - suffix.length) + suffix
}

export interface CreatedKey {
  key: string
  record: ApiKeyRecord
}

/** Bounds of what an operator sets on a key (the admin API and the CLI check the same). */
export const KEY_OWNER_MAX_LENGTH = 128
/** A key's meta as JSON text, at most this many bytes: a label, not a document store. */
export const KEY_META_MAX_BYTES = 4096
/** Credits and refills are whole units up to this (far beyond any sale, within 2^53). */
export const MAX_CREDITS = 1_000_000_000_000
/** The longest grace a rolled key's old secret may keep (7 days). */
export const MAX_ROLL_GRACE_SECONDS = 604_800
/** Keys one page of a listing holds at most, and by default. */
export const MAX_PAGE_SIZE = 200
export const DEFAULT_PAGE_SIZE = 50

/** What a new key may carry beyond its name. */
export interface NewKeyOptions {
  /** Made when absent: key-<8 hex digits>. */
  name?: string
  source?: ApiKeyRecord['source']
  owner?: string | null
  meta?: KeyMeta | null
  limits?: Partial<KeyLimits>
  /** Prepaid units; absent: none (or the refill amount when a refill is given). */
  credits?: number
  refill?: KeyRefill | null
  expiresAt?: Date | null
}

/** A change to a key; absent fields stay as they are. */
export interface KeyUpdate {
  name?: string
  owner?: string | null
  meta?: KeyMeta | null
  limits?: Partial<KeyLimits>
  /** Sets what is left (null: no credits, not metered). */
  credits?: number | null
  /** Adds to what is left. */
  addCredits?: number
  refill?: KeyRefill | null
  expiresAt?: Date | null
  status?: 'active' | 'disabled'
}

/** A key's status as an operator reads it: an active key past its expiry is `expired`. */
export function keyStatus (record: ApiKeyRecord, now = Date.now()): KeyStatusFilter {
  return record.status === 'active' && record.expiresAt !== null && record.expiresAt.getTime() <= now ? 'expired' : record.status
}

function checkCount (what: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min || value > MAX_CREDITS) throw new KeyError(`${what} must be a whole number from ${min} to ${MAX_CREDITS}, got ${value}`)
}

function checkOptions (o: { owner?: string | null, meta?: KeyMeta | null, credits?: number | null, addCredits?: number, refill?: KeyRefill | null, expiresAt?: Date | null }): void {
  if (o.owner != null && (o.owner.length < 1 || o.owner.length > KEY_OWNER_MAX_LENGTH || /[\x00-\x1f\x7f]/.test(o.owner))) {
    throw new KeyError(`owner must be 1 to ${KEY_OWNER_MAX_LENGTH} characters with no control characters`)
  }
  if (o.meta != null) {
    if (typeof o.meta !== 'object' || Array.isArray(o.meta)) throw new KeyError('meta must be a JSON object')
    const bytes = Buffer.byteLength(JSON.stringify(o.meta))
    if (bytes > KEY_META_MAX_BYTES) throw new KeyError(`meta must be at most ${KEY_META_MAX_BYTES} bytes as JSON, got ${bytes}`)
  }
  if (o.credits != null) checkCount('credits', o.credits, 0)
  if (o.addCredits !== undefined) checkCount('add_credits', o.addCredits, 1)
  if (o.refill != null) {
    checkCount('The refill amount', o.refill.amount, 1)
    if (o.refill.period !== 'day' && o.refill.period !== 'month') throw new KeyError(`The refill period must be day or month, got "${String(o.refill.period)}"`)
  }
  if (o.expiresAt != null && Number.isNaN(o.expiresAt.getTime())) throw new KeyError('expires_at must be a date and time (ISO 8601)')
}

export interface KeyServiceOptions {
  /** Told of a key refused for its expiry (src/access/events.ts). */
  events?: AccessEvents
  /** The clock expiry and roll graces are decided by (tests set their own). */
  now?: () => number
  /**
   * Told of every change made here (credits, refill, status…): the credits ledger
   * (src/access/credits.ts) reads the key again at once rather than at its next refresh.
   */
  onChange?: (record: ApiKeyRecord) => void
}

/** Keys already announced expired by this process: one event per key, not one per refused request. */
const MAX_EXPIRED_NOTED = 10_000

export type KeyService = ReturnType<typeof createKeyService>

export function createKeyService (store: KeyStore, options: KeyServiceOptions = {}) {
  const events = options.events ?? NO_ACCESS_EVENTS
  const clock = options.now ?? Date.now
  const changed = (record: ApiKeyRecord): ApiKeyRecord => {
    options.onChange?.(record)
    return record
  }
  const expiredNoted = new Set<number>()

  async function create (name: string, source: ApiKeyRecord['source'] = 'cli', limits?: Partial<KeyLimits>): Promise<CreatedKey> {
    return await createWith({ name, source, ...(limits === undefined ? {} : { limits }) })
  }

  async function createWith (o: NewKeyOptions): Promise<CreatedKey> {
    const name = o.name ?? `key-${randomBytes(4).toString('hex')}`
    if (!KEY_NAME_PATTERN.test(name)) {
      throw new KeyError(invalidName(name))
    }
    checkOptions(o)
    // A revoked key's name is free again: the revoked record steps aside under a derived
    // name, keeping its usage history and its hash (the old key stays refused as revoked).
    const holder = await store.findByName(name)
    if (holder?.status === 'revoked') await store.rename(name, retiredName(name, holder.id))
    const key = generateKey()
    try {
      const record = await store.create({
        name,
        prefix: shownPrefix(key),
        hash: hashKey(key),
        source: o.source ?? 'cli',
        ...(o.limits === undefined ? {} : { limits: o.limits }),
        owner: o.owner ?? null,
        meta: o.meta ?? null,
        expiresAt: o.expiresAt ?? null,
        ...(o.credits === undefined ? {} : { credits: o.credits }),
        refill: o.refill ?? null,
        // The first grant is this period's: the first refill comes with the next one.
        refilledPeriod: o.refill ? periodLabel(o.refill.period, clock()) : null
      })
      return { key, record }
    } catch (err) {
      if (err instanceof StoreConflictError) throw new KeyError(err.message)
      throw err
    }
  }

  /**
   * Changes a key in one atomic update: undefined for an unknown id. Credits: `credits`
   * sets what is left, `addCredits` adds to it (not both); a refill given to a key without
   * credits starts it at the refill amount.
   */
  async function update (id: number, u: KeyUpdate): Promise<ApiKeyRecord | undefined> {
    checkOptions(u)
    if (u.credits !== undefined && u.addCredits !== undefined) throw new KeyError('Give either credits (sets what is left) or add_credits (adds to it), not both')
    if (u.name !== undefined && !KEY_NAME_PATTERN.test(u.name)) throw new KeyError(invalidName(u.name))
    const current = await store.findById(id)
    if (!current) return undefined
    if (current.status === 'revoked' && u.status !== undefined) {
      throw new KeyError(`Key "${current.name}" is revoked; a revoked key cannot be used again: create a new one`)
    }
    const patch: KeyPatch = {}
    if (u.name !== undefined && u.name !== current.name) {
      const holder = await store.findByName(u.name)
      if (holder?.status === 'revoked') await store.rename(u.name, retiredName(u.name, holder.id))
      patch.name = u.name
    }
    if (u.owner !== undefined) patch.owner = u.owner
    if (u.meta !== undefined) patch.meta = u.meta
    if (u.limits !== undefined) patch.limits = u.limits
    if (u.status !== undefined) patch.status = u.status
    if (u.expiresAt !== undefined) patch.expiresAt = u.expiresAt
    if (u.credits !== undefined) patch.credits = u.credits
    if (u.addCredits !== undefined) patch.addCredits = u.addCredits
    if (u.refill !== undefined) {
      patch.refill = u.refill
      patch.refilledPeriod = u.refill === null ? null : periodLabel(u.refill.period, clock())
      if (u.refill !== null && current.credits === null && u.credits === undefined && u.addCredits === undefined) patch.credits = u.refill.amount
    }
    try {
      const record = await store.update(id, patch)
      return record && changed(record)
    } catch (err) {
      if (err instanceof StoreConflictError) throw new KeyError(err.message)
      throw err
    }
  }

  /** Refuses a key for good (DELETE in the admin API); undefined for an unknown id. */
  async function revokeById (id: number): Promise<ApiKeyRecord | undefined> {
    const current = await store.findById(id)
    if (!current || current.status === 'revoked') return current
    const record = await store.update(id, { status: 'revoked' })
    return record && changed(record)
  }

  /** The same by name (the command line): KeyError for an unknown name. */
  async function updateByName (name: string, u: KeyUpdate): Promise<ApiKeyRecord> {
    const current = await store.findByName(name)
    if (!current) throw new KeyError(`No key named "${name}": see "keys list"`)
    return (await update(current.id, u))!
  }

  /**
   * A new secret for the same key: its id, name, limits, credits and usage stay. The old
   * secret keeps working `graceSeconds` more (0: refused at once), then is refused with
   * AUTH_KEY_ROLLED. Undefined for an unknown id.
   */
  async function roll (id: number, graceSeconds: number): Promise<CreatedKey | undefined> {
    if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_ROLL_GRACE_SECONDS) {
      throw new KeyError(`The grace must be a whole number of seconds from 0 to ${MAX_ROLL_GRACE_SECONDS} (7 days), got ${graceSeconds}`)
    }
    const current = await store.findById(id)
    if (!current) return undefined
    if (current.status === 'revoked') throw new KeyError(`Key "${current.name}" is revoked: create a new one`)
    const key = generateKey()
    const record = await store.roll(id, { hash: hashKey(key), prefix: shownPrefix(key), previousValidUntil: new Date(clock() + graceSeconds * 1000) })
    return record && { key, record: changed(record) }
  }

  async function rollByName (name: string, graceSeconds: number): Promise<CreatedKey> {
    const current = await store.findByName(name)
    if (!current) throw new KeyError(`No key named "${name}": see "keys list"`)
    return (await roll(current.id, graceSeconds))!
  }

  /**
   * One page of keys, ids ascending: `cursor` is the previous page's nextCursor, which is
   * null on the last page.
   */
  async function page (filter: { owner?: string, name?: string, status?: KeyStatusFilter, limit?: number, cursor?: string | null }): Promise<{ keys: ApiKeyRecord[], nextCursor: string | null }> {
    const limit = filter.limit ?? DEFAULT_PAGE_SIZE
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw new KeyError(`limit must be a whole number from 1 to ${MAX_PAGE_SIZE}, got ${limit}`)
    let afterId: number | undefined
    if (filter.cursor != null && filter.cursor !== '') {
      afterId = Number(filter.cursor)
      if (!/^[0-9]{1,15}$/.test(filter.cursor)) throw new KeyError('cursor is not one this listing made: pass next_cursor as it was answered')
    }
    // One more than asked tells whether another page follows.
    const keys = await store.list({
      ...(filter.owner === undefined ? {} : { owner: filter.owner }),
      ...(filter.name === undefined ? {} : { name: filter.name }),
      ...(filter.status === undefined ? {} : { status: filter.status }),
      ...(afterId === undefined ? {} : { afterId }),
      limit: limit + 1,
      now: clock()
    })
    const more = keys.length > limit
    if (more) keys.length = limit
    return { keys, nextCursor: more ? String(keys[keys.length - 1]!.id) : null }
  }

  async function setStatus (name: string, status: KeyStatus): Promise<ApiKeyRecord> {
    const current = await store.findByName(name)
    if (!current) throw new KeyError(`No key named "${name}": see "keys list"`)
    if (current.status === 'revoked' && status !== 'revoked') {
      throw new KeyError(`Key "${name}" is revoked; a revoked key cannot be used again: create a new one`)
    }
    return changed((await store.setStatus(name, status))!)
  }

  /**
   * The key record a header value names, or the catalogue error saying why not. Every
   * request comes through here; the store in front (store/cached-keys.ts) answers known
   * keys from memory. The look-up is by the presented key's SHA-256: timing can tell an
   * attacker at most how much of a hash matched, which says nothing of a key.
   */
  async function authenticate (header: string | undefined): Promise<ApiKeyRecord> {
    if (header === undefined) throw new AppError('AUTH_MISSING')
    const key = keyFromHeader(header)
    if (key.length > MAX_KEY_LENGTH) throw new AppError('AUTH_UNKNOWN_KEY')
    // A key never reads "bearer" (keys made here start with um_; API_KEYS are checked).
    if (key === '' || (key.length === 6 && key.toLowerCase() === 'bearer')) throw new AppError('AUTH_EMPTY')
    const hash = hashKey(key)
    return usable(await store.findByHash(hash), hash)
  }

  /** The key record with this hash: a link's replay, which names its key by hash (src/access/internal-credential.ts). */
  async function authenticateHash (hash: string): Promise<ApiKeyRecord> {
    return usable(await store.findByHash(hash), hash)
  }

  function usable (record: ApiKeyRecord | undefined, hash: string): ApiKeyRecord {
    if (!record) throw new AppError('AUTH_UNKNOWN_KEY')
    if (record.status === 'disabled') throw new AppError('AUTH_KEY_DISABLED')
    if (record.status === 'revoked') throw new AppError('AUTH_KEY_REVOKED')
    const now = clock()
    // The secret a roll replaced: accepted until its grace ends.
    if (record.hash !== hash && record.previousValidUntil !== null && record.previousValidUntil.getTime() <= now) {
      throw new AppError('AUTH_KEY_ROLLED')
    }
    if (record.expiresAt !== null && record.expiresAt.getTime() <= now) {
      if (!expiredNoted.has(record.id)) {
        if (expiredNoted.size >= MAX_EXPIRED_NOTED) expiredNoted.clear()
        expiredNoted.add(record.id)
        events.emit({ type: 'key.expired', key: record, expiredAt: record.expiresAt.getTime() })
      }
      throw new AppError('AUTH_KEY_EXPIRED', `This API key expired at ${record.expiresAt.toISOString()}: ask the operator to renew it`)
    }
    return record
  }

  /**
   * Adds the API_KEYS keys that the store does not hold yet, named env-<prefix>.
   * A key already there keeps its status: revoking an env key sticks across restarts.
   */
  async function addEnvKeys (keys: string[]): Promise<number> {
    let added = 0
    for (const key of keys) {
      const hash = hashKey(key)
      if (await store.findByHash(hash)) continue
      let name = `env-${hash.slice(0, 8)}`
      if (await store.findByName(name)) name = `env-${hash.slice(0, 16)}`
      await store.create({ name, prefix: shownPrefix(key), hash, source: 'env' })
      added++
    }
    return added
  }

  async function rename (name: string, newName: string): Promise<ApiKeyRecord> {
    if (!KEY_NAME_PATTERN.test(newName)) throw new KeyError(invalidName(newName))
    try {
      const record = await store.rename(name, newName)
      if (!record) throw new KeyError(`No key named "${name}": see "keys list"`)
      return record
    } catch (err) {
      if (err instanceof StoreConflictError) throw new KeyError(err.message)
      throw err
    }
  }

  /**
   * On a store with no key at all, makes one so a newcomer can call the API at once. It is
   * the operator's: limited by what the machine serves (the scheduler), not by the rate
   * limit meant for the keys the operator hands out.
   */
  async function createInitialKeyIfNone (): Promise<CreatedKey | undefined> {
    if (await store.count() > 0) return undefined
    try {
      return await create('default', 'bootstrap', OPERATOR_KEY_LIMITS)
    } catch (err) {
      // Another instance starting at the same moment made it first.
      if (err instanceof KeyError) return undefined
      throw err
    }
  }

  return {
    create,
    createWith,
    update,
    updateByName,
    roll,
    rollByName,
    page,
    findById: (id: number) => store.findById(id),
    expiringBetween: (fromMs: number, toMs: number) => store.expiringBetween(fromMs, toMs),
    revokeById,
    list: () => store.list(),
    find: (name: string) => store.findByName(name),
    disable: (name: string) => setStatus(name, 'disabled'),
    enable: (name: string) => setStatus(name, 'active'),
    revoke: (name: string) => setStatus(name, 'revoked'),
    rename,
    authenticate,
    authenticateHash,
    addEnvKeys,
    createInitialKeyIfNone
  }
}
