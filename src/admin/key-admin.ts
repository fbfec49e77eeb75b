// What the management API does to keys, over the KeyService (src/access/keys.ts), which
// checks every value and owns credits, refill, expiry and roll: the routes speak HTTP and
// snake_case, this turns their bodies into the service's calls and its KeyErrors into the
// catalogue's codes.
import { AppError } from '../errors.js'
import { KeyError, type KeyService, type KeyUpdate, type NewKeyOptions } from '../access/keys.js'
import type { ApiKeyRecord, KeyLimits, KeyStatusFilter } from '../store/interface.js'

export interface KeyFilter { owner?: string, name?: string, status?: KeyStatusFilter, limit?: number, cursor?: string }

/** A body of POST or PATCH /admin/v1/keys, as the contract names its fields. */
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

export function limitsOf (changes: Pick<KeyChanges, 'rate' | 'quota'>): Partial<KeyLimits> | undefined {
  const limits: Partial<KeyLimits> = {}
  if (changes.rate !== undefined) {
    limits.rateMax = changes.rate?.max ?? null
    limits.rateWindowMs = changes.rate === null ? null : changes.rate.window_seconds * 1000
  }
  if (changes.quota !== undefined) {
    limits.quotaMax = changes.quota?.max ?? null
    limits.quotaPeriod = changes.quota?.period ?? null
  }
  return Object.keys(limits).length === 0 ? undefined : limits
}

function expiry (text: string | null | undefined): Date | null | undefined {
  if (text === undefined || text === null) return text
  const at = new Date(text)
  if (Number.isNaN(at.getTime())) throw new AppError('VALIDATION', `Invalid body field "expires_at": it must be a date and time in ISO 8601, such as 2026-12-31T23:59:59Z, got "${text}"`)
  return at
}

/** A KeyError (a value the service refuses) in the catalogue's words. */
function refused (err: unknown): never {
  if (err instanceof KeyError) {
    if (/already exists|exists already|is taken/i.test(err.message)) throw new AppError('ADMIN_KEY_CONFLICT', err.message)
    throw new AppError('ADMIN_KEY_INVALID', err.message)
  }
  throw err
}

const notFound = (id: number): AppError => new AppError('ADMIN_KEY_NOT_FOUND', `No key has the id ${id}: ids come from GET /admin/v1/keys`)

export type KeyAdmin = ReturnType<typeof createKeyAdmin>

export function createKeyAdmin (keys: KeyService) {
  async function get (id: number): Promise<ApiKeyRecord> {
    const record = await keys.findById(id)
    if (record === undefined) throw notFound(id)
    return record
  }

  return {
    get,
    async page (filter: KeyFilter): Promise<{ keys: ApiKeyRecord[], nextCursor: string | null }> {
      try {
        return await keys.page(filter)
      } catch (err) {
        return refused(err)
      }
    },
    async create (c: KeyChanges): Promise<{ key: string, record: ApiKeyRecord }> {
      if (c.add_credits !== undefined) throw new AppError('ADMIN_KEY_INVALID', 'add_credits is for PATCH: a new key takes credits')
      if (c.status !== undefined) throw new AppError('ADMIN_KEY_INVALID', 'status is for PATCH: a new key is active')
      const limits = limitsOf(c)
      const expiresAt = expiry(c.expires_at)
      const options: NewKeyOptions = {
        source: 'admin',
        ...(c.name === undefined ? {} : { name: c.name }),
        ...(c.owner === undefined ? {} : { owner: c.owner }),
        ...(c.meta === undefined ? {} : { meta: c.meta }),
        ...(limits === undefined ? {} : { limits }),
        ...(c.credits == null ? {} : { credits: c.credits }),
        ...(c.refill === undefined ? {} : { refill: c.refill }),
        ...(expiresAt === undefined ? {} : { expiresAt })
      }
      try {
        return await keys.createWith(options)
      } catch (err) {
        return refused(err)
      }
    },
    async update (id: number, c: KeyChanges): Promise<ApiKeyRecord> {
      const limits = limitsOf(c)
      const expiresAt = expiry(c.expires_at)
      const update: KeyUpdate = {
        ...(c.name === undefined ? {} : { name: c.name }),
        ...(c.owner === undefined ? {} : { owner: c.owner }),
        ...(c.meta === undefined ? {} : { meta: c.meta }),
        ...(limits === undefined ? {} : { limits }),
        ...(c.credits === undefined ? {} : { credits: c.credits }),
        ...(c.add_credits === undefined ? {} : { addCredits: c.add_credits }),
        ...(c.refill === undefined ? {} : { refill: c.refill }),
        ...(expiresAt === undefined ? {} : { expiresAt }),
        ...(c.status === undefined ? {} : { status: c.status })
      }
      let record: ApiKeyRecord | undefined
      try {
        record = await keys.update(id, update)
      } catch (err) {
        return refused(err)
      }
      if (record === undefined) throw notFound(id)
      return record
    },
    async revoke (id: number): Promise<ApiKeyRecord> {
      const record = await keys.revokeById(id)
      if (record === undefined) throw notFound(id)
      return record
    },
    async roll (id: number, graceSeconds: number): Promise<{ key: string, record: ApiKeyRecord }> {
      let rolled
      try {
        rolled = await keys.roll(id, graceSeconds)
      } catch (err) {
        return refused(err)
      }
      if (rolled === undefined) throw notFound(id)
      return rolled
    }
  }
}
