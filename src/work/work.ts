// Heavy work, admitted and run: one scheduler (scheduler.ts) in front of the worker pool
// for every kind of job (drawing, previews, text conversion), so that WORKER_THREADS
// bounds the jobs running — a thread still stopping after an abort included — and the
// time queued ahead of a request, not a count of places, decides whether it is served.
// Each job's running time is estimated from what it brings (cost-model.ts) and the
// estimate follows the times observed.
import type { ErrorCode } from '../errors.js'
import { type Metrics, NO_METRICS } from '../metrics/metrics.js'
import { type CostModel, type CostPrior, createCostModel } from './cost-model.js'
import { createWorkPool, type WorkPool } from './pool.js'
import { createScheduler, type Owner, type Scheduler } from './scheduler.js'
import type { JobTask, WorkResult, WorkTask } from './tasks.js'

export type WorkKind = 'draw' | 'preview' | 'html-markdown' | 'markdown-html' | 'gif-webp'

/**
 * Running time of each kind on one thread of a 2-core machine (bench/bursts.bench.ts):
 * a picture by the source pixels it decodes (a welcome banner without images about
 * 25 ms), text by its characters (10 KB of Markdown about 0.8 ms, 14 KB of HTML 0.4 ms).
 */
export const WORK_PRIORS: Record<WorkKind, CostPrior> = {
  draw: { baseMs: 25, msPerUnit: 0.00003 },
  preview: { baseMs: 40, msPerUnit: 0 },
  'html-markdown': { baseMs: 0.05, msPerUnit: 0.00003 },
  'markdown-html': { baseMs: 0.05, msPerUnit: 0.00008 },
  // A gif's animated WebP (src/gifs/webp.ts), by the pixels of all its frames: run by
  // libuv's threads, not the pool, but admitted here like the rest of the heavy work.
  'gif-webp': { baseMs: 10, msPerUnit: 0.00025 }
}

export interface WorkOptions {
  /** Fires when the work is no longer wanted (the deadline, the client gone). */
  signal: AbortSignal
  busy: ErrorCode
  owner?: Owner
  /** Time the request has already taken, in ms: what is left of REQUEST_TIMEOUT_MS bounds its wait. */
  elapsedMs?: number
}

export interface Work {
  readonly pool: WorkPool
  readonly scheduler: Scheduler
  readonly costs: CostModel<WorkKind>
  /** WORK_TIMEOUT_MS: a job's own time limit (0: none). */
  readonly timeoutMs: number
  /** Admits, waits for its turn and runs one task; the lane is held until the work has stopped. */
  run<K extends JobTask['kind']> (task: Extract<WorkTask, { kind: K }>, options: WorkOptions): Promise<Extract<WorkResult, { kind: K }>['value']>
  /**
   * Admits and runs `job` (work that ends in the pool, with steps of its own before it)
   * as a job of `kind` with `units`; its observed time corrects the estimates.
   */
  schedule<T> (kind: WorkKind, units: number, options: WorkOptions, job: () => Promise<T>): Promise<T>
  close (): Promise<void>
}

/** The units a task brings, as its kind's prior counts them. */
function unitsOf (task: JobTask): number {
  switch (task.kind) {
    case 'html-markdown':
    case 'markdown-html':
      return task.input.length
    default:
      return 0
  }
}

export function createWork (options: { threads: number, timeoutMs: number, requestTimeoutMs?: number, dataDir: string, metrics?: Metrics, clock?: () => number }): Work {
  const pool = createWorkPool({ threads: options.threads, dataDir: options.dataDir, timeoutMs: options.timeoutMs })
  const clock = options.clock ?? (() => performance.now())
  const scheduler = createScheduler({ lanes: options.threads, clock, observer: (options.metrics ?? NO_METRICS).queue('work') })
  const costs = createCostModel(WORK_PRIORS)
  const requestTimeoutMs = options.requestTimeoutMs ?? 0

  async function schedule<T> (kind: WorkKind, units: number, { signal, busy, owner, elapsedMs = 0 }: WorkOptions, job: () => Promise<T>): Promise<T> {
    const remainingMs = requestTimeoutMs > 0 ? requestTimeoutMs - elapsedMs : undefined
    return await scheduler.run({ owner, estimateMs: costs.estimate(kind, units), remainingMs, signal, busyCode: busy }, async () => {
      const startedAt = clock()
      const result = await job()
      costs.observe(kind, units, clock() - startedAt)
      return result
    })
  }

  return {
    pool,
    scheduler,
    costs,
    timeoutMs: options.timeoutMs,
    schedule,
    async run (task, opts) {
      const t = task as JobTask
      return await schedule(t.kind, unitsOf(t), opts, async () => await pool.run(t, opts.signal)) as never
    },
    close: async () => await pool.close()
  }
}
