// What a feature's thread code is made of, on both sides of the thread boundary. A
// feature keeps its thread entry beside its routes (src/generation/pipeline/thread.ts,
// src/conversion/text/thread.ts): each export wrapped in threadTask(), run by the pool
// through piscina's `run(task, { filename, name })` (pool.ts), so that work/ never
// imports a feature, and a thread loads a feature's code only on its first task of it.
// Everything here crosses a thread boundary by structured clone: plain data only, no
// classes (an AppError comes back as its code, message and details).
import { threadId } from 'node:worker_threads'
import { isAppError } from '../errors.js'

/** A task as the pool sends it: the thread writes its id into `startedOn` when it starts it. */
export interface ThreadMessage<I> {
  input: I
  startedOn: Int32Array
}

/** What comes back: the task's value, or its AppError as plain data. */
export type ThreadAnswer<O> =
  | { ok: true, value: O }
  | { ok: false, code: string, message: string, details?: Record<string, unknown> }

export type ThreadHandler<I, O> = (message: ThreadMessage<I>) => Promise<ThreadAnswer<O>>

/**
 * A feature's thread code as the main thread names it: the module (its URL as written
 * from the main-thread module beside it, `new URL('./thread.js', import.meta.url)`) and
 * the export. The types are the handler's; nothing of the module is loaded here.
 */
export interface ThreadCode<I, O> {
  readonly module: URL
  readonly name: string
  /** Types only: never set. */
  readonly handler?: ThreadHandler<I, O>
}

export function threadCode<H extends ThreadHandler<any, any>> (module: URL, name: string): ThreadCode<Parameters<H>[0]['input'], H extends ThreadHandler<any, infer O> ? O : never> {
  return { module, name }
}

/** What threads do once the pool has been quiet (garbage collection aside): each feature drops what served its burst. */
const quietHooks = new Set<() => void>()

/** Runs `hook` in this thread each time the pool has been quiet (before the collection: src/work/worker.ts). */
export function onQuiet (hook: () => void): void {
  quietHooks.add(hook)
}

/** Runs the quiet hooks (src/work/worker.ts's 'collect'). */
export function runQuietHooks (): void {
  for (const hook of quietHooks) hook()
}

/**
 * A thread entry's export: `run` on the task's input, the thread's id recorded first
 * (an aborted job waits for the exit of the thread that started it: pool.ts), an
 * AppError answered as data, and one turn of the thread's loop after each task.
 */
export function threadTask<I, O> (run: (input: I) => O | Promise<O>): ThreadHandler<I, O> {
  return async function task (message) {
    Atomics.store(message.startedOn, 0, threadId)
    try {
      return { ok: true, value: await run(message.input) }
    } catch (err) {
      if (isAppError(err)) return { ok: false, code: err.code, message: err.message, details: err.details }
      throw err
    } finally {
      await nextTurn()
    }
  }
}

/**
 * One turn of the thread's event loop. Node runs the finalizers of native objects (the
 * PNG encoder's copy of the pixels, canvases, decoded images) from setImmediate, not in
 * the collection that found them dead, and a piscina thread goes from one job to the
 * next, or blocks in Atomics.wait between them, without turning its loop: nothing a job
 * left in native memory was freed while the thread lived. 60 welcome banners at once
 * left the server at 390 MB, 281 MB 20 s later; with a turn after each job, 166 and 138
 * (docs/memory.md, "Worker threads").
 */
export async function nextTurn (): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve))
}
