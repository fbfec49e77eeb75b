// Bounded admission for CPU-bound work (image conversion, image generation): at most
// `concurrency` jobs run and at most `queue` more wait. Past that, the busy error of
// the caller's choice (503 with Retry-After), decided at once: CPU work must not pile
// up until memory runs out. A request can be admitted early (before its body is read,
// so a refused upload costs no memory) and run its job later with its ticket.
//
// Fair between API keys: a ticket carries its owner (the key), and a freed slot goes to
// the waiting ticket whose owner has the fewest jobs running, then whose owner started a
// job least recently (the oldest waiter among equals), not simply the oldest. One key
// sending a stream of heavy requests keeps the slots only while nobody else waits:
// another key's request runs as soon as any slot frees.
import { AppError, type ErrorCode } from '../errors.js'

export interface Ticket {
  /**
   * Runs `work` once a slot is free; the slot is held until `work` settles (for pool
   * work: until the job has stopped, aborted or not). When `signal` fires while the
   * ticket still waits for a slot, it gives up waiting and rejects with the signal's reason.
   */
  run<T> (work: () => Promise<T>, signal?: AbortSignal): Promise<T>
  /** Gives the admission back; safe to call more than once. */
  release (): void
}

export interface Limiter {
  /**
   * Admits a request or throws the busy error (the limiter's, or `busyCode`). `owner`
   * (an API key's id) is whom the job is for: freed slots are shared fairly between owners.
   */
  admit (busyCode?: ErrorCode, owner?: Owner): Ticket
  /** Admits, runs and releases in one call. */
  run<T> (work: () => Promise<T>): Promise<T>
  readonly stats: { admitted: number, running: number, waiting: number }
}

/** Whom a job is for (an API key's id); undefined: an owner of its own. */
export type Owner = number | string | undefined

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

export function createLimiter ({ concurrency, queue, busyCode = 'SERVICE_UNAVAILABLE', retryAfterSeconds = 2, observer }: LimiterOptions): Limiter {
  let admitted = 0
  let running = 0
  /** Jobs running per owner (owners with none are not kept). */
  const runningBy = new Map<Owner, number>()
  interface Waiter { owner: Owner, start: () => void }
  /** In arrival order; at most `queue` + `concurrency` long, so a scan per freed slot is cheap. */
  const waiters: Waiter[] = []
  /** When each owner with jobs running or waiting last started one (a counter, not a clock). */
  const lastStart = new Map<Owner, number>()
  let starts = 0
  const changed = (): void => observer?.changed(running, waiters.length)
  const started = (owner: Owner): void => {
    running++
    if (owner === undefined) return
    runningBy.set(owner, (runningBy.get(owner) ?? 0) + 1)
    lastStart.set(owner, ++starts)
  }

  function acquireSlot (owner: Owner, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted === true) return Promise.reject(signal.reason)
    if (running < concurrency) {
      started(owner)
      changed()
      return Promise.resolve()
    }
    const wait = new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        owner,
        start () {
          signal?.removeEventListener('abort', giveUp)
          started(owner)
          resolve()
        }
      }
      const giveUp = (): void => {
        const at = waiters.indexOf(waiter)
        if (at >= 0) waiters.splice(at, 1)
        changed()
        reject(signal!.reason)
      }
      signal?.addEventListener('abort', giveUp, { once: true })
      waiters.push(waiter)
    })
    changed()
    return wait
  }

  /** The waiter whose owner has the fewest jobs running, then started one least recently; the oldest among equals. */
  function nextWaiter (): Waiter | undefined {
    let best = -1
    let fewest = Infinity
    let longest = Infinity
    for (let i = 0; i < waiters.length; i++) {
      const owner = waiters[i]!.owner
      const n = owner === undefined ? 0 : runningBy.get(owner) ?? 0
      const last = owner === undefined ? 0 : lastStart.get(owner) ?? 0
      if (n < fewest || (n === fewest && last < longest)) {
        fewest = n
        longest = last
        best = i
      }
    }
    return best < 0 ? undefined : waiters.splice(best, 1)[0]
  }

  function releaseSlot (owner: Owner): void {
    running--
    if (owner !== undefined) {
      const n = (runningBy.get(owner) ?? 1) - 1
      if (n <= 0) runningBy.delete(owner)
      else runningBy.set(owner, n)
    }
    nextWaiter()?.start()
    // An owner with nothing running or waiting is forgotten: the map holds only the busy.
    if (owner !== undefined && !runningBy.has(owner) && !waiters.some((w) => w.owner === owner)) lastStart.delete(owner)
    changed()
  }

  function admit (code: ErrorCode = busyCode, owner?: Owner): Ticket {
    if (admitted >= concurrency + queue) {
      observer?.rejected()
      throw new AppError(code, undefined, {
        headers: { 'retry-after': String(retryAfterSeconds) },
        details: { retryAfter: retryAfterSeconds }
      })
    }
    admitted++
    let released = false
    return {
      async run (work, signal) {
        await acquireSlot(owner, signal)
        try {
          return await work()
        } finally {
          releaseSlot(owner)
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
