// Where log lines go: stdout (or a file), in batches of up to LOG_BUFFER_BYTES and at
// least every LOG_FLUSH_MS. A write per request line was a measurable share of the
// shared request path, and so was SonicBoom (pino.destination): in its batching mode it
// measures the whole pending string on every line, and it turns every written string
// into a Buffer a second time. Lines are gathered here in an array and each batch is
// written at once with one system call (synchronously, as pino writes to stdout by
// default: no thread-pool round trip, no reordering, nothing in flight when the process
// exits). What is pending is written when the process exits, crash or not.
import fs from 'node:fs'
import type pino from 'pino'

export const LOG_BUFFER_BYTES = 4096
export const LOG_FLUSH_MS = 250
/** A full pipe (a slow log reader) is waited for this long at a time. */
const FULL_PIPE_WAIT_MS = 1

export interface LogStream {
  stream: pino.DestinationStream
  close (): void
}

const open = new Set<LogStream>()
let exitHandlerInstalled = false
const pause = new Int32Array(new SharedArrayBuffer(4))

/** Writes all of `data` to `fd`, waiting while a non-blocking pipe is full. */
function writeAll (fd: number, data: Buffer): void {
  let offset = 0
  while (offset < data.length) {
    try {
      offset += fs.writeSync(fd, data, offset)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err
      Atomics.wait(pause, 0, 0, FULL_PIPE_WAIT_MS)
    }
  }
}

export function createLogStream (dest: number | string = 1): LogStream {
  const fd = typeof dest === 'number' ? dest : fs.openSync(dest, 'a')
  let lines: string[] = []
  let pending = 0
  let closed = false
  let lossReported = false

  const flush = (): void => {
    if (pending === 0) return
    const batch = Buffer.from(lines.join(''), 'utf8')
    lines = []
    pending = 0
    try {
      writeAll(fd, batch)
    } catch (err) {
      // Nowhere left to log to (a closed stdout): say so once on stderr, keep serving.
      if (!lossReported && fd !== 2) process.stderr.write(`log lines are being lost: ${(err as Error).message}\n`)
      lossReported = true
    }
  }
  const timer = setInterval(flush, LOG_FLUSH_MS)
  timer.unref()

  const logs: LogStream = {
    stream: {
      write (line: string) {
        if (closed) return
        lines.push(line)
        // Characters, not bytes: close enough for a batching threshold.
        pending += line.length
        if (pending >= LOG_BUFFER_BYTES) flush()
      }
    },
    close () {
      if (closed) return
      flush()
      closed = true
      clearInterval(timer)
      open.delete(logs)
      if (typeof dest !== 'number') fs.closeSync(fd)
    }
  }
  open.add(logs)
  if (!exitHandlerInstalled) {
    exitHandlerInstalled = true
    process.on('exit', () => { for (const l of open) l.close() })
  }
  return logs
}
