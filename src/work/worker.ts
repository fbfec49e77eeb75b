// The worker thread's entry (src/work/pool.ts): one task at a time, drawing or text
// conversion. Fonts, assets and markdown-it instances are created on the thread's first
// task of each kind and kept for its life: a thread that never draws never loads fonts.
import fs from 'node:fs'
import os from 'node:os'
import { threadId, workerData } from 'node:worker_threads'
import { htmlToMarkdownBounded, markdownToHtmlBounded } from '../conversion/text/bounded.js'
import { createMarkdownRenderer, type MarkdownRenderer } from '../conversion/text/markdown-to-html.js'
import { isAppError } from '../errors.js'
import { ok } from '../http/envelope.js'
import { createDrawer, type Drawer } from '../generation/render-job.js'
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
let drawer: Drawer | undefined
let renderer: MarkdownRenderer | undefined

export default async function run (task: StartedTask): Promise<WorkResult> {
  Atomics.store(task.startedOn, 0, threadId)
  try {
    switch (task.kind) {
      case 'draw':
        drawer ??= createDrawer({ dataDir })
        return { kind: 'draw', value: await drawer.draw(task.job) }
      case 'html-markdown': {
        const markdown = htmlToMarkdownBounded(task.input)
        return { kind: 'html-markdown', value: Buffer.from(JSON.stringify(ok({ markdown, content: markdown }))) }
      }
      case 'markdown-html': {
        renderer ??= createMarkdownRenderer()
        const html = markdownToHtmlBounded(renderer, task.input, task.options)
        return { kind: 'markdown-html', value: Buffer.from(JSON.stringify(ok({ html, content: html }))) }
      }
    }
  } catch (err) {
    if (isAppError(err)) return { kind: 'error', code: err.code, message: err.message, details: err.details }
    throw err
  }
}
