// Usage per key, per UTC day and per endpoint group, counted in memory and written to
// the store in batches (every USAGE_FLUSH_MS and on close), so the hot path never
// waits on a write. Each batch has an id the store applies at most once (Stripe's
// idempotency keys): a batch whose write failed, or whose reply was lost, is retried as
// it was, under the same id, never merged into newer counts. What the store still has
// not taken when the recorder closes is spilled to DATA_DIR/usage-pending and replayed
// at the next start (docs/billing.md). Quotas read the stored total plus what is still pending here.
// Across several instances a quota can be overshot by at most what the other instances
// served within one flush interval: the price of not writing on every request.
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { StoreUnavailableError, type UsageEntry, type UsageStore } from '../store/interface.js'

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

/** The period containing `now` as a label: YYYY-MM-DD for a day, YYYY-MM for a month (credits' refills). */
export function periodLabel (period: QuotaPeriod, now: number): string {
  const day = utcDay(now)
  return period === 'day' ? day : day.slice(0, 7)
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
  /**
   * Writes what is pending; what the store did not take is spilled to the spill folder
   * (replayed at the next start) rather than lost.
   */
  close (): Promise<void>
  /** Counts not written yet (pending, and batches waiting for a retry). */
  readonly unwritten: number
  /** Units of one key not written yet, every day's (credits: src/access/credits.ts). */
  unwrittenUnits (keyId: number): number
  /**
   * Runs a store read that no batch write overlaps, so that what it read and what is still
   * unwritten here add up exactly: a batch is either in the read or still unwritten, never
   * both or neither (credits read the keys' units_total, which a batch write raises). A
   * batch whose write failed may have been applied all the same (its reply lost): it is
   * written again first (under its id, so once), and when that fails the read is not made
   * (StoreUnavailableError), since it could count the batch in the store and here too.
   */
  withoutWrites<T> (read: () => Promise<T>): Promise<T>
  /** Told of each batch the store took, right as its units stop counting as unwritten. */
  onWritten (listener: (entries: readonly UsageEntry[]) => void): void
}

export interface UsageRecorderOptions {
  flushMs: number
  onError?: (err: unknown) => void
  /**
   * DATA_DIR/usage-pending: batches the store could not take by the time the recorder
   * closed are written here, each with its id, and applied at the next start. None: kept
   * in memory only.
   */
  spillDir?: string
  /** Told how many spilled batches were replayed or spilled (the log). */
  onSpill?: (event: 'replayed' | 'spilled', batches: number) => void
}

/**
 * A batch of usage with the id the store applies it under at most once. `uncertain`: a
 * write of it failed (or it was spilled by an earlier run), so the store may hold it
 * already: only writing it again under its id tells.
 */
interface Batch { id: string, entries: UsageEntry[], uncertain: boolean }

/** A spill file's name: the batch id, which is the file's whole identity. */
const SPILL_FILE = /^usage-([0-9a-f-]{36})\.json$/

