// The console's side of the management API (/admin/v1/, docs/admin-api.md): its shapes,
// one call that sends the operator token and reads the envelope, and the plain
// computations the screens show (the 30 days of a chart). No DOM here, so that Node
// tests can run it.

export type KeyStatus = 'active' | 'disabled' | 'revoked' | 'expired'
export type Period = 'day' | 'month'

export interface AdminKey {
  id: string
  name: string
  prefix: string
  owner: string | null
  meta: Record<string, unknown> | null
  status: KeyStatus
  source: string
  rate: { max: number, window_seconds: number } | null
  quota: { max: number, period: Period } | null
  credits: { remaining: number, refill: { amount: number, period: Period } | null } | null
  expires_at: string | null
  created_at: string
  updated_at: string
}

/** What creating or rolling a key answers: the key object with its secret, shown once. */
export interface KeyWithSecret extends AdminKey {
  key: string | null
  previous_valid_until?: string | null
  message?: string
}

export interface UsageRow {
  period: string
  key_id: string
  key_name: string
  endpoint_group: string
  requests: number
  units: number
}

export interface GifReport {
  id: string | number
  /** null once the gif is removed. */
  gif: { id: string | number, category: string, hidden: boolean, width: number | null, height: number | null, file_url: string } | null
  key_name: string | null
  reason: string
  created_at: string
  dismissed_at: string | null
}

export interface AuditEntry {
  id: string | number
  at: string
  /** "token:NAME", "ADMIN_TOKEN" or "cli". */
  actor: string
  action: string
  target: string | null
  details: unknown
  address: string | null
}

interface Envelope { success?: boolean, code?: number, message?: string, error?: string, requestId?: string }

/** A refusal of the API, with what its envelope said. */
export class ApiError extends Error {
  constructor (
    readonly status: number,
    message: string,
    readonly error: string | undefined,
    readonly requestId: string | undefined,
    readonly retryAfter: number | undefined
  ) {
    super(message)
    this.name = 'ApiError'
  }

  /** The status, the error code and the request id, for the line under the message. */
  get detail (): string {
    return [`${this.status}${this.error === undefined ? '' : ` ${this.error}`}`, this.requestId === undefined ? '' : `request id ${this.requestId}`]
      .filter((part) => part !== '').join(' · ')
  }
}

/** An envelope's message, or a sentence saying what came instead. */
export function errorFrom (status: number, body: unknown, retryAfter: string | null): ApiError {
  const envelope = (typeof body === 'object' && body !== null ? body : {}) as Envelope
  const seconds = retryAfter === null ? undefined : Number(retryAfter)
  let message = typeof envelope.message === 'string' && envelope.message !== ''
    ? envelope.message
    : `The server answered ${status} without a message`
  if (status === 404 && envelope.error === undefined) message = 'The server answered 404: the management API is not enabled here (no operator token exists)'
  return new ApiError(status, message, envelope.error, envelope.requestId, Number.isFinite(seconds) ? seconds : undefined)
}

export type Fetch = (input: string, init: RequestInit) => Promise<Response>

export interface CallOptions {
  body?: unknown
  headers?: Record<string, string>
  query?: Record<string, string | number | undefined | null>
}

/** The query string of the set values, in order. */
export function queryString (query: CallOptions['query'] = {}): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value))
  }
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

/**
 * The management API as the console calls it: the token only in the Authorization
 * header, only to this origin (relative paths), no cookies, no referrer.
 */
