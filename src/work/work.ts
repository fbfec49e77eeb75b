// Heavy work, admitted and run: the engine every heavy job passes through, whatever
// feature it serves. It owns two sets of lanes, each with its own scheduler (scheduler.ts:
// admission by estimated time against the request's deadline, fair order between keys)
// and its own cost model (cost-model.ts: each job's time estimated from what it brings,
// the estimates following the times observed):
//
// - threads (WORKER_THREADS): JavaScript and canvas work in worker threads (pool.ts),
//   each job running thread code its feature hands in (thread.ts), so that WORKER_THREADS
//   bounds the jobs running, a thread still stopping after an abort included;
// - libvips (IMAGE_CONCURRENCY): sharp pipelines, which run on libuv's threads beside the
//   event loop, with the memory budget they share (IMAGE_MEMORY, memory-budget.ts).
//
// A job is run with an estimate (a kind and its units), a deadline (what is left of
// REQUEST_TIMEOUT_MS), a key (its owner in the fair order) and a signal; on its lane it
// may run thread code (threads) or reserve memory (libvips). Lanes are always taken
// before memory, and a libvips job never waits for a thread lane: waits cannot form a
// circle. Features name their kinds and priors; the composition root (src/app.ts) hands
// them in, so this folder imports no feature.
import type { ErrorCode } from '../errors.js'
import { type Metrics, NO_METRICS } from '../metrics/metrics.js'
import { type CostModel, type CostPrior, createCostModel } from './cost-model.js'
import { createMemoryBudget } from './memory-budget.js'
import { createWorkPool, type WorkPool } from './pool.js'
import { createScheduler, type Owner, type Scheduler } from './scheduler.js'
import type { ThreadCode } from './thread.js'

export { threadCode, type ThreadCode } from './thread.js'
export type { CostPrior } from './cost-model.js'

export type LaneSet = 'threads' | 'libvips'

/** The queue label of each lane set in the metrics (docs/operations.md): the names they had before they were one engine's. */
export const QUEUE_NAMES: Record<LaneSet, string> = { threads: 'work', libvips: 'image-conversion' }

/** What a job is, for its estimate: its kind (a prior handed to createWork) and its units (pixels, characters). */
export interface JobSize {
  kind: string
  units: number
}

export interface WorkOptions {
  /** Fires when the work is no longer wanted (the deadline, the client gone). */
  signal: AbortSignal
  busy: ErrorCode
  owner?: Owner
  /** Time the request has already taken, in ms: what is left of REQUEST_TIMEOUT_MS bounds its wait. */
  elapsedMs?: number
}

/** A thread lane, held by a job. */
export interface ThreadLane {
  /**
   * Runs thread code on `input` in a worker thread, stopped by the job's signal and by
   * WORK_TIMEOUT_MS; settles only once the thread has stopped (pool.ts).
   */
  thread<I, O> (code: ThreadCode<I, O>, input: I, transfer?: ArrayBuffer[]): Promise<O>
}

/** A libvips lane, held by a job. */
export interface LibvipsLane {
  /**
   * Reserves `bytes` of IMAGE_MEMORY, waiting while they do not fit beside what other
   * jobs hold; held until the lane is given back. Rejects with `signal`'s reason when it
   * fires while waiting.
   */
  reserve (bytes: number, signal?: AbortSignal): Promise<void>
}

export interface LaneStats {
  lanes: number
  running: number
  queued: number
  /** How long a new job of a new owner would wait, in ms. */
  drainMs: number
  refused: number
  shed: number
}

export interface Work {
  /** WORK_TIMEOUT_MS: a thread job's own time limit (0: none). */
  readonly timeoutMs: number
  /**
   * Admits `job` on a lane of `lanes` (or throws the busy error at once), waits for its
   * turn and runs `work` on it; the lane is held until `work` has settled (a thread's
   * work until the thread has stopped). Its observed time corrects its kind's estimates.
   */
  run<T> (lanes: 'threads', job: JobSize, options: WorkOptions, work: (lane: ThreadLane) => Promise<T>): Promise<T>
  run<T> (lanes: 'libvips', job: JobSize, options: WorkOptions, work: (lane: LibvipsLane) => Promise<T>): Promise<T>
  /** One thread task as a job of its own: run('threads') around lane.thread(). */
  thread<I, O> (code: ThreadCode<I, O>, input: I, job: JobSize, options: WorkOptions): Promise<O>
  /** The expected running time of `job` on one lane, in ms. */
  estimateMs (lanes: LaneSet, job: JobSize): number
  readonly stats: Record<LaneSet, LaneStats> & {
    /** Worker threads alive now, stopping ones included. */
    liveThreads: number
    /** Thread jobs a thread has started and not finished. */
    startedThreadJobs: number
    /** IMAGE_MEMORY held by running libvips jobs, in bytes. */
    memoryHeld: number
  }
  close (): Promise<void>
}

