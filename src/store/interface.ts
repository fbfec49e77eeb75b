// Storage behind small interfaces: one definition here, one file per backend
// (src/store/sqlite/ by default). Features receive a Store and never see SQL.

export type KeyStatus = 'active' | 'disabled' | 'revoked'

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
  createdAt: Date
  updatedAt: Date
}

export interface NewApiKey {
  name: string
  prefix: string
  hash: string
  source: ApiKeyRecord['source']
}

export interface KeyStore {
  /** Adds a key; throws StoreConflictError when the name or hash is taken. */
  create (key: NewApiKey): Promise<ApiKeyRecord>
  findByHash (hash: string): Promise<ApiKeyRecord | undefined>
  findByName (name: string): Promise<ApiKeyRecord | undefined>
  list (): Promise<ApiKeyRecord[]>
  /** Changes a key's status; returns the updated record, or undefined if no key has that name. */
  setStatus (name: string, status: KeyStatus): Promise<ApiKeyRecord | undefined>
  count (): Promise<number>
}

export interface Store {
  readonly kind: string
  readonly keys: KeyStore
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
