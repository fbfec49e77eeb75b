// Buffers for upload bodies, reused from one conversion to the next.
//
// Why (measured, docs/performance.md "JPEG → JPEG"): every new body is a buffer outside
// V8's heap, and V8 answers each few dozen megabytes of such buffers with a full
// mark-compact of the event loop thread's heap. At 2 MP JPEG → JPEG, 400 conversions in
// a row started 16 mark-compacts (40–55 ms each) with a new buffer per body, and none
// with reused ones: the garbage collector's share of the thread went from about 4 ms a
// conversion to nothing.
//
// A body gets a view of exactly its length on a buffer of its size class (four classes
// per doubling, so at most a quarter of a buffer is unused) from 64 KB to
// MAX_POOLED_BUFFER_BYTES; larger bodies get a buffer of their own, as before. A buffer
// comes back only when nothing reads it any more (the request answered and its
// conversion stopped: routes.ts). At most MAX_POOLED_BYTES wait for reuse, and all of them
// are let go after IDLE_MS without a body taken, so a quiet server holds none.

/** Bodies above this have buffers of their own (large uploads are rare; their memory goes back at once). */
export const MAX_POOLED_BUFFER_BYTES = 4 * 1024 * 1024
/** What the buffers waiting for reuse may hold together. */
export const MAX_POOLED_BYTES = 16 * 1024 * 1024
/** Waiting buffers are let go after this long without a body taken. */
export const IDLE_MS = 1000
const SMALLEST_CLASS = 64 * 1024

export interface BodyBuffer {
  /** Exactly the bytes asked for. */
  bytes: Buffer
  /** Gives the buffer back for another body: call it once nothing reads `bytes` any more, or never. */
  recycle: () => void
}

export interface BodyBuffers {
  /** A buffer for a body of `length` bytes, its contents undefined until written. */
  take (length: number): BodyBuffer
  /** The bytes a body of `length` holds: its size class, or `length` itself when not pooled. */
  capacityFor (length: number): number
  /** Bytes waiting for reuse. */
  readonly pooledBytes: number
}

/** The size class of `length`: the next of 1, 1.25, 1.5 and 1.75 times a power of two, at least SMALLEST_CLASS. */
function sizeClass (length: number): number {
  if (length <= SMALLEST_CLASS) return SMALLEST_CLASS
  const power = 2 ** Math.floor(Math.log2(length))
  const step = power / 4
  return Math.ceil(length / step) * step
}

export function createBodyBuffers (options: { maxBufferBytes?: number, maxPooledBytes?: number, idleMs?: number } = {}): BodyBuffers {
  const maxBufferBytes = options.maxBufferBytes ?? MAX_POOLED_BUFFER_BYTES
  const maxPooledBytes = options.maxPooledBytes ?? MAX_POOLED_BYTES
  const idleMs = options.idleMs ?? IDLE_MS
  const free = new Map<number, Buffer[]>()
  let pooledBytes = 0
  let takenSinceTimer = false
  let timer: NodeJS.Timeout | undefined

  // One timer while buffers wait: it lets them go once a whole period passed without a take.
  const watchIdle = (): void => {
    if (timer !== undefined) return
    takenSinceTimer = false
    timer = setTimeout(() => {
      timer = undefined
      if (takenSinceTimer) {
        if (pooledBytes > 0) watchIdle()
        return
      }
      free.clear()
      pooledBytes = 0
    }, idleMs)
    timer.unref()
  }

  return {
    take (length) {
      if (length > maxBufferBytes) return { bytes: Buffer.allocUnsafe(length), recycle: () => {} }
      takenSinceTimer = true
      const capacity = sizeClass(length)
      const waiting = free.get(capacity)
      let whole = waiting?.pop()
      if (whole === undefined) whole = Buffer.allocUnsafeSlow(capacity)
      else pooledBytes -= capacity
      let recycled = false
      const buffer = whole
      return {
        bytes: buffer.subarray(0, length),
        recycle: () => {
          if (recycled || pooledBytes + capacity > maxPooledBytes) return
          recycled = true
          pooledBytes += capacity
          const list = free.get(capacity)
          if (list === undefined) free.set(capacity, [buffer])
          else list.push(buffer)
          watchIdle()
        }
      }
    },
    capacityFor (length) {
      return length > maxBufferBytes ? length : sizeClass(length)
    },
    get pooledBytes () { return pooledBytes }
  }
}
