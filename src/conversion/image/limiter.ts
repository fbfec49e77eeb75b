// Bounded admission for CPU-bound conversions. A request is admitted before its body
// is read (so refused uploads cost no memory): at most `concurrency` conversions run
// and at most `queue` more requests wait (receiving their upload or waiting for a
// slot). Past that, IMAGE_BUSY (503 with Retry-After), decided at once.
import { AppError } from '../../errors.js'

/** Retry-After for a full queue: conversions of typical photos finish well within it. */
export const BUSY_RETRY_AFTER_SECONDS = 2

export interface Ticket {
  /** Runs `work` once a conversion slot is free. */
  run<T> (work: () => Promise<T>): Promise<T>
  /** Gives the admission back; safe to call more than once. */
  release (): void
}

export interface Limiter {
  /** Admits a request or throws IMAGE_BUSY. */
  admit (): Ticket
  readonly stats: { admitted: number, running: number, waiting: number }
}

export function createLimiter ({ concurrency, queue }: { concurrency: number, queue: number }): Limiter {
  let admitted = 0
  let running = 0
  const waiters: Array<() => void> = []

  function acquireSlot (): Promise<void> {
    if (running < concurrency) {
      running++
      return Promise.resolve()
    }
    return new Promise((resolve) => waiters.push(() => { running++; resolve() }))
  }

  function releaseSlot (): void {
    running--
    const next = waiters.shift()
    if (next) next()
  }

  return {
    get stats () { return { admitted, running, waiting: waiters.length } },
    admit () {
      if (admitted >= concurrency + queue) {
        throw new AppError('IMAGE_BUSY', undefined, {
          headers: { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
          details: { retryAfter: BUSY_RETRY_AFTER_SECONDS }
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
  }
}
