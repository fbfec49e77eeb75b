// The one admission point for heavy work (image conversion, drawing, text conversion):
// capacity is counted in time, not in slots. Every job brings an estimate of how long it
// will run on one lane (cost-model.ts) and the time left before its request's deadline.
//
// - Admitted when it can finish in time: its expected start, given the work queued ahead
//   of it in fair order, plus its own estimate, lies within its deadline. Otherwise it is
//   refused at once (503) with a Retry-After of the time that work needs to drain, so a
//   retry after it finds room under the same load.
// - Served fairly between owners (API keys) by start-time fair queuing (Goyal, Vin and
//   Cheng, SIGCOMM 1996), weighted by estimated cost: each owner's jobs queue in arrival
//   order, and the next to run is the queued head with the smallest start tag. A burst of
//   one key delays another key's job by about one job per lane; a lone key uses every lane.
// - Work that would miss its deadline is shed before it runs, first from the owner with
//   the most queued (Facebook's "Fail at Scale": the queue's delay is the overload signal).
//
// The expected wait of a new job of owner K is the fluid fair-share bound: the running
// jobs' remaining time, K's own queue, and from every other owner at most as much as K
// will have queued with this job (an owner queued behind K's share waits for K, not the
// reverse), divided by the lanes. docs/admission.md says what that means for a key.
import { AppError, type ErrorCode } from '../errors.js'

/** Whom a job is for (an API key's id); undefined: an owner of its own. */
export type Owner = number | string | undefined

export interface JobOptions {
  owner: Owner
  /** Expected running time on one lane, in ms (cost-model.ts). */
  estimateMs: number
  /** Time left before the request's deadline, in ms; undefined: none. */
  remainingMs?: number
  /** Fires when nobody waits for the answer any more: a queued job leaves the queue. */
  signal?: AbortSignal
  /** The error code of a refusal (503): the route's own busy code. */
  busyCode?: ErrorCode
}

/** What the scheduler reports as it works (Prometheus gauges and counters). */
export interface SchedulerObserver {
  changed (running: number, waiting: number): void
  rejected (): void
}

export interface SchedulerStats {
  running: number
  queued: number
  /** Estimated ms of work running (what is left of it) and queued, over all lanes. */
  backlogMs: number
  /** backlogMs / lanes: how long a new job of a new owner would wait. */
  drainMs: number
  /** Queued ms per owner with work queued. */
  queuedMsByOwner: Map<Owner, number>
  refused: number
  shed: number
}

export interface Scheduler {
  /**
   * Admits `work` (or throws the busy error at once), waits for its turn and runs it; the
   * lane is held until `work` settles. A job that can no longer finish by its deadline
   * while it waits is shed with the busy error; one whose signal fires leaves the queue
   * with the signal's reason.
   */
  run<T> (options: JobOptions, work: () => Promise<T>): Promise<T>
  /** The expected wait of a job of `owner` costing `estimateMs` if it came now, in ms. */
  expectedWaitMs (owner: Owner, estimateMs: number): number
  readonly lanes: number
  readonly stats: SchedulerStats
}

export interface SchedulerOptions {
  /** Jobs running at once (threads, or libvips pipelines: about one per core). */
  lanes: number
  /** Milliseconds, monotonic (injected in tests). */
  clock?: () => number
  busyCode?: ErrorCode
  observer?: SchedulerObserver
}

/** The shortest Retry-After, in seconds: a refusal never asks for an immediate retry. */
export const MIN_RETRY_AFTER_SECONDS = 1

interface Job {
  owner: Owner | symbol
  estimateMs: number
  deadline: number
  start: number
  finish: number
  busyCode: ErrorCode
  begin: () => void
  fail: (err: unknown) => void
}

interface Running { estimateMs: number, startedAt: number }

