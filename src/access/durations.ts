// Durations and rates as operators write them: "1 minute", "30s", "2 hours", "60000"
// (milliseconds); "100/1m" or "100 per minute" for a rate.

const UNITS: Record<string, number> = {
  ms: 1,
  millisecond: 1,
  milliseconds: 1,
  s: 1000,
  sec: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000
}

export function parseDuration (raw: string): number | undefined {
  const text = raw.trim().toLowerCase()
  if (/^\d+$/.test(text)) return Number(text)
  const m = /^(\d+(?:\.\d+)?)?\s*([a-z]+)$/.exec(text)
  if (!m) return undefined
  const unit = UNITS[m[2]!]
  if (unit === undefined) return undefined
  const value = Math.round(Number(m[1] ?? '1') * unit)
  return value > 0 ? value : undefined
}

export function formatDuration (ms: number): string {
  for (const [name, size] of [['day', 86_400_000], ['hour', 3_600_000], ['minute', 60_000], ['second', 1000]] as const) {
    if (ms % size === 0) {
      const n = ms / size
      return `${n} ${name}${n === 1 ? '' : 's'}`
    }
  }
  return `${ms} ms`
}

/** "100/1m", "100/minute", "100 per 1 minute" → { max, windowMs }. */
export function parseRate (raw: string): { max: number, windowMs: number } | undefined {
  const m = /^\s*(\d+)\s*(?:\/|per)\s*(.+)$/i.exec(raw)
  if (!m) return undefined
  const max = Number(m[1])
  const windowMs = parseDuration(m[2]!)
  if (!Number.isSafeInteger(max) || max < 1 || windowMs === undefined) return undefined
  return { max, windowMs }
}

/** "10000/day", "50000/month" → { max, period }. */
export function parseQuota (raw: string): { max: number, period: 'day' | 'month' } | undefined {
  const m = /^\s*(\d+)\s*(?:\/|per)\s*(day|month)\s*$/i.exec(raw)
  if (!m) return undefined
  const max = Number(m[1])
  if (!Number.isSafeInteger(max) || max < 1) return undefined
  return { max, period: m[2]!.toLowerCase() as 'day' | 'month' }
}
