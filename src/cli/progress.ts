// Progress of a long command on stderr: on a terminal, one line redrawn in place (a bar,
// counts, rate and time left); otherwise (a log, a pipe) a line every PROGRESS_EVERY_FILES
// items or PROGRESS_EVERY_MS, whichever comes first, and one at the end, so logs stay short.
// A count whose total is not known yet (an archive's entries as they are read) shows the
// count alone.
import type { CliIo } from './context.js'

export const PROGRESS_EVERY_FILES = 100
export const PROGRESS_EVERY_MS = 2000
/** A terminal's line is redrawn at most this often. */
const REDRAW_MS = 100
const BAR_WIDTH = 24

export interface Progress {
  /** `total` undefined: not known (yet). */
  update (done: number, total: number | undefined): void
  /** Ends the redrawn line (a terminal) before other output follows. */
  finish (): void
}

function duration (seconds: number): string {
  if (!Number.isFinite(seconds)) return '?'
  if (seconds < 60) return `${Math.ceil(seconds)}s`
  const m = Math.floor(seconds / 60)
  return m < 60 ? `${m}m${String(Math.ceil(seconds % 60)).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`
}

/** `unit` names what is counted: "files", "gifs". */
export function createProgress (io: CliIo, unit: string, now: () => number = Date.now): Progress {
  const started = now()
  let last = started
  let drawn = false
  return {
    update (done, total) {
      const t = now()
      if (total === undefined) {
        if (io.interactive && io.redraw !== undefined) {
          if (t - last < REDRAW_MS) return
          io.redraw(`${done} ${unit}…`)
          drawn = true
        } else if (t - last >= PROGRESS_EVERY_MS) {
          io.err(`progress: ${done} ${unit}`)
        } else return
        last = t
        return
      }
      if (io.interactive && io.redraw !== undefined) {
        if (done < total && t - last < REDRAW_MS) return
        last = t
        const ratio = total > 0 ? Math.min(1, done / total) : 1
        const filled = Math.round(ratio * BAR_WIDTH)
        const rate = done / Math.max(0.001, (t - started) / 1000)
        const eta = done >= total ? 'done' : `eta ${duration((total - done) / rate)}`
        io.redraw(`[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${done}/${total} ${unit} ${Math.floor(ratio * 100)}% ${rate.toFixed(1)}/s ${eta}`)
        drawn = true
        return
      }
      if (done === total ? total >= PROGRESS_EVERY_FILES : (done % PROGRESS_EVERY_FILES === 0 || t - last >= PROGRESS_EVERY_MS)) {
        last = t
        io.err(`progress: ${done}/${total} ${unit} (${total > 0 ? Math.floor(done / total * 100) : 100}%)`)
      }
    },
    finish () {
      if (drawn) io.redraw?.(undefined)
      drawn = false
    }
  }
}
