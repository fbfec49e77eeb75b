// Units as operators write them in settings and on the command line: sizes ("2mb",
// "512kb", "1048576" bytes), durations ("1 minute", "30s", "2 hours", "60000"
// milliseconds), rates ("100/1m", "100 per minute") and quotas ("10000/day"). The
// settings (./settings.ts) and the CLI's keys commands read them alike.

const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, k: 1024, mb: 1024 ** 2, m: 1024 ** 2, gb: 1024 ** 3, g: 1024 ** 3 }

/** "2mb", "512kb", "1048576" → bytes. */
export function parseSize (raw: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?b?)?\s*$/i.exec(raw)
  if (!m) return undefined
  const unit = SIZE_UNITS[(m[2] ?? 'b').toLowerCase() || 'b']
  return unit === undefined ? undefined : Math.floor(Number(m[1]) * unit)
}

/** Milliseconds per unit of a duration. */
const DURATION_UNITS: Record<string, number> = {
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
  const unit = DURATION_UNITS[m[2]!]
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
