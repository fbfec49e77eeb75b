// API keys: made here, stored only as a SHA-256 hash, looked up by that hash.
// Keys are 192 random bits, so a fast hash is enough (no password stretching needed:
// there is nothing to brute-force), and lookups stay cheap on the hot path.
import { hash, randomBytes } from 'node:crypto'
import { AppError } from '../errors.js'
import type { ApiKeyRecord, KeyLimits, KeyStatus, KeyStore } from '../store/interface.js'
import { StoreConflictError } from '../store/interface.js'

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

/**
 * True when a key's rate limit is OPERATOR_KEY_LIMITS': the machine's capacity is its only
 * bound, and it is shown as "capacity" rather than a rate nobody chose (issue 39 item 7:
 * `keys list` printed 1000000/1 minute where the README says only capacity limits it).
 * The stored value stays a rate, so the limiter needs no second path and /me still
 * answers an integer.
 */
export function limitedByCapacityOnly (limits: Pick<KeyLimits, 'rateMax' | 'rateWindowMs'>): boolean {
  return limits.rateMax === OPERATOR_KEY_LIMITS.rateMax && limits.rateWindowMs === OPERATOR_KEY_LIMITS.rateWindowMs
}

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

export type KeyService = ReturnType<typeof createKeyService>

export function createKeyService (store: KeyStore) {
  async function create (name: string, source: ApiKeyRecord['source'] = 'cli', limits?: Partial<KeyLimits>): Promise<CreatedKey> {
    if (!KEY_NAME_PATTERN.test(name)) {
      throw new KeyError(invalidName(name))
    }
    // A revoked key's name is free again: the revoked record steps aside under a derived
    // name, keeping its usage history and its hash (the old key stays refused as revoked).
    const holder = await store.findByName(name)
    if (holder?.status === 'revoked') await store.rename(name, retiredName(name, holder.id))
    const key = generateKey()
    try {
      const record = await store.create({ name, prefix: shownPrefix(key), hash: hashKey(key), source, ...(limits === undefined ? {} : { limits }) })
      return { key, record }
    } catch (err) {
      if (err instanceof StoreConflictError) throw new KeyError(err.message)
      throw err
    }
  }

  async function setStatus (name: string, status: KeyStatus): Promise<ApiKeyRecord> {
    const current = await store.findByName(name)
    if (!current) throw new KeyError(`No key named "${name}": see "keys list"`)
    if (current.status === 'revoked' && status !== 'revoked') {
      throw new KeyError(`Key "${name}" is revoked; a revoked key cannot be used again: create a new one`)
    }
    return (await store.setStatus(name, status))!
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
    return usable(await store.findByHash(hashKey(key)))
  }

  /** The key record with this hash: a link's replay, which names its key by hash (src/access/internal-credential.ts). */
  async function authenticateHash (hash: string): Promise<ApiKeyRecord> {
    return usable(await store.findByHash(hash))
  }

  function usable (record: ApiKeyRecord | undefined): ApiKeyRecord {
    if (!record) throw new AppError('AUTH_UNKNOWN_KEY')
    if (record.status === 'disabled') throw new AppError('AUTH_KEY_DISABLED')
    if (record.status === 'revoked') throw new AppError('AUTH_KEY_REVOKED')
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