export function createApi (token: string, fetchImpl: Fetch) {
  async function request (method: string, path: string, options: CallOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, ...options.headers }
    if (options.body !== undefined) headers['Content-Type'] = 'application/json'
    let res: Response
    try {
      res = await fetchImpl(`${path}${queryString(options.query)}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        cache: 'no-store',
        credentials: 'omit',
        referrerPolicy: 'no-referrer'
      })
    } catch (err) {
      throw new ApiError(0, `The request failed: ${err instanceof Error ? err.message : String(err)}. Is the server running?`, undefined, undefined, undefined)
    }
    if (!res.ok) {
      const body: unknown = await res.json().catch(() => undefined)
      throw errorFrom(res.status, body, res.headers.get('retry-after'))
    }
    return res
  }

  async function json<T> (method: string, path: string, options: CallOptions = {}): Promise<T> {
    const res = await request(method, path, options)
    return await res.json() as T
  }

  const key = (id: string) => `/admin/v1/keys/${encodeURIComponent(id)}`
  const gif = (id: string | number) => `/admin/v1/gifs/${encodeURIComponent(String(id))}`

  return {
    whoami: async () => await json<{ token: { name: string, scopes: string[] } }>('GET', '/admin/v1/whoami'),
    listKeys: async (query: { owner?: string, name?: string, status?: string, limit?: number, cursor?: string | null }) =>
      await json<{ keys: AdminKey[], next_cursor: string | null }>('GET', '/admin/v1/keys', { query }),
    getKey: async (id: string) => await json<AdminKey>('GET', key(id)),
    createKey: async (body: Record<string, unknown>, idempotencyKey: string) =>
      await json<KeyWithSecret>('POST', '/admin/v1/keys', { body, headers: { 'Idempotency-Key': idempotencyKey } }),
    updateKey: async (id: string, patch: Record<string, unknown>) => await json<AdminKey>('PATCH', key(id), { body: patch }),
    revokeKey: async (id: string) => await json<AdminKey>('DELETE', key(id)),
    rollKey: async (id: string, graceSeconds: number) => await json<KeyWithSecret>('POST', `${key(id)}/roll`, { body: { grace_seconds: graceSeconds } }),
    keyUsage: async (id: string, from: string, to: string) =>
      await json<{ rows: UsageRow[] }>('GET', `${key(id)}/usage`, { query: { from, to, group: 'day' } }),
    /** The CSV export, as the bytes the server answered. */
    exportUsage: async (query: { from: string, to: string, key?: string, group: Period }) =>
      await (await request('GET', '/admin/v1/usage', { query: { ...query, format: 'csv' } })).blob(),
    reports: async (status: string, cursor: string | null) =>
      await json<{ reports: GifReport[], next_cursor: string | null }>('GET', '/admin/v1/gifs/reports', { query: { status, cursor, limit: 20 } }),
    /** A gif's bytes, fetched with the token (an <img> could not send it). */
    gifFile: async (path: string) => await (await request('GET', path)).blob(),
    hideGif: async (id: string | number) => { await request('POST', `${gif(id)}/hide`) },
    unhideGif: async (id: string | number) => { await request('POST', `${gif(id)}/unhide`) },
    removeGif: async (id: string | number) => { await request('DELETE', gif(id)) },
    dismissReport: async (id: string | number) => { await request('POST', `/admin/v1/gifs/reports/${encodeURIComponent(String(id))}/dismiss`) },
    audit: async (action: string, cursor: string | null) =>
      await json<{ entries: AuditEntry[], next_cursor: string | null }>('GET', '/admin/v1/audit', { query: { action, cursor, limit: 50 } })
  }
}

export type Api = ReturnType<typeof createApi>

/** YYYY-MM-DD of a time, in UTC (the days usage is counted by). */
export function utcDay (ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

/** The `count` UTC days ending with the day of `nowMs`, oldest first. */
export function lastDays (nowMs: number, count: number): string[] {
  const day = 86_400_000
  const today = Math.floor(nowMs / day) * day
  return Array.from({ length: count }, (_, i) => utcDay(today - (count - 1 - i) * day))
}

export interface DayTotal { day: string, requests: number, units: number }

/** The rows of one key summed per day over `days` (endpoint groups together), a zero for a day with none. */
export function dailyTotals (rows: UsageRow[], days: string[]): DayTotal[] {
  const totals = new Map(days.map((day) => [day, { day, requests: 0, units: 0 }]))
  for (const row of rows) {
    const total = totals.get(row.period.slice(0, 10))
    if (total === undefined) continue
    total.requests += row.requests
    total.units += row.units
  }
  return [...totals.values()]
}

/** A round top for the chart's scale: 1, 2 or 5 times a power of ten, at least `max`. */
export function niceMax (max: number): number {
  if (max <= 0) return 1
  const power = 10 ** Math.floor(Math.log10(max))
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power
  return 10 * power
}

/**
 * The body a limits form sends: an empty rate means the service default (null), an
 * empty quota none (null). Throws a sentence for a half-filled pair.
 */
export function limitsPatch (rateMax: string, rateWindow: string, quotaMax: string, quotaPeriod: string): { rate: AdminKey['rate'], quota: AdminKey['quota'] } {
  const int = (text: string, what: string): number => {
    const n = Number(text)
    if (!Number.isInteger(n) || n < 1) throw new Error(`${what} must be a whole number of at least 1`)
    return n
  }
  let rate: AdminKey['rate'] = null
  if (rateMax.trim() !== '' || rateWindow.trim() !== '') {
    rate = { max: int(rateMax.trim(), 'The rate\'s units'), window_seconds: int(rateWindow.trim(), 'The rate\'s window (seconds)') }
  }
  let quota: AdminKey['quota'] = null
  if (quotaMax.trim() !== '') quota = { max: int(quotaMax.trim(), 'The quota'), period: quotaPeriod === 'month' ? 'month' : 'day' }
  return { rate, quota }
}
