// A full garbage collection at the two moments the heap is known to hold much garbage and
// nothing waits on the thread: once the server has started (the starter catalog drawn,
// the emoji font unpacked, the schemas compiled), and in a worker thread gone quiet
// after a job. V8 collects when JavaScript allocates, and Node runs no idle-time
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

/** A thread's quiet spell after which it collects: long enough that a burst of jobs never pays it. */
export const QUIET_COLLECT_MS = 1000

/**
 * Collects once the thread has had no job for `quietMs`: call `busy()` when a job starts
 * and `idle()` when it ends. `letGo` runs first, to drop what only served the burst. The
 * timer never keeps the thread alive.
 */
export function collectWhenQuiet (letGo: () => void = () => {}, quietMs = QUIET_COLLECT_MS): { busy: () => void, idle: () => void } {
  let timer: NodeJS.Timeout | undefined
  const quiet = (): void => {
    letGo()
    collectGarbage()
  }
  return {
    busy () { clearTimeout(timer) },
    idle () {
      clearTimeout(timer)
      timer = setTimeout(quiet, quietMs).unref()
    }
  }
}
