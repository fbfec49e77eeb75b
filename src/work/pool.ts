// The worker pool heavy work runs in: canvas drawing (/gen) and text conversion
// (/convert/html-markdown, /convert/markdown-html) are synchronous JavaScript and native
// calls that would otherwise hold the event loop (and every other request) for as long
// as they run. piscina (the Node team's pool) runs them in worker threads; a job is
// cancelled with an AbortSignal, which terminates the thread running it. The pool knows
// no feature: a job names its thread code (thread.ts, ThreadCode), which piscina runs by
// file and export name; each thread starts on worker.ts, the pool's own tasks.
//
// A terminated thread stops only when its current native call returns (a canvas blur,
// say), so "aborted" is not "stopped": run() settles only once the thread that ran an
// aborted job has exited, and the caller's admission slot stays held until then. That
// is what keeps the documented bound (WORKER_THREADS jobs at once) true under any load.
import { once } from 'node:events'
import v8 from 'node:v8'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Worker } from 'node:worker_threads'
import * as workerThreads from 'node:worker_threads'
import { Piscina } from 'piscina'
import { AppError, type ErrorCode } from '../errors.js'
import { afterQuiet } from '../runtime/garbage.js'
import type { ThreadAnswer, ThreadCode } from './thread.js'

/**
 * Whether a buffer cannot be moved to a thread: Node 21+ refuses the whole message
 * (DataCloneError, "Cannot transfer object of unsupported type") when the transfer list
 * holds an ArrayBuffer marked untransferable, as every buffer a native addon allocates is
 * (sharp's decoded pixels). Such a buffer is copied instead, as Node 20 did silently;
 * Node 20 has no way to ask (isMarkedAsUntransferable is 21+) and needs none.
 */
const untransferable = (workerThreads as { isMarkedAsUntransferable?: (value: object) => boolean }).isMarkedAsUntransferable ?? (() => false)

export interface WorkPoolOptions {
  /** Threads at most (WORKER_THREADS). */
  threads: number
  /**
   * The last thread exits once the pool has had no job for this long: an idle worker
   * holds its own V8 heap, the fonts and the drawn art (docs/memory.md, "Worker
   * threads"), so a server at rest keeps none.
   */
  idleTimeoutMs?: number
  /** Any other thread exits after this long without a job (DEFAULT_RETIRE_MS). */
  retireMs?: number
  /** DATA_DIR, for operator fonts and assets the threads load (their workerData.dataDir). */
  dataDir: string
  /** WORK_TIMEOUT_MS: a job running longer is stopped (0: only the caller's signal stops it). */
  timeoutMs: number
}

export interface WorkPool {
  /**
   * Runs thread code on `input` in a worker. Rejects with the task's own AppError, or
   * with the signal's reason when `signal` fires first, but only after the work has
   * actually stopped.
   */
  run<I, O> (code: ThreadCode<I, O>, input: I, signal?: AbortSignal, transfer?: ArrayBuffer[]): Promise<O>
  /** Runs the quiet collection in an idle thread (what the pool sends each thread once it has been quiet). */
  collect (): Promise<void>
  readonly threads: number
  /** Worker threads alive now, stopping ones included. */
  readonly liveThreads: number
  /** Jobs a thread has started and not finished (queued ones excluded). */
  readonly startedJobs: number
  close (): Promise<void>
}

/** Each worker's V8 old generation at most: a runaway job fails alone instead of taking the process's memory. */
export const WORKER_HEAP_MB = 384

/**
 * Each worker's young generation (two 4 MB semi-spaces and the new large objects). The
 * main thread runs with 1 MB semi-spaces (scripts/allocator.mjs): its request path makes
 * little garbage and keeps its rate with them, while text conversion and drawing make a
 * lot and slow down with so small a young generation (docs/memory.md, "V8's young
 * generation").
 */
export const WORKER_YOUNG_MB = 12

/**
 * A process-wide --max-semi-space-size would size the workers' young generation too,
 * over their resourceLimits; V8 reads it only when an isolate is created, so clearing it
 * here (after the main thread's was made) leaves the main thread's as it is and lets
 * WORKER_YOUNG_MB apply to the threads started from now on.
 */
function letWorkersSizeTheirYoungGeneration (): void {
  if (process.execArgv.some((flag) => flag.startsWith('--max-semi-space-size')) || process.env.NODE_OPTIONS?.includes('--max-semi-space-size')) {
    v8.setFlagsFromString('--max-semi-space-size=0')
  }
}

/**
 * How long a job that has started may run on once its caller's signal fires (the client
 * gone, the request's deadline) before its thread is stopped. Stopping a thread is the
 * only way to stop its job, and the next job then waits for a new thread that loads and
 * compiles its code again: after a load of 10 KB Markdown documents ended with its
 * connections closed, each of the two threads was stopped a few milliseconds before its
 * job would have ended, and the next requests ran on cold threads at a tenth of the rate
 * (bench/bare-route.bench.ts, docs/performance.md). A long job (a drawing, a freeze) is
 * still stopped, this much later.
 */
