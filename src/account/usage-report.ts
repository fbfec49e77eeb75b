// A key's usage, summed per endpoint group: what /me and `keys usage` show.
import type { UsageEntry } from '../store/interface.js'

export interface GroupUsage { requests: number, units: number }

export function sumByGroup (entries: UsageEntry[], sinceDay = '0000-00-00'): Record<string, GroupUsage> {
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
