// Heavy work, admitted and run: one limiter in front of the worker pool for every kind
// of job (drawing, text conversion), so WORKER_THREADS bounds the jobs running — a
// thread still stopping after an abort included — and WORKER_THREADS × MAX_QUEUED_PER_SLOT
// the requests admitted; past that, 503 with Retry-After at once.
import type { ErrorCode } from '../errors.js'
import { type Metrics, NO_METRICS } from '../metrics/metrics.js'
import { createLimiter, type Limiter, type Owner } from './limiter.js'
import { createWorkPool, type WorkPool } from './pool.js'
import type { WorkResult, WorkTask } from './tasks.js'

/** Requests admitted per thread beyond the one running (fetching images or waiting); more get 503. */
export const MAX_QUEUED_PER_SLOT = 16

export interface Work {
  readonly pool: WorkPool
  readonly limiter: Limiter
  /** WORK_TIMEOUT_MS: a job's own time limit (0: none). */
  readonly timeoutMs: number
  /** Admits, waits for a slot and runs one task; the slot is held until the work has stopped. */
  run<K extends WorkTask['kind']> (task: Extract<WorkTask, { kind: K }>, options: { signal: AbortSignal, busy: ErrorCode, owner?: Owner }): Promise<Extract<WorkResult, { kind: K }>['value']>
  close (): Promise<void>
}

export function createWork (options: { threads: number, timeoutMs: number, dataDir: string, metrics?: Metrics }): Work {
  const pool = createWorkPool({ threads: options.threads, dataDir: options.dataDir, timeoutMs: options.timeoutMs })
  const limiter = createLimiter({
    concurrency: options.threads,
    queue: options.threads * MAX_QUEUED_PER_SLOT,
    retryAfterSeconds: 1,
    observer: (options.metrics ?? NO_METRICS).queue('work')
  })
  return {
    pool,
    limiter,
    timeoutMs: options.timeoutMs,
    async run (task, { signal, busy, owner }) {
      const ticket = limiter.admit(busy, owner)
      try {
        return await ticket.run(async () => await pool.run(task, signal), signal) as never
      } finally {
        ticket.release()
      }
    },
    close: async () => await pool.close()
  }
}