export const ABORT_GRACE_MS = 100

/** Idle workers exit after this; the first job after a quiet spell starts one, and loads what its kind needs. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000

/**
 * The threads a burst started beyond the first exit after this long without a job: each
 * holds 10 to 15 MB once it has drawn, and a burst's tail is over well before; the first
 * stays for DEFAULT_IDLE_TIMEOUT_MS, so that pictures a few seconds apart never pay a
 * thread's start (about 400 ms: the canvas library and the fonts; docs/memory.md,
 * "Worker threads").
 */
export const DEFAULT_RETIRE_MS = 10_000

/** .js in dist/, .ts under tsx (tests, `npm run dev`), where the thread needs tsx's loader too. */
const EXT = path.extname(fileURLToPath(import.meta.url))

/** The worker entry beside this module. */
function workerEntry (): { filename: string, execArgv: string[] } {
  const filename = path.join(path.dirname(fileURLToPath(import.meta.url)), `worker${EXT}`)
  return { filename, execArgv: EXT === '.ts' ? ['--import', 'tsx'] : [] }
}

/** The file of thread code: its module as written (`./thread.js`) is the .ts source under tsx. */
const threadFiles = new Map<string, string>()
function threadFile (module: URL): string {
  let file = threadFiles.get(module.href)
  if (file === undefined) {
    file = fileURLToPath(module)
    if (EXT === '.ts') file = file.replace(/\.js$/, '.ts')
    threadFiles.set(module.href, file)
  }
  return file
}

