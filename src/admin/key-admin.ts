// What the management API does to keys, over the KeyService (src/access/keys.ts): the
// routes speak HTTP, this speaks records. Names, limits and statuses as the CLI changes them.
import { randomBytes } from 'node:crypto'
import { AppError } from '../errors.js'
import { KeyError, type KeyService } from '../access/keys.js'
import type { ApiKeyRecord, KeyLimits, KeyStore } from '../store/interface.js'

export interface KeyFilter { owner?: string, name?: string, status?: string }

export interface KeyChanges {
  name?: string
  owner?: string | null
  meta?: Record<string, unknown> | null
  rate?: { max: number, window_seconds: number } | null
  quota?: { max: number, period: 'day' | 'month' } | null
  credits?: number | null
  add_credits?: number
  refill?: { amount: number, period: 'day' | 'month' } | null
  expires_at?: string | null
  status?: 'active' | 'disabled'
}

export function limitsOf (changes: Pick<KeyChanges, 'rate' | 'quota'>): Partial<KeyLimits> {
  const limits: Partial<KeyLimits> = {}
  if (changes.rate !== undefined) {
    limits.rateMax = changes.rate?.max ?? null
    limits.rateWindowMs = changes.rate === null ? null : changes.rate.window_seconds * 1000
  }
  if (changes.quota !== undefined) {
    limits.quotaMax = changes.quota?.max ?? null
    limits.quotaPeriod = changes.quota?.period ?? null
  }
  return limits
}

/** A name for a key created without one: from the owner when it makes a valid name, else random. */
export function nameFor (owner: string | null | undefined): string {
  const suffix = randomBytes(4).toString('hex')
  const base = (owner ?? '').replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 48)
  return base === '' ? `key-${suffix}` : `${base}-${suffix}`
}

const invalid = (err: unknown): never => {
  if (err instanceof KeyError) {
    if (/exists|taken|already/i.test(err.message)) throw new AppError('ADMIN_KEY_CONFLICT', err.message)
    throw new AppError('ADMIN_KEY_INVALID', err.message)
  }
  throw err
}

export type KeyAdmin = ReturnType<typeof createKeyAdmin>

export function createKeyAdmin (keys: KeyService, store: KeyStore) {
  async function get (id: number): Promise<ApiKeyRecord> {
    const record = (await keys.list()).find((k) => k.id === id)
    if (record === undefined) throw new AppError('ADMIN_KEY_NOT_FOUND', `No key has the id ${id}: ids come from GET /admin/v1/keys`)
    return record
  }

  function unsupported (changes: KeyChanges): void {
    for (const field of ['owner', 'meta', 'credits', 'add_credits', 'refill', 'expires_at'] as const) {
      if (changes[field] !== undefined && changes[field] !== null) throw new AppError('ADMIN_KEY_INVALID', `"${field}" is not supported by this server yet`)
    }
  }

  return {
    get,
    async list (filter: KeyFilter): Promise<ApiKeyRecord[]> {
      return (await keys.list())
        .filter((k) => (filter.name === undefined || k.name === filter.name) && (filter.status === undefined || k.status === filter.status) && filter.owner === undefined)
        .sort((a, b) => a.id - b.id)
    },
    async create (changes: KeyChanges): Promise<{ key: string, record: ApiKeyRecord }> {
      unsupported(changes)
      try {
        return await keys.create(changes.name ?? nameFor(changes.owner), 'admin', limitsOf(changes))
      } catch (err) {
        return invalid(err)
      }
    },
    async update (id: number, changes: KeyChanges): Promise<ApiKeyRecord> {
      unsupported(changes)
      let record = await get(id)
      if (record.status === 'revoked') throw new AppError('ADMIN_KEY_INVALID', `Key ${id} is revoked: a revoked key cannot be changed; create a new one`)
      try {
        if (changes.name !== undefined && changes.name !== record.name) record = await keys.rename(record.name, changes.name)
        const limits = limitsOf(changes)
        if (Object.keys(limits).length > 0) record = (await store.setLimits(record.name, limits)) ?? record
        if (changes.status === 'disabled' && record.status !== 'disabled') record = await keys.disable(record.name)
        if (changes.status === 'active' && record.status !== 'active') record = await keys.enable(record.name)
      } catch (err) {
        return invalid(err)
      }
      return record
    },
    async revoke (id: number): Promise<ApiKeyRecord> {
      const record = await get(id)
      if (record.status === 'revoked') return record
      return await keys.revoke(record.name)
    },
    async roll (_id: number, _graceSeconds: number): Promise<{ key: string, record: ApiKeyRecord, previousValidUntil: Date | null }> {
      throw new AppError('ADMIN_KEY_INVALID', 'Rolling a key is not supported by this server yet')
    }
  }
}
