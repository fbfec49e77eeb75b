// A budget of bytes shared by jobs whose memory is known, or bounded, before they start
// (an image conversion's, from the pixels its header declares: src/conversion/image/
// convert.ts). The scheduler (scheduler.ts) bounds how many jobs run; this bounds what they
// hold together, so that two large pictures cannot take a small container's memory where
// two small ones would barely show.
//
// Jobs are served in arrival order: a large job waiting first is not overtaken by a
// stream of small ones. A job larger than the whole budget waits until nothing else holds
// any, then runs alone (the largest job is bounded elsewhere: IMAGE_MAX_PIXELS).

export interface MemoryBudget {
  /**
   * Resolves, once `bytes` fit beside what running jobs hold, to the function that gives
   * them back (safe to call more than once). When `signal` fires while waiting, gives up
   * and rejects with the signal's reason.
   */
  reserve (bytes: number, signal?: AbortSignal): Promise<() => void>
  /** Bytes held by running jobs now. */
  readonly held: number
  /** Jobs waiting for their bytes. */
  readonly waiting: number
}

export function createMemoryBudget (limit: number): MemoryBudget {
  let held = 0
  let running = 0
  interface Waiter { bytes: number, grant: () => void }
  const waiters: Waiter[] = []

  const fits = (bytes: number): boolean => running === 0 || held + bytes <= limit
  const take = (bytes: number): () => void => {
    held += bytes
    running++
    let given = false
    return () => {
      if (given) return
      given = true
      held -= bytes
      running--
      while (waiters.length > 0 && fits(waiters[0]!.bytes)) waiters.shift()!.grant()
    }
  }

  return {
    get held () { return held },
    get waiting () { return waiters.length },
    async reserve (bytes, signal) {
      signal?.throwIfAborted()
      if (waiters.length === 0 && fits(bytes)) return take(bytes)
      return await new Promise<() => void>((resolve, reject) => {
        const waiter: Waiter = {
          bytes,
          grant: () => {
            signal?.removeEventListener('abort', onAbort)
            resolve(take(bytes))
          }
        }
        const onAbort = (): void => {
          const at = waiters.indexOf(waiter)
          if (at >= 0) waiters.splice(at, 1)
          // The first waiter leaving may let the next ones in.
          while (waiters.length > 0 && fits(waiters[0]!.bytes)) waiters.shift()!.grant()
          reject(signal!.reason)
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        waiters.push(waiter)
      })
    }
  }
}