export function createWorkPool (options: WorkPoolOptions): WorkPool {
  const { filename, execArgv } = workerEntry()
  letWorkersSizeTheirYoungGeneration()
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS
  const retireMs = Math.min(options.retireMs ?? DEFAULT_RETIRE_MS, idleTimeoutMs)
  const piscina = new Piscina({
    // Loaded as each thread starts (its priority); features' tasks name their own file.
    filename,
    name: 'stay',
    execArgv,
    minThreads: 0,
    maxThreads: options.threads,
    // Every idle thread exits after retireMs; the pool keeps one longer (stayOne, below).
    idleTimeout: retireMs,
    // Admission (src/work/scheduler.ts) bounds what reaches the pool: piscina's own queue
    // never holds more than the limiter let through.
    maxQueue: Infinity,
    concurrentTasksPerWorker: 1,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    workerData: { dataDir: options.dataDir }
  })
  // Thread id → its exit, for every live worker: an aborted job waits on its thread's.
  const exits = new Map<number, Promise<unknown>>()
  // Threads piscina is terminating (an aborted job's): alive until their exit.
  const stopping = new Set<number>()
  piscina.on('workerDestroy', (info: { id: number }) => {
    if (exits.has(info.id)) stopping.add(info.id)
  })
  piscina.on('workerCreate', (info: { id: number }) => {
    // Read now: the interface reports the thread's id live, -1 once it has exited.
    const id = info.id
    const worker = (piscina.threads as Worker[]).find((w) => w.threadId === id)
    if (worker === undefined) return
    const exited = once(worker, 'exit').catch(() => undefined).finally(() => {
      exits.delete(id)
      stopping.delete(id)
    })
    exits.set(id, exited)
  })
  // A worker that dies (out of memory, a native crash) fails its job; the pool starts another.
  piscina.on('error', () => {})

  // The started flags of the jobs handed to piscina and not yet settled.
  const inFlight = new Set<Int32Array>()
  let closed = false
  // The pool's own tasks ('collect', 'stay') go out one round at a time, and only while
  // no job is in flight, so that each is handed straight to an idle thread from here. One
  // that waited in piscina's queue would be handed over from within the handler of another
  // task's answer, where piscina clears the thread's idle timer a microtask after posting
  // (piscina 5.3, WorkerInfo.postTask): a task that quick can be answered, and the timer
  // set again, before that microtask runs, and the thread then never retires. The
  // work-pool test's "after a burst" case saw it when a 'stay' met the quiet collection.
  let chores: Promise<void> | undefined
  const chore = (send: () => Array<Promise<unknown>>): void => {
    const round: Promise<void> = (chores ?? Promise.resolve()).then(async () => {
      if (closed || inFlight.size > 0) return
      await Promise.allSettled(send())
    })
    chores = round
    void round.finally(() => { if (chores === round) chores = undefined })
  }
  const poolTask = async (name: 'collect' | 'stay'): Promise<unknown> => await piscina.run(undefined, { name })

  // Once no job has run for QUIET_COLLECT_MS, each live thread collects (src/runtime/garbage.ts).
  // Sent from here: an idle thread waits in Atomics.wait (piscina's fast hand-over) and
  // runs no timer of its own. One task per live thread, so that each idle one takes one.
  const quiet = afterQuiet(() => {
    chore(() => Array.from({ length: exits.size - stopping.size }, async () => await poolTask('collect')))
  })

  // One thread stays until the pool has been idle for idleTimeoutMs: piscina gives a job to
  // the first idle thread in the order they started, so a 'stay' task sent every half
  // retireMs reaches the same thread each time and resets its idle timer, while the
  // threads that served the burst beside it run out theirs. Piscina has one idle timeout
  // for all threads; ending a thread from here instead could hand it a job as it exits.
  // A 'stay' due while a collection round is out is skipped: that round reset the timer.
  let stayTimer: NodeJS.Timeout | undefined
  const stayOne = (): void => {
    clearInterval(stayTimer)
    if (retireMs >= idleTimeoutMs) return
    // The last 'stay' leaves retireMs of the idle timeout to the thread's own timer.
    let stays = Math.floor((idleTimeoutMs - retireMs) / (retireMs / 2))
    stayTimer = setInterval(() => {
      if (closed || inFlight.size > 0 || exits.size - stopping.size === 0 || stays-- <= 0) {
        clearInterval(stayTimer)
        return
      }
      if (chores === undefined) chore(() => [poolTask('stay')])
    }, retireMs / 2).unref()
  }

  return {
    threads: options.threads,
    get liveThreads () { return exits.size },
    get startedJobs () {
      let started = 0
      for (const flag of inFlight) if (Atomics.load(flag, 0) !== 0) started++
      return started
    },
    collect: async () => { await poolTask('collect') },
    async run (code, input, signal, transfer) {
      // The job's own time limit starts now: the caller holds its slot, so waiting for
      // one never counts against it.
      const controller = new AbortController()
      // The worker writes its thread id here when it starts the task.
      const startedOn = new Int32Array(new SharedArrayBuffer(4))
      // A job not yet started leaves piscina's queue at once; a started one gets
      // ABORT_GRACE_MS to end on its own before its thread is stopped.
      let grace: NodeJS.Timeout | undefined
      const forward = (): void => {
        if (Atomics.load(startedOn, 0) === 0) controller.abort(signal!.reason)
        else grace = setTimeout(() => controller.abort(signal!.reason), ABORT_GRACE_MS)
      }
      if (signal?.aborted === true) controller.abort(signal.reason)
      else signal?.addEventListener('abort', forward, { once: true })
      const timer = options.timeoutMs > 0
        ? setTimeout(() => controller.abort(new AppError('TIMEOUT', `The work took longer than ${options.timeoutMs} ms and was stopped: send a smaller request`, { details: { limitMs: options.timeoutMs } })), options.timeoutMs)
        : undefined
      inFlight.add(startedOn)
      quiet.busy()
      clearInterval(stayTimer)
      let result: ThreadAnswer<unknown>
      try {
        const movable = transfer?.filter((buffer) => !untransferable(buffer))
        result = await piscina.run({ input, startedOn }, { filename: threadFile(code.module), name: code.name, signal: controller.signal, ...(movable === undefined || movable.length === 0 ? {} : { transferList: movable }) }) as ThreadAnswer<unknown>
      } catch (err) {
        if (controller.signal.aborted) {
          // The thread that ran the job, and any piscina is stopping (a job given to a
          // thread that had not started it yet has not written its id).
          const thread = Atomics.load(startedOn, 0)
          await Promise.all([...new Set([thread, ...stopping])].map(async (id) => await exits.get(id)))
          const reason: unknown = controller.signal.reason
          throw reason instanceof AppError ? reason : new AppError('TIMEOUT')
        }
        if (signal?.aborted === true) throw signal.reason instanceof AppError ? signal.reason : new AppError('TIMEOUT')
        throw workerFailure(err)
      } finally {
        inFlight.delete(startedOn)
        if (inFlight.size === 0) {
          quiet.idle()
          stayOne()
        }
        clearTimeout(timer)
        clearTimeout(grace)
        signal?.removeEventListener('abort', forward)
      }
      // Ended within its grace: the caller's signal still decides, as if it had been stopped.
      if (signal?.aborted === true) throw signal.reason instanceof AppError ? signal.reason : new AppError('TIMEOUT')
      if (!result.ok) throw new AppError(result.code as ErrorCode, result.message, result.details === undefined ? undefined : { details: result.details })
      return result.value as never
    },
    async close () {
      closed = true
      quiet.busy()
      clearInterval(stayTimer)
      await piscina.destroy()
    }
  }
}

function workerFailure (err: unknown): Error {
  const code = (err as { code?: string }).code
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new AppError('WORK_TOO_LARGE', 'The request needed more memory than one job may use and was stopped: send a smaller request', { cause: err })
  }
  return err instanceof Error ? err : new Error(String(err))
}
