// A full garbage collection at the two moments the heap is known to hold much garbage and
// nothing waits on the thread: once the server has started (the starter catalog drawn,
// the emoji font unpacked, the schemas compiled), and in the worker threads once the
// pool has had no job for a second (src/work/pool.ts sends each a 'collect' task). V8 collects when JavaScript allocates, and Node runs no idle-time
// collection, so what a burst left stays resident (with the native memory of its
// canvases and buffers) until the next burst (docs/memory.md).
// Available when Node runs with --expose-gc, as the start command runs the server
// (scripts/allocator.mjs); elsewhere (tests under tsx) this does nothing.

/** Collects now; false when the collector is not exposed. */
export function collectGarbage (): boolean {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) return false
  gc()
  return true
}

/**
 * A scavenge: V8's young generation only, about half a millisecond. Frees at once the
 * young objects that hold native memory V8 does not count (the PNG encoder's,
 * src/generation/draw.ts); false when the collector is not exposed.
 */
export function collectYoung (): boolean {
  const gc = (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc
  if (gc === undefined) return false
  gc({ type: 'minor' })
  return true
}

/** A quiet spell after which the worker threads collect: long enough that a burst of jobs never pays it. */
export const QUIET_COLLECT_MS = 1000

/**
 * Runs `action` once nothing has been busy for `quietMs`: call `busy()` when a job starts
 * and `idle()` when the last one ends. The timer never keeps the process alive.
 */
export function afterQuiet (action: () => void, quietMs = QUIET_COLLECT_MS): { busy: () => void, idle: () => void } {
  let timer: NodeJS.Timeout | undefined
  return {
    busy () { clearTimeout(timer) },
    idle () {
      clearTimeout(timer)
      timer = setTimeout(action, quietMs).unref()
    }
  }
}