export function createScheduler (options: SchedulerOptions): Scheduler {
  const lanes = Math.max(1, options.lanes)
  const clock = options.clock ?? (() => performance.now())
  const defaultBusy = options.busyCode ?? 'SERVICE_UNAVAILABLE'
  const running = new Set<Running>()
  /** Each owner's queued jobs in arrival order (owners with none are not kept). */
  const queues = new Map<Owner | symbol, Job[]>()
  /** Each queued owner's total estimate, in ms. */
  const queuedMs = new Map<Owner | symbol, number>()
  /** The finish tag of each owner's last job started or queued (pruned once virtual time has passed it). */
  const lastFinish = new Map<Owner | symbol, number>()
  /** The scheduler's virtual time: the start tag of the job last dispatched. */
  let virtualTime = 0
  let queued = 0
  let refused = 0
  let shed = 0
  const changed = (): void => options.observer?.changed(running.size, queued)

  const runningLeftMs = (now: number): number => {
    let left = 0
    for (const job of running) left += Math.max(0, job.estimateMs - (now - job.startedAt))
    return left
  }

  function waitMs (owner: Owner | symbol, estimateMs: number, now: number): number {
    if (running.size < lanes && queued === 0) return 0
    const own = (queuedMs.get(owner) ?? 0) + estimateMs
    let ahead = runningLeftMs(now) + own - estimateMs
    for (const [other, ms] of queuedMs) if (other !== owner) ahead += Math.min(ms, own)
    return ahead / lanes
  }

  function busy (code: ErrorCode, wait: number, estimateMs: number, remainingMs: number): AppError {
    // After this long, the work ahead has drained enough for the job to fit its deadline.
    const retryAfter = Math.max(MIN_RETRY_AFTER_SECONDS, Math.ceil((wait + estimateMs - remainingMs) / 1000))
    return new AppError(code, `The server has about ${(wait / 1000).toFixed(1)} s of work queued ahead of this request, and its deadline leaves ${(Math.max(0, remainingMs) / 1000).toFixed(1)} s: retry after ${retryAfter} s`, {
      headers: { 'retry-after': String(retryAfter) },
      details: { retryAfter, expectedWaitMs: Math.round(wait), estimateMs: Math.round(estimateMs) }
    })
  }

  function enqueue (job: Job): void {
    job.start = Math.max(virtualTime, lastFinish.get(job.owner) ?? 0)
    job.finish = job.start + job.estimateMs
    if (typeof job.owner !== 'symbol') lastFinish.set(job.owner, job.finish)
    const queue = queues.get(job.owner)
    if (queue === undefined) queues.set(job.owner, [job])
    else queue.push(job)
    queuedMs.set(job.owner, (queuedMs.get(job.owner) ?? 0) + job.estimateMs)
    queued++
  }

  /** Takes `job` out of its owner's queue (the head, or any one when it gives up). */
  function dequeue (job: Job): void {
    const queue = queues.get(job.owner)
    if (queue === undefined) return
    const at = queue.indexOf(job)
    if (at < 0) return
    queue.splice(at, 1)
    queued--
    const left = (queuedMs.get(job.owner) ?? 0) - job.estimateMs
    if (queue.length === 0) {
      queues.delete(job.owner)
      queuedMs.delete(job.owner)
    } else {
      queuedMs.set(job.owner, Math.max(0, left))
    }
  }

  /** The queued head with the smallest start tag (the oldest owner among equals). */
  function nextJob (): Job | undefined {
    let best: Job | undefined
    for (const queue of queues.values()) {
      const head = queue[0]!
      if (best === undefined || head.start < best.start) best = head
    }
    return best
  }

  /**
   * Sheds, from the owner with the most queued, the last job that can no longer finish by
   * its deadline at its expected place in fair order; repeats while there is one.
   */
  function shedLate (now: number): void {
    for (;;) {
      let heaviest: Owner | symbol | undefined
      let most = 0
      for (const [owner, ms] of queuedMs) {
        if (ms > most) {
          most = ms
          heaviest = owner
        }
      }
      if (heaviest === undefined) return
      const queue = queues.get(heaviest)!
      const last = queue[queue.length - 1]!
      // Its wait: the owner's queue before it, and the others' share up to as much.
      let ahead = runningLeftMs(now) + most - last.estimateMs
      for (const [other, ms] of queuedMs) if (other !== heaviest) ahead += Math.min(ms, most)
      const wait = ahead / lanes
      if (now + wait + last.estimateMs <= last.deadline) return
      dequeue(last)
      shed++
      options.observer?.rejected()
      last.fail(busy(last.busyCode, wait, last.estimateMs, last.deadline - now))
    }
  }

  function dispatch (): void {
    const now = clock()
    shedLate(now)
    while (running.size < lanes) {
      const job = nextJob()
      if (job === undefined) break
      dequeue(job)
      if (now + job.estimateMs > job.deadline && job.deadline !== Infinity) {
        // It would run past its deadline even if it started now: nobody would get the answer.
        shed++
        options.observer?.rejected()
        job.fail(busy(job.busyCode, 0, job.estimateMs, job.deadline - now))
        continue
      }
      virtualTime = job.start
      job.begin()
    }
    // Owners with nothing queued whose last finish tag virtual time has passed: their next
    // job would start at virtual time anyway.
    for (const [owner, finish] of lastFinish) if (finish <= virtualTime && !queues.has(owner)) lastFinish.delete(owner)
    // Idle: nobody's past service counts any more.
    if (running.size === 0 && queued === 0) {
      lastFinish.clear()
      virtualTime = 0
    }
    changed()
  }

  async function run<T> (opts: JobOptions, work: () => Promise<T>): Promise<T> {
    opts.signal?.throwIfAborted()
    const now = clock()
    const owner: Owner | symbol = opts.owner ?? Symbol('no owner')
    const estimateMs = Math.max(0, opts.estimateMs)
    const remainingMs = opts.remainingMs ?? Infinity
    const busyCode = opts.busyCode ?? defaultBusy
    const wait = waitMs(owner, estimateMs, now)
    if (wait + estimateMs > remainingMs && !(running.size === 0 && queued === 0)) {
      refused++
      options.observer?.rejected()
      throw busy(busyCode, wait, estimateMs, remainingMs)
    }
    const slot: Running = { estimateMs, startedAt: now }
    if (running.size < lanes && queued === 0) {
      // Started at once, it is tagged as a queued job would be: what an owner ran counts
      // against its next jobs' place.
      const start = Math.max(virtualTime, lastFinish.get(owner) ?? 0)
      if (typeof owner !== 'symbol') lastFinish.set(owner, start + estimateMs)
      virtualTime = start
      running.add(slot)
      changed()
    } else {
      await new Promise<void>((resolve, reject) => {
        const giveUp = (): void => {
          dequeue(job)
          changed()
          reject(opts.signal!.reason)
        }
        const job: Job = {
          owner,
          estimateMs,
          deadline: now + remainingMs,
          start: 0,
          finish: 0,
          busyCode,
          begin () {
            opts.signal?.removeEventListener('abort', giveUp)
            slot.startedAt = clock()
            running.add(slot)
            resolve()
          },
          fail (err) {
            opts.signal?.removeEventListener('abort', giveUp)
            reject(err)
          }
        }
        opts.signal?.addEventListener('abort', giveUp, { once: true })
        enqueue(job)
        changed()
      })
    }
    try {
      return await work()
    } finally {
      running.delete(slot)
      dispatch()
    }
  }

  return {
    lanes,
    run,
    expectedWaitMs: (owner, estimateMs) => waitMs(owner ?? Symbol('no owner'), estimateMs, clock()),
    get stats () {
      const now = clock()
      let queuedTotal = 0
      const byOwner = new Map<Owner, number>()
      for (const [owner, ms] of queuedMs) {
        queuedTotal += ms
        if (typeof owner !== 'symbol') byOwner.set(owner, ms)
      }
      const backlogMs = runningLeftMs(now) + queuedTotal
      return { running: running.size, queued, backlogMs, drainMs: backlogMs / lanes, queuedMsByOwner: byOwner, refused, shed }
    }
  }
}
