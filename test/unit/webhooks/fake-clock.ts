// A clock whose time moves only when a test says so, and a way to let the promises it set
// off settle: the webhooks' retries, deadlines and sweeps without waiting.
import type { Clock } from '../../../src/webhooks/sender.js'

export interface FakeClock extends Clock {
  /** Moves time forward by `ms`, firing each timer due on the way (and letting what it started settle). */
  advance: (ms: number) => Promise<void>
  /** Timers waiting. */
  readonly pending: number
}

/** Lets promises chained on resolved ones (and fetch-free fake posts) run to their end. */
export async function settle (): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
}

export function fakeClock (start = Date.now()): FakeClock {
  let now = start
  let nextId = 1
  const timers = new Map<number, { at: number, fn: () => void }>()
  return {
    now: () => now,
    setTimeout (fn, ms) {
      const id = nextId++
      timers.set(id, { at: now + Math.max(0, ms), fn })
      return id
    },
    clearTimeout (handle) { timers.delete(handle as number) },
    get pending () { return timers.size },
    async advance (ms) {
      const until = now + ms
      await settle()
      for (;;) {
        let due: [number, { at: number, fn: () => void }] | undefined
        for (const entry of timers) if (entry[1].at <= until && (due === undefined || entry[1].at < due[1].at)) due = entry
        if (due === undefined) break
        timers.delete(due[0])
        now = Math.max(now, due[1].at)
        due[1].fn()
        await settle()
      }
      now = until
      await settle()
    }
  }
}
