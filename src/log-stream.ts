// Where log lines go: stdout (or a file), in batches of up to LOG_BUFFER_BYTES and at
// least every LOG_FLUSH_MS. A write per request line was a measurable share of the
// shared request path, and so was SonicBoom's own batching (its minLength mode measures
// the whole pending string on every line): lines are gathered here in an array and
// each batch is written at once (synchronously, as pino writes to stdout by default: no
// thread-pool round trip, no reordering, nothing in flight when the process exits).
// What is pending is written when the process exits, crash or not.
import pino from 'pino'

export const LOG_BUFFER_BYTES = 4096
export const LOG_FLUSH_MS = 250

export interface LogStream {
  stream: pino.DestinationStream
  close (): void
}

const open = new Set<LogStream>()
let exitHandlerInstalled = false

export function createLogStream (dest: number | string = 1): LogStream {
  const sonic = pino.destination({ dest, sync: true })
  let lines: string[] = []
  let pending = 0
  let closed = false

  const hand = (): void => {
    if (pending === 0) return
    const batch = lines.join('')
    lines = []
    pending = 0
    sonic.write(batch)
  }
  const timer = setInterval(hand, LOG_FLUSH_MS)
  timer.unref()

  const logs: LogStream = {
    stream: {
      write (line: string) {
        if (closed) return
        lines.push(line)
        // Characters, not bytes: close enough for a batching threshold.
        pending += line.length
        if (pending >= LOG_BUFFER_BYTES) hand()
      }
    },
    close () {
      if (closed) return
      closed = true
      clearInterval(timer)
      open.delete(logs)
      hand()
      sonic.end()
    }
  }
  open.add(logs)
  if (!exitHandlerInstalled) {
    exitHandlerInstalled = true
    process.on('exit', () => { for (const l of open) l.close() })
  }
  return logs
}
