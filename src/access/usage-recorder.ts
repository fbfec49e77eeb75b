// Usage per key, per UTC day and per endpoint group, counted in memory and written to
// the store in batches (every USAGE_FLUSH_MS and on close), so the hot path never
// waits on a write. Quotas read the stored total plus what is still pending here.
// Across several instances a quota can be overshot by at most what the other instances
// served within one flush interval: the price of not writing on every request.
import type { UsageEntry, UsageStore } from '../store/interface.js'

export type QuotaPeriod = 'day' | 'month'

let dayCache = { start: 0, end: 0, day: '' }

/** The UTC day of `now`, YYYY-MM-DD (computed once per day: it is asked on every request). */
export function utcDay (now: number): string {
  if (now < dayCache.start || now >= dayCache.end) {
    const start = now - (now % 86_400_000)
    dayCache = { start, end: start + 86_400_000, day: new Date(start).toISOString().slice(0, 10) }
  }
  return dayCache.day
}

/** First UTC day of the period that contains `now`. */
export function periodStartDay (period: QuotaPeriod, now: number): string {
  const day = utcDay(now)
  return period === 'day' ? day : `${day.slice(0, 8)}01`
}

/** When the period containing `now` ends (epoch ms). */
export function periodEnd (period: QuotaPeriod, now: number): number {
  const d = new Date(now)
  return period === 'day'
    ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
    : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
}

export interface UsageRecorder {
  record (keyId: number, group: string, units: number, now: number): void
  /**
   * Units a key used in the quota period containing `now`, pending ones included; the
   * stored total is read again once it is older than one flush interval.
   */
  quotaUsed (keyId: number, period: QuotaPeriod, now: number): Promise<number>
  flush (): Promise<void>
  close (): Promise<void>
}

export function createUsageRecorder (store: UsageStore, options: { flushMs: number, onError?: (err: unknown) => void }): UsageRecorder {
  let pending = new Map<string, UsageEntry>()
  /** keyId → day → pending units, for quota checks without scanning `pending`. */
  let pendingUnits = new Map<number, Map<string, number>>()
  const persisted = new Map<number, { since: string, units: number, fetchedAt: number }>()

  function pendingSince (keyId: number, since: string): number {
    let total = 0
    for (const [day, units] of pendingUnits.get(keyId) ?? []) if (day >= since) total += units
    return total
  }

  async function flush (): Promise<void> {
    if (pending.size === 0) return
    const batch = [...pending.values()]
    const batchUnits = pendingUnits
    pending = new Map()
    pendingUnits = new Map()
    const startedAt = Date.now()
    try {
      await store.add(batch)
    } catch (err) {
      // Put the batch back: nothing counted is lost to a failed write.
      for (const e of batch) addPending(e.keyId, e.day, e.group, e.requests, e.units)
      throw err
    }
    // What was pending is stored now: move it into the cached stored totals.
    for (const [keyId, days] of batchUnits) {
      const cached = persisted.get(keyId)
      // A total read after this write began may already include the batch.
      if (!cached || cached.fetchedAt >= startedAt) continue
      for (const [day, units] of days) if (day >= cached.since) cached.units += units
    }
  }

  function addPending (keyId: number, day: string, group: string, requests: number, units: number): void {
    const id = `${keyId}|${day}|${group}`
    const entry = pending.get(id)
    if (entry) {
      entry.requests += requests
      entry.units += units
    } else {
      pending.set(id, { keyId, day, group, requests, units })
    }
    let days = pendingUnits.get(keyId)
    if (!days) pendingUnits.set(keyId, days = new Map())
    days.set(day, (days.get(day) ?? 0) + units)
  }

  const timer = setInterval(() => { flush().catch((err) => options.onError?.(err)) }, options.flushMs)
  timer.unref()

  return {
    record (keyId, group, units, now) {
      addPending(keyId, utcDay(now), group, 1, units)
    },
    async quotaUsed (keyId, period, now) {
      const since = periodStartDay(period, now)
      let cached = persisted.get(keyId)
      // Re-read the stored total when the period changed or when other instances may
      // have written since (older than one flush interval).
      if (!cached || cached.since !== since || now - cached.fetchedAt > options.flushMs) {
        cached = { since, units: await store.unitsSince(keyId, since), fetchedAt: now }
        persisted.set(keyId, cached)
      }
      return cached.units + pendingSince(keyId, since)
    },
    flush,
    async close () {
      clearInterval(timer)
      await flush()
    }
  }
}
