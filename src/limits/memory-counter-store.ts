import { type CounterStore, windowStart } from './counter-store.js'

/** Past this many tracked identities, ended windows are swept at once. */
const MAX_ENTRIES = 100_000
const SWEEP_INTERVAL_MS = 60_000

export function createMemoryCounterStore (): CounterStore {
  const windows = new Map<string, { start: number, end: number, count: number }>()
  const sweep = (now: number): void => {
    for (const [id, w] of windows) if (w.end <= now) windows.delete(id)
  }
  const timer = setInterval(() => sweep(Date.now()), SWEEP_INTERVAL_MS)
  timer.unref()

  return {
    kind: 'memory',
    hit (id, cost, windowMs, now) {
      const start = windowStart(now, windowMs)
      let w = windows.get(id)
      if (!w || w.start !== start) {
        if (!w && windows.size >= MAX_ENTRIES) sweep(now)
        w = { start, end: start + windowMs, count: 0 }
        windows.set(id, w)
      }
      w.count += cost
      return { count: w.count, resetAt: w.end }
    },
    async close () {
      clearInterval(timer)
      windows.clear()
    }
  }
}
