// A full garbage collection at the moments the heap is known to hold much garbage and
// nothing waits on the thread: once the server has started (the starter catalog drawn,
// the emoji font unpacked, the schemas compiled), on the event loop once requests have
// stopped for half a second after the heap grew (createQuietCollector), and in the worker
// threads once the pool has had no job for as long (src/work/pool.ts sends each a
// 'collect' task). V8 collects when JavaScript allocates, and Node runs no idle-time
// collection, so what a burst left stays resident (with the native memory of its
// canvases and buffers) until the next burst, or until V8's memory reducer runs, 8 s
// after its last full collection at the earliest (docs/memory.md).
// Available when Node runs with --expose-gc, as the start command runs the server
// (scripts/allocator.mjs); elsewhere (tests under tsx) this does nothing.
import v8 from 'node:v8'

/**
 * Collects now; false when the collector is not exposed. `compact`: every page is
 * compacted, so that the pages the garbage was on go back to the system. V8's gc() frees
 * the objects but keeps partly used pages: on the event loop after one request of each
 * kind, 8 MB of garbage freed by gc() left the heap at 44 MB and the RSS where it was;
 * compacted, the heap came to 36 MB and the RSS fell by 8 MB, as V8's memory reducer
 * makes it seconds later (docs/memory.md). The flag is V8's, set for this one collection.
 */
export function collectGarbage (options: { compact?: boolean } = {}): boolean {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) return false
  if (options.compact !== true) {
    gc()
    return true
  }
  v8.setFlagsFromString('--compact-on-every-full-gc')
  try {
    gc()
  } finally {
    v8.setFlagsFromString('--no-compact-on-every-full-gc')
  }
  return true
}

/**
 * A scavenge: V8's young generation only, about half a millisecond. Frees at once the
 * young objects that hold native memory V8 does not count (the PNG encoder's,
 * src/generation/canvas/draw.ts); false when the collector is not exposed.
 */
export function collectYoung (): boolean {
  const gc = (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc
  if (gc === undefined) return false
  gc({ type: 'minor' })
  return true
}

/** A quiet spell after which the event loop and the worker threads collect: longer than the gaps within a burst, short enough that what the collection frees is back with the system 2 s after the last request (docs/memory.md). */
export const QUIET_COLLECT_MS = 500

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

/**
 * Growth of the event loop's heap (the memory it holds, V8's physical size) since its
 * last collection past which a quiet spell collects it: one request of each kind grows
 * it by about 8 MB, a single small request by nothing or a page, so that a trickle of
 * requests never pays a collection per quiet spell.
 */
export const QUIET_COLLECT_GROWTH_BYTES = 4 * 1024 * 1024

export interface RequestActivity {
  /** A request started or ended (src/access/request-gate.ts): a few nanoseconds, no timer per call. */
  mark (): void
}

export interface QuietCollector extends RequestActivity {
  /** Collects (compacting) now and takes the heap as it is then as the new baseline. */
  collectNow (): void
  stop (): void
}

/**
 * The event loop's collection after requests: once no request has started or ended for
 * `quietMs` and the heap has grown by `growthBytes` since the last collection, a
 * compacting collection (about 30 to 40 ms on the event loop, once per quiet spell at
 * most). One timer at a time, armed by the first request after a quiet spell.
 */
export function createQuietCollector (options: {
  quietMs?: number
  growthBytes?: number
  now?: () => number
  heapSize?: () => number
  collect?: () => boolean
} = {}): QuietCollector {
  const quietMs = options.quietMs ?? QUIET_COLLECT_MS
  const growthBytes = options.growthBytes ?? QUIET_COLLECT_GROWTH_BYTES
  const now = options.now ?? (() => performance.now())
  const heapSize = options.heapSize ?? (() => v8.getHeapStatistics().total_physical_size)
  const collect = options.collect ?? (() => collectGarbage({ compact: true }))
  let last = 0
  let timer: NodeJS.Timeout | undefined
  let baseline = heapSize()
  let stopped = false
  const arm = (ms: number): void => {
    timer = setTimeout(check, ms)
    timer.unref()
  }
  function check (): void {
    timer = undefined
    if (stopped) return
    const quietFor = now() - last
    if (quietFor < quietMs) return arm(quietMs - quietFor)
    const size = heapSize()
    // V8 shrank the heap meanwhile (its memory reducer): growth counts from there.
    if (size < baseline) baseline = size
    else if (size - baseline >= growthBytes) collector.collectNow()
  }
  const collector: QuietCollector = {
    mark () {
      last = now()
      if (timer === undefined && !stopped) arm(quietMs)
    },
    collectNow () {
      collect()
      baseline = heapSize()
    },
    stop () {
      stopped = true
      clearTimeout(timer)
      timer = undefined
    }
  }
  return collector
}
