// The worker threads' own entry (src/work/pool.ts): loaded when a thread starts, before
// any task. It holds only what every thread needs whatever it runs: its priority, and the
// pool's own tasks. Features' tasks come from their own thread entries (thread.ts), which
// piscina loads on a thread's first task of each: a thread that only converts text never
// loads the canvas library (docs/memory.md, "Worker threads").
import fs from 'node:fs'
import os from 'node:os'
import { collectGarbage } from '../runtime/garbage.js'
import { nextTurn, runQuietHooks } from './thread.js'

/**
 * Niceness of a worker thread: the event loop (health checks, small requests, admission)
 * runs before heavy work whenever both want a core. On Linux setpriority() on a thread id
 * affects that thread alone (setpriority(2), "Notes"); elsewhere the threads keep the
 * process's priority. (piscina's niceIncrement needs an optional package we do not ship.)
 */
export const WORKER_NICE = 10
try {
  const tid = Number(/task\/(\d+)$/.exec(fs.readlinkSync('/proc/thread-self'))?.[1])
  if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, Math.min(19, os.getPriority(tid) + WORKER_NICE))
} catch {
  // Not Linux, or not allowed: same priority as the event loop.
}

/**
 * The pool has been quiet: what the last jobs left (decoded images, canvases, text) goes
 * now rather than at the thread's next job or its exit, with what each feature keeps only
 * for a burst (its quiet hooks: the idle canvases).
 */
export async function collect (): Promise<void> {
  try {
    runQuietHooks()
    collectGarbage({ compact: true })
  } finally {
    await nextTurn()
  }
}

/** Nothing: keeps the thread that takes it from exiting (stayOne in src/work/pool.ts). */
export async function stay (): Promise<void> {
  await nextTurn()
}
