// What the main thread sends to a worker (src/work/worker.ts) and what comes back.
// Everything here crosses a thread boundary by structured clone: plain data only, no
// classes (an AppError comes back as its code, message and details).
import type { MarkdownOptions } from '../conversion/text/markdown-to-html.js'
import type { AssetKind } from '../generation/asset-catalog.js'
import type { Drawn } from '../generation/drawer.js'
import type { DrawJob } from '../generation/render-job.js'

export type WorkTask =
  | { kind: 'draw', job: DrawJob }
  /** A banner or icon as PNG (its public preview): drawn where the canvas lives. */
  | { kind: 'preview', asset: AssetKind, name: string }
  | { kind: 'html-markdown', input: string }
  | { kind: 'markdown-html', input: string, options: MarkdownOptions }
  /** The pool has been quiet: drop what served the burst (idle canvases) and collect garbage. */
  | { kind: 'collect' }
  /** Nothing: keeps the thread that takes it from exiting (stayOne in src/work/pool.ts). */
  | { kind: 'stay' }

export type WorkResult =
  /** Encoded bytes, or a GIF's or an animation's frames for the main thread to encode. */
  | { kind: 'draw', value: Drawn }
  | { kind: 'preview', value: Uint8Array }
  /** The whole JSON answer, serialized in the worker: writing a large one held the event loop (docs/performance.md, "Work off the event loop"). */
  | { kind: 'html-markdown', value: Uint8Array }
  | { kind: 'markdown-html', value: Uint8Array }
  | { kind: 'collect', value?: undefined }
  | { kind: 'stay', value?: undefined }
  | { kind: 'error', value?: undefined, code: string, message: string, details?: Record<string, unknown> }

/** What callers send; 'collect' and 'stay' the pool sends itself. */
export type JobTask = Exclude<WorkTask, { kind: 'collect' | 'stay' }>

/** A task as the pool sends it: the worker writes its thread id into `startedOn` when it starts. */
export type StartedTask = WorkTask & { startedOn: Int32Array }