export interface CreateWorkOptions {
  /** WORKER_THREADS. */
  threads: number
  /** WORK_TIMEOUT_MS. */
  timeoutMs: number
  /** REQUEST_TIMEOUT_MS (0 or absent: none). */
  requestTimeoutMs?: number
  /** DATA_DIR, handed to the threads. */
  dataDir: string
  /** IMAGE_CONCURRENCY and IMAGE_MEMORY. */
  libvips: { lanes: number, memoryBytes: number }
  /** Each lane set's kinds and their priors (measured on a 2-core machine). */
  priors: Record<LaneSet, Record<string, CostPrior>>
  metrics?: Metrics
  clock?: () => number
}

export function createWork (options: CreateWorkOptions): Work {
  const pool: WorkPool = createWorkPool({ threads: options.threads, dataDir: options.dataDir, timeoutMs: options.timeoutMs })
  const memory = createMemoryBudget(options.libvips.memoryBytes)
  const clock = options.clock ?? (() => performance.now())
  const metrics = options.metrics ?? NO_METRICS
  const requestTimeoutMs = options.requestTimeoutMs ?? 0
  const sets: Record<LaneSet, { scheduler: Scheduler, costs: CostModel<string> }> = {
    threads: { scheduler: createScheduler({ lanes: options.threads, clock, observer: metrics.queue(QUEUE_NAMES.threads) }), costs: createCostModel(options.priors.threads) },
    libvips: { scheduler: createScheduler({ lanes: options.libvips.lanes, clock, observer: metrics.queue(QUEUE_NAMES.libvips) }), costs: createCostModel(options.priors.libvips) }
  }

  async function run<T> (lanes: LaneSet, { kind, units }: JobSize, { signal, busy, owner, elapsedMs = 0 }: WorkOptions, work: (lane: ThreadLane & LibvipsLane) => Promise<T>): Promise<T> {
    const { scheduler, costs } = sets[lanes]
    const remainingMs = requestTimeoutMs > 0 ? requestTimeoutMs - elapsedMs : undefined
    return await scheduler.run({ owner, estimateMs: costs.estimate(kind, units), remainingMs, signal, busyCode: busy }, async () => {
      const startedAt = clock()
      const releases: Array<() => void> = []
      const lane: ThreadLane & LibvipsLane = {
        thread: async (code, input, transfer) => await pool.run(code, input, signal, transfer),
        async reserve (bytes, reserveSignal) {
          releases.push(await memory.reserve(bytes, reserveSignal))
        }
      }
      try {
        const result = await work(lane)
        costs.observe(kind, units, clock() - startedAt)
        return result
      } finally {
        for (const release of releases) release()
      }
    })
  }

  const laneStats = (lanes: LaneSet): LaneStats => {
    const { running, queued, drainMs, refused, shed } = sets[lanes].scheduler.stats
    return { lanes: sets[lanes].scheduler.lanes, running, queued, drainMs, refused, shed }
  }

  return {
    timeoutMs: options.timeoutMs,
    run: run as Work['run'],
    thread: async (code, input, job, opts) => await run('threads', job, opts, async (lane) => await lane.thread(code, input)),
    estimateMs: (lanes, job) => sets[lanes].costs.estimate(job.kind, job.units),
    get stats () {
      return {
        threads: laneStats('threads'),
        libvips: laneStats('libvips'),
        liveThreads: pool.liveThreads,
        startedThreadJobs: pool.startedJobs,
        memoryHeld: memory.held
      }
    },
    close: async () => await pool.close()
  }
}
