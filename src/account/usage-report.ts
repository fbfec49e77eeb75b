// A key's usage: what /me, `keys usage` and the operator's usage export show. All three
// read the store through readUsage below, so they can never disagree on a number: the
// counts are the billed units (src/access/rate-limit.ts, billedUnits) the server wrote.
import { FIRST_DAY, LAST_DAY, type ApiKeyRecord, type UsageEntry, type UsageStore } from '../store/interface.js'

export interface GroupUsage { requests: number, units: number }

/** How a report sums its days: one row per UTC day, or per UTC month. */
export type UsagePeriod = 'day' | 'month'

/** The longest range a report covers, in days: ten years, as `keys usage --days` allows. */
export const MAX_REPORT_DAYS = 3660

/** One line of a report (snake_case, as the management API and the CSV name them). */
export interface UsageReportRow {
  /** YYYY-MM-DD (by day) or YYYY-MM (by month), UTC. */
  period: string
  key_id: string
  key_name: string
  endpoint_group: string
  requests: number
  units: number
}

export interface UsageReport {
  /** The first and last UTC day counted, both included. */
  from: string
  to: string
  group: UsagePeriod
  /** Ordered by period, key name and endpoint group; only what has usage. */
  rows: UsageReportRow[]
  totals: GroupUsage
}

export interface UsageQuery {
  from: string
  to: string
  group: UsagePeriod
  /** One key (its row id); absent: every key, revoked ones included. */
  keyId?: number
}

/** Where a report reads from: the store's usage and its keys (for their names). */
export interface UsageSource {
  usage: Pick<UsageStore, 'list'>
  keys: { list: () => Promise<ApiKeyRecord[]> }
  /**
   * Writes counts still pending in this process first (the server's UsageRecorder.flush),
   * so a report holds everything answered until now. The command line has none: it reads
   * what the server has written (every USAGE_FLUSH_MS).
   */
  flush?: () => Promise<void>
}

/** The one read of usage behind every report: one key or all, from..to (UTC days, inclusive). */
export async function readUsage (usage: Pick<UsageStore, 'list'>, range: { keyId?: number, from?: string, to?: string }): Promise<UsageEntry[]> {
  return await usage.list({ keyId: range.keyId, sinceDay: range.from ?? FIRST_DAY, untilDay: range.to ?? LAST_DAY })
}

export function sumByGroup (entries: UsageEntry[], sinceDay = FIRST_DAY): Record<string, GroupUsage> {
  const out: Record<string, GroupUsage> = {}
  for (const e of entries) {
    if (e.day < sinceDay) continue
    const g = (out[e.group] ??= { requests: 0, units: 0 })
    g.requests += e.requests
    g.units += e.units
  }
  return out
}

export function daysAgo (now: number, days: number): string {
  return new Date(now - days * 86_400_000).toISOString().slice(0, 10)
}

/** A UTC day as YYYY-MM-DD when the text is one that exists (no 2026-02-30), else undefined. */
export function parseDay (text: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined
  const ms = Date.parse(`${text}T00:00:00Z`)
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text ? undefined : text
}

/** The first and last day of a UTC month given as YYYY-MM, or undefined. */
export function monthRange (month: string): { from: string, to: string } | undefined {
  const m = /^(\d{4})-(\d{2})$/.exec(month)
  if (!m) return undefined
  const year = Number(m[1])
  const index = Number(m[2]) - 1
  if (index < 0 || index > 11) return undefined
  const last = new Date(Date.UTC(year, index + 1, 0)).toISOString().slice(0, 10)
  return { from: `${month}-01`, to: last }
}

/** Why from..to is not a range a report covers (a sentence), or undefined when it is. */
export function rangeProblem (from: string, to: string): string | undefined {
  if (parseDay(from) === undefined) return `"from" must be a UTC day as YYYY-MM-DD, got "${from}"`
  if (parseDay(to) === undefined) return `"to" must be a UTC day as YYYY-MM-DD, got "${to}"`
  if (from > to) return `"from" (${from}) is after "to" (${to})`
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1
  if (days > MAX_REPORT_DAYS) return `a report covers at most ${MAX_REPORT_DAYS} days; ${from} to ${to} is ${days}`
  return undefined
}

/**
 * Requests and units per key, endpoint group and period over query.from..query.to.
 * The range must be valid (rangeProblem); the caller answers a mistake in its own words.
 */
export async function usageReport (source: UsageSource, query: UsageQuery): Promise<UsageReport> {
  const problem = rangeProblem(query.from, query.to)
  if (problem !== undefined) throw new RangeError(problem)
  await source.flush?.()
  const entries = await readUsage(source.usage, query)
  const names = new Map((await source.keys.list()).map((k) => [k.id, k.name]))
  const rows = new Map<string, UsageReportRow>()
  const totals = { requests: 0, units: 0 }
  for (const e of entries) {
    const period = query.group === 'month' ? e.day.slice(0, 7) : e.day
    const id = `${period}\n${e.keyId}\n${e.group}`
    const row = rows.get(id) ?? { period, key_id: String(e.keyId), key_name: names.get(e.keyId) ?? '', endpoint_group: e.group, requests: 0, units: 0 }
    row.requests += e.requests
    row.units += e.units
    rows.set(id, row)
    totals.requests += e.requests
    totals.units += e.units
  }
  const ordered = [...rows.values()].sort((a, b) =>
    compare(a.period, b.period) || compare(a.key_name, b.key_name) || Number(a.key_id) - Number(b.key_id) || compare(a.endpoint_group, b.endpoint_group))
  return { from: query.from, to: query.to, group: query.group, rows: ordered, totals }
}

function compare (a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

export const USAGE_CSV_HEADER = ['period', 'key_id', 'key_name', 'endpoint_group', 'requests', 'units'] as const

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes
 * doubled. A text starting with = + - @ (or a tab or carriage return) is what spreadsheets
 * run as a formula (OWASP, "CSV Injection"): it gets a leading apostrophe. Key names cannot
 * start so today (KEY_NAME_PATTERN, src/access/keys.ts), but this writer does not rely on it.
 */
export function csvField (value: string | number): string {
  if (typeof value === 'number') return String(value)
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** The report as CSV: a header naming the columns, one line per row, CRLF line ends (RFC 4180). */
export function usageCsv (report: Pick<UsageReport, 'rows'>): string {
  const lines = [USAGE_CSV_HEADER.join(',')]
  for (const r of report.rows) lines.push(USAGE_CSV_HEADER.map((column) => csvField(r[column])).join(','))
  return lines.join('\r\n') + '\r\n'
}
