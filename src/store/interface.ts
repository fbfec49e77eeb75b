// Storage behind small interfaces: one definition here, one file per backend
// (src/store/sqlite/ by default). Features receive a Store and never see SQL.

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

export interface ApiKeyRecord {
  id: number
  name: string
  /** The first characters of the key, shown in listings so operators can tell keys apart. */
  prefix: string
  /** SHA-256 of the key, hex. The key itself is never stored. */
  hash: string
  status: KeyStatus
  /** Where the key came from: the command line, API_KEYS, or the first start. */
  source: 'cli' | 'env' | 'bootstrap'
  limits: KeyLimits
  createdAt: Date
  updatedAt: Date
}

export interface NewApiKey {
  name: string
  prefix: string
  hash: string
  source: ApiKeyRecord['source']
  limits?: Partial<KeyLimits>
}

export interface KeyStore {
  /** Adds a key; throws StoreConflictError when the name or hash is taken. */
  create (key: NewApiKey): Promise<ApiKeyRecord>
  findByHash (hash: string): Promise<ApiKeyRecord | undefined>
  findByName (name: string): Promise<ApiKeyRecord | undefined>
  list (): Promise<ApiKeyRecord[]>
  /** Changes a key's status; returns the updated record, or undefined if no key has that name. */
  setStatus (name: string, status: KeyStatus): Promise<ApiKeyRecord | undefined>
  /** Changes some of a key's limits; returns the updated record, or undefined if no key has that name. */
  setLimits (name: string, limits: Partial<KeyLimits>): Promise<ApiKeyRecord | undefined>
  count (): Promise<number>
}

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
  /** Adds counts (upsert: counts for the same key, day and group are summed). */
  add (entries: UsageEntry[]): Promise<void>
  /** Units used by a key since a UTC day (inclusive). */
  unitsSince (keyId: number, day: string): Promise<number>
  /** Usage rows of one key (or all keys) since a day, for reports. */
  list (options: { keyId?: number, sinceDay?: string }): Promise<UsageEntry[]>
}

export interface Store {
  readonly kind: string
  readonly keys: KeyStore
  readonly usage: UsageStore
  /** Resolves when the store answers a trivial query (readiness). */
  ping (): Promise<void>
  close (): Promise<void>
}

export class StoreConflictError extends Error {
  constructor (readonly field: string, message: string) {
    super(message)
    this.name = 'StoreConflictError'
  }
}
