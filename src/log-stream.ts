// Where log lines go: stdout (or a file), written asynchronously in batches of up to
// LOG_BUFFER_BYTES and at least every LOG_FLUSH_MS. One write per request line was a
// measurable share of the shared request path (a thread-pool round trip each); the
// buffer is flushed synchronously on exit, so a crash loses nothing already logged.
import pino from 'pino'

export const LOG_BUFFER_BYTES = 4096
export const LOG_FLUSH_MS = 250

export interface LogStream {
  stream: pino.DestinationStream
  close (): void
}

export function createLogStream (dest: number | string = 1): LogStream {
  const stream = pino.destination({ dest, sync: false, minLength: LOG_BUFFER_BYTES })
  const timer = setInterval(() => {
    // flush() throws while the stream is still opening (a file); the next tick retries.
    try { stream.flush() } catch {}
  }, LOG_FLUSH_MS)
  timer.unref()
  return {
    stream,
    close () {
      clearInterval(timer)
      try { stream.flushSync() } catch {}
    }
  }
}
