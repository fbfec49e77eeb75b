// The worker thread's entry (src/work/pool.ts): one task at a time, drawing or text
// conversion. Fonts, assets and markdown-it instances are created on the thread's first
// task of each kind and kept for its life: a thread that never draws never loads fonts.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import { threadId, workerData } from 'node:worker_threads'
import type { MarkdownRenderer } from '../conversion/text/markdown-to-html.js'
import { isAppError } from '../errors.js'
import { textAnswerJson } from '../http/success.js'
import { collectGarbage } from '../runtime/garbage.js'
import type { Drawer } from '../generation/drawer.js'
import type { StartedTask, WorkResult } from './tasks.js'

const { dataDir } = workerData as { dataDir: string }

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
// Pictures draw with the bundled fonts and the operator's (src/generation/fonts.ts), never
// with whatever the host has installed: the same picture on every machine, and no scan
// and mapping of the system's fonts in each drawing thread. Read by the canvas library
// when it loads, which happens below, on the thread's first picture.
process.env.DISABLE_SYSTEM_FONTS_LOAD = '1'
// Each kind's code is imported on the thread's first task of that kind: a thread that
// only converts text never loads the canvas library (docs/memory.md, "Worker threads").
let drawer: Promise<Drawer> | undefined
let loadedDrawer: Drawer | undefined
let renderer: Promise<MarkdownRenderer> | undefined
// Under tsx (tests, `npm run dev`) piscina loads this file through tsx's CommonJS hook,
// whose import() resolves without tsx: there the modules are required instead (tsx maps
// ".js" to ".ts" for require). Built, this is an ES module and import() loads them.
const UNDER_TSX = import.meta.url.endsWith('.ts')
const require = createRequire(import.meta.url)
const load = async <T> (module: string): Promise<T> => UNDER_TSX ? require(module) as T : await import(module) as T
const theDrawer = async (): Promise<Drawer> => await (drawer ??= load<typeof import('../generation/drawer.js')>('../generation/drawer.js')
  .then(({ createDrawer }) => (loadedDrawer = createDrawer({ dataDir }))))
const text = async (): Promise<typeof import('../conversion/text/bounded.js')> => await load('../conversion/text/bounded.js')

export default async function run (task: StartedTask): Promise<WorkResult> {
  Atomics.store(task.startedOn, 0, threadId)
  try {
    switch (task.kind) {
      case 'draw':
        return { kind: 'draw', value: await (await theDrawer()).draw(task.job) }
      case 'preview':
        return { kind: 'preview', value: await (await theDrawer()).preview(task.asset, task.name) }
      case 'html-markdown': {
        const markdown = (await text()).htmlToMarkdownBounded(task.input)
        return { kind: 'html-markdown', value: textAnswerJson('markdown', markdown) }
      }
      case 'collect':
        // What the last jobs left (decoded images, canvases, text) goes now rather than at
        // the thread's next job or its exit; the idle canvases with it.
        loadedDrawer?.quiet()
        collectGarbage({ compact: true })
        return { kind: 'collect' }
      case 'stay':
        return { kind: 'stay' }
      case 'markdown-html': {
        renderer ??= load<typeof import('../conversion/text/markdown-to-html.js')>('../conversion/text/markdown-to-html.js').then(({ createMarkdownRenderer }) => createMarkdownRenderer())
        const html = (await text()).markdownToHtmlBounded(await renderer, task.input, task.options)
        return { kind: 'markdown-html', value: textAnswerJson('html', html) }
      }
    }
  } catch (err) {
    if (isAppError(err)) return { kind: 'error', code: err.code, message: err.message, details: err.details }
    throw err
  } finally {
    await nextTurn()
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
async function nextTurn (): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve))
}
