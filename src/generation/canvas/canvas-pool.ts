// Canvases reused from one picture to the next of the same size. A canvas keeps its
// pixels in native memory that V8 only counts (external memory): a new canvas per
// picture made V8 run full mark-compacts often enough to take a large share of the
// generation endpoints' CPU (docs/memory.md, "Worker threads"). A picture's
// canvas comes back here once encoded; reset() (as in HTML: the bitmap cleared to
// transparent, every drawing state back to its default) makes it as new. The pool serves
// bursts: a thread gone quiet empties it (the quiet hook of src/generation/pipeline/thread.ts), so a server at rest holds
// no canvas it is not drawing on.
import { type Canvas, createCanvas } from '@napi-rs/canvas'

/** Makes the canvas a picture is drawn on. */
export type NewCanvas = (width: number, height: number) => Canvas

export interface CanvasPool {
  acquire: NewCanvas
  /** Gives back a canvas whose picture is encoded; it must not be used after. */
  release (canvas: Canvas): void
  /** Lets go of every idle canvas: the thread has gone quiet, a burst is over. */
  clear (): void
}

/**
 * Idle canvases kept at most, counted as 4 bytes a pixel: eight 1024×450 welcome
 * canvases, more than WORKER_THREADS draws at once on a small machine, and what the pool
 * may keep during a burst of pictures of many sizes (docs/memory.md, "Worker threads").
 * A canvas larger than the bound is never kept.
 */
export const DEFAULT_POOL_BYTES = 16 * 1024 * 1024

export function createCanvasPool (maxBytes = DEFAULT_POOL_BYTES): CanvasPool {
  const idle = new Map<string, Canvas[]>()
  let idleBytes = 0
  const bytesOf = (canvas: Canvas): number => canvas.width * canvas.height * 4
  return {
    acquire (width, height) {
      const canvas = idle.get(`${width}x${height}`)?.pop()
      if (canvas === undefined) return createCanvas(width, height)
      idleBytes -= bytesOf(canvas)
      return canvas
    },
    release (canvas) {
      const bytes = bytesOf(canvas)
      // Beyond the bound the canvas is left to the garbage collector.
      if (idleBytes + bytes > maxBytes) return
      canvas.getContext('2d').reset()
      const key = `${canvas.width}x${canvas.height}`
      let list = idle.get(key)
      if (list === undefined) idle.set(key, list = [])
      list.push(canvas)
      idleBytes += bytes
    },
    clear () {
      idle.clear()
      idleBytes = 0
    }
  }
}