export function createUsageRecorder (store: UsageStore, options: UsageRecorderOptions): UsageRecorder {
  let pending = new Map<string, UsageEntry>()
  /** keyId → day → units not written yet (pending and unsent), for quota checks without scanning. */
  const unwrittenUnits = new Map<number, Map<string, number>>()
  /** Batches written and refused (or whose answer was lost), retried first under the same id. */
  const unsent: Batch[] = []
  const persisted = new Map<number, { since: string, units: number, fetchedAt: number }>()
  let flushing: Promise<void> | undefined
  /** The batch write under way, which reads wait for (withoutWrites). */
  let writing: Promise<void> | undefined
  /** Reads under way, which a batch write waits for. */
  const reads = new Set<Promise<unknown>>()
  const written: Array<(entries: readonly UsageEntry[]) => void> = []

  function unwrittenSince (keyId: number, since: string): number {
    let total = 0
    for (const [day, units] of unwrittenUnits.get(keyId) ?? []) if (day >= since) total += units
    return total
  }

  function countUnwritten (entries: Iterable<UsageEntry>, sign: 1 | -1): void {
    for (const e of entries) {
      let days = unwrittenUnits.get(e.keyId)
      if (!days) unwrittenUnits.set(e.keyId, days = new Map())
      const units = (days.get(e.day) ?? 0) + sign * e.units
      if (units === 0) days.delete(e.day)
      else days.set(e.day, units)
      if (days.size === 0) unwrittenUnits.delete(e.keyId)
    }
  }

  // Batches spilled by an earlier run: applied first, under their own ids (at most once).
  if (options.spillDir !== undefined && fs.existsSync(options.spillDir)) {
    let replayed = 0
    for (const file of fs.readdirSync(options.spillDir).sort()) {
      const id = SPILL_FILE.exec(file)?.[1]
      if (id === undefined) continue
      const entries = JSON.parse(fs.readFileSync(path.join(options.spillDir, file), 'utf8')) as UsageEntry[]
      unsent.push({ id, entries, uncertain: true })
      countUnwritten(entries, 1)
      replayed++
    }
    if (replayed > 0) options.onSpill?.('replayed', replayed)
  }

  async function write (batch: Batch): Promise<void> {
    let done = (): void => {}
    writing = new Promise<void>((resolve) => { done = resolve })
    try {
      // Reads begun before wait for nothing: this write starts once they are over.
      await Promise.allSettled([...reads])
      await writeBatch(batch)
    } catch (err) {
      // Applied or not: a lost reply and a refusal look alike from here.
      batch.uncertain = true
      throw err
    } finally {
      writing = undefined
      done()
    }
  }

  async function writeBatch (batch: Batch): Promise<void> {
    const startedAt = Date.now()
    await store.add(batch.entries, batch.id)
    countUnwritten(batch.entries, -1)
    for (const listener of written) listener(batch.entries)
    if (options.spillDir !== undefined) fs.rmSync(path.join(options.spillDir, `usage-${batch.id}.json`), { force: true })
    // What was unwritten is stored now: move it into the cached stored totals.
    for (const e of batch.entries) {
      const cached = persisted.get(e.keyId)
      // A total read after this write began may already include the batch.
      if (!cached || cached.fetchedAt >= startedAt) continue
      if (e.day >= cached.since) cached.units += e.units
    }
  }

  async function flushOnce (): Promise<void> {
    if (pending.size > 0) {
      unsent.push({ id: randomUUID(), entries: [...pending.values()], uncertain: false })
      pending = new Map()
    }
    // Oldest first; a batch that fails stays (with its id) and stops this flush.
    while (unsent.length > 0) {
      await write(unsent[0]!)
      unsent.shift()
    }
  }

  function flush (): Promise<void> {
    // One flush at a time: two writing the same batch would be harmless (its id) but wasteful.
    flushing ??= flushOnce().finally(() => { flushing = undefined })
    return flushing
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
    countUnwritten([{ keyId, day, group, requests: 0, units }], 1)
  }

  /** Writes every unwritten batch to the spill folder, each under its id. */
  function spill (): void {
    if (pending.size > 0) {
      unsent.push({ id: randomUUID(), entries: [...pending.values()], uncertain: false })
      pending = new Map()
    }
    if (options.spillDir === undefined || unsent.length === 0) return
    fs.mkdirSync(options.spillDir, { recursive: true })
    for (const batch of unsent) {
      const file = path.join(options.spillDir, `usage-${batch.id}.json`)
      // Written whole then renamed: a crash mid-write leaves no half file to replay.
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(batch.entries))
      fs.renameSync(`${file}.tmp`, file)
    }
    options.onSpill?.('spilled', unsent.length)
  }

  const timer = setInterval(() => { flush().catch((err) => options.onError?.(err)) }, options.flushMs)
  timer.unref()

  return {
    get unwritten () {
      let n = 0
      for (const days of unwrittenUnits.values()) for (const units of days.values()) n += units
      return n
    },
    unwrittenUnits (keyId) {
      let n = 0
      for (const units of unwrittenUnits.get(keyId)?.values() ?? []) n += units
      return n
    },
    async withoutWrites (read) {
      for (;;) {
        // A write may follow the one awaited (the next batch of the same flush).
        for (let w = writing; w !== undefined; w = writing) await w
        if (!unsent.some((b) => b.uncertain)) break
        // Counted here as unwritten, perhaps in the store too: written again before any read.
        try {
          await flush()
        } catch (err) {
          throw err instanceof StoreUnavailableError
            ? err
            : new StoreUnavailableError('A batch of usage could not be written again, so what the store holds cannot be read exactly', 2, { cause: err })
        }
      }
      const reading = read()
      reads.add(reading)
      try {
        return await reading
      } finally {
        reads.delete(reading)
      }
    },
    onWritten (listener) {
      written.push(listener)
    },
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
      return cached.units + unwrittenSince(keyId, since)
    },
    flush,
    async close () {
      clearInterval(timer)
      try {
        // A flush already under way writes only what was pending when it began: once it
        // has ended (well or not), one more writes the rest. Awaiting it alone lost what
        // was counted meanwhile (issue 25, measured: 576 of 13,633 requests after a
        // PostgreSQL outage, whose retries made that flush long).
        await flushing?.catch(() => {})
        await flush()
      } catch (err) {
        options.onError?.(err)
        spill()
      }
    }
  }
}
