// Bounded admission for CPU-bound work (image conversion, image generation): at most
// `concurrency` jobs run and at most `queue` more wait. Past that, the busy error of
// the caller's choice (503 with Retry-After), decided at once: CPU work must not pile
// up until memory runs out. A request can be admitted early (before its body is read,
// so a refused upload costs no memory) and run its job later with its ticket.
import { AppError, type ErrorCode } from '../errors.js'
import type { Metrics } from '../metrics/metrics.js'

export interface Ticket {
  /** Runs `work` once a slot is free. */
  run<T> (work: () => Promise<T>): Promise<T>
  /** Gives the admission back; safe to call more than once. */
  release (): void
}

export interface Limiter {
  /** Admits a request or throws the busy error. */
  admit (): Ticket
  /** Admits, runs and releases in one call. */
  run<T> (work: () => Promise<T>): Promise<T>
  readonly stats: { admitted: number, running: number, waiting: number }
}

/** What the limiter reports as it works (Prometheus gauges and counters). */
export interface LimiterObserver {
  changed (running: number, waiting: number): void
  rejected (): void
}

export interface LimiterOptions {
  concurrency: number
  queue: number
  busyCode?: ErrorCode
  retryAfterSeconds?: number
  observer?: LimiterObserver
}

export function observeWith (metrics: Metrics, queue: string): LimiterObserver {
  return {
    changed (running, waiting) {
      metrics.workRunning.set({ queue }, running)
      metrics.workQueued.set({ queue }, waiting)
    },
    rejected () { metrics.workRejections.inc({ queue }) }
  }
}

export function createLimiter ({ concurrency, queue, busyCode = 'SERVICE_UNAVAILABLE', retryAfterSeconds = 2, observer }: LimiterOptions): Limiter {
  let admitted = 0
  let running = 0
  const waiters: Array<() => void> = []
  const changed = (): void => observer?.changed(running, waiters.length)

  function acquireSlot (): Promise<void> {
    if (running < concurrency) {
      running++
      changed()
      return Promise.resolve()
    }
    const wait = new Promise<void>((resolve) => waiters.push(() => { running++; resolve() }))
    changed()
    return wait
  }

  function releaseSlot (): void {
    running--
    const next = waiters.shift()
    if (next) next()
    changed()
  }

  function admit (): Ticket {
    if (admitted >= concurrency + queue) {
      observer?.rejected()
      throw new AppError(busyCode, undefined, {
        headers: { 'retry-after': String(retryAfterSeconds) },
        details: { retryAfter: retryAfterSeconds }
      })
    }
    admitted++
    let released = false
    return {
      async run (work) {
        await acquireSlot()
        try {
          return await work()
        } finally {
          releaseSlot()
        }
      },
      release () {
        if (released) return
        released = true
        admitted--
      }
    }
  }

  return {
    get stats () { return { admitted, running, waiting: waiters.length } },
    admit,
    async run (work) {
      const ticket = admit()
      try {
        return await ticket.run(work)
      } finally {
        ticket.release()
      }
    }
  }
}
