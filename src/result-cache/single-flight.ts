// Concurrent requests for one address share one piece of work. Each waiter brings its own
// signal (its deadline, its client leaving): a waiter whose signal fires leaves with that
// reason, and the work goes on for the others; when the last waiter has left, the work's
// own signal fires, and the next request for the address starts the work again.

export interface SingleFlight<T> {
  /**
   * The work under way for `key`, joined; or `start` called with the work's signal.
   * `started` says which (the caller's request began the work).
   */
  run (key: string, signal: AbortSignal, start: (signal: AbortSignal) => Promise<T>): Promise<{ value: T, started: boolean }>
  /** Whether work for `key` is under way. */
  has (key: string): boolean
  /** Keys under way. */
  readonly size: number
}

interface Flight<T> { promise: Promise<T>, waiters: number, controller: AbortController, settled: boolean }

export function createSingleFlight<T> (): SingleFlight<T> {
  const flights = new Map<string, Flight<T>>()

  async function join (key: string, flight: Flight<T>, signal: AbortSignal): Promise<T> {
    signal.throwIfAborted()
    flight.waiters++
    let onAbort: (() => void) | undefined
    try {
      return await Promise.race([
        flight.promise,
        new Promise<never>((_resolve, reject) => {
          onAbort = () => reject(signal.reason)
          signal.addEventListener('abort', onAbort, { once: true })
        })
      ])
    } finally {
      if (onAbort !== undefined) signal.removeEventListener('abort', onAbort)
      flight.waiters--
      if (flight.waiters === 0 && !flight.settled && flights.get(key) === flight) {
        // Nobody waits any more: the work stops, and a later request starts it anew.
        flights.delete(key)
        flight.controller.abort(signal.aborted ? signal.reason : new Error('nobody waits for this work'))
      }
    }
  }

  return {
    async run (key, signal, start) {
      const under = flights.get(key)
      if (under !== undefined) return { value: await join(key, under, signal), started: false }
      signal.throwIfAborted()
      const controller = new AbortController()
      const flight: Flight<T> = { promise: undefined as unknown as Promise<T>, waiters: 0, controller, settled: false }
      flight.promise = (async () => await start(controller.signal))()
      flights.set(key, flight)
      // Settled: the next request finds the answer where the work put it (the cache), not here.
      const settle = (): void => {
        flight.settled = true
        if (flights.get(key) === flight) flights.delete(key)
      }
      flight.promise.then(settle, settle)
      return { value: await join(key, flight, signal), started: true }
    },
    has: (key) => flights.has(key),
    get size () { return flights.size }
  }
}
