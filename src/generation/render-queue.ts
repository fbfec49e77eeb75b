// Bounds the images drawn at once: drawing and encoding are CPU work, and an unbounded
// pile of renders would starve every other route of the event loop and the thread
// pool. Work beyond the bound waits in a queue; a full queue answers 503 at once.
import { AppError } from '../errors.js'

export const MAX_QUEUED_PER_SLOT = 16

export interface RenderQueue {
  run<T> (job: () => Promise<T>): Promise<T>
}

export function createRenderQueue (concurrency: number, maxQueued = concurrency * MAX_QUEUED_PER_SLOT): RenderQueue {
  let active = 0
  const waiting: Array<() => void> = []
  return {
    async run (job) {
      if (active >= concurrency) {
        if (waiting.length >= maxQueued) throw new AppError('RENDER_BUSY', undefined, { headers: { 'retry-after': '1' } })
        await new Promise<void>((resolve) => waiting.push(resolve))
      } else {
        active++
      }
      try {
        return await job()
      } finally {
        const next = waiting.shift()
        if (next) next()
        else active--
      }
    }
  }
}
