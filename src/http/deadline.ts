// REQUEST_TIMEOUT_MS: a request still running after it is answered 503 TIMEOUT (or, when
// its answer has started, cut off). Every request has the same limit, so the requests
// in flight are kept in start order and one periodic sweep looks only at the oldest.
//
// Heavy routes (drawing, text conversion) ask for a signal (signal()): it fires at the
// deadline and when the client goes away, and the work it was given to stops
// (src/work/pool.ts, which adds the job's own limit, WORK_TIMEOUT_MS). Only those
// requests pay for an AbortController and a listener.
//
// Not Fastify's handlerTimeout and request.signal: in Fastify 5.12 that signal fires on
// the request stream's 'close', which Node emits as soon as a body has been read, so
// every POST's work would stop at once (fastify/fastify#6725; held by the last tests of
// test/system/hostile/heavy-work.test.ts). Here a client has left when the answer's socket
// closes before the answer was written. Speed would not keep this piece: against
// handlerTimeout it measured 1.02 to 1.04 (docs/performance.md).
import type { FastifyReply } from 'fastify'
import { AppError } from '../errors.js'

export interface Deadlines {
  start (reply: FastifyReply): void
  end (reply: FastifyReply): void
  /** An AbortSignal for the request's heavy work: fires at the request's deadline, or when the client closes the connection first. */
  signal (reply: FastifyReply): AbortSignal
  close (): void
}

export function createDeadlines (limitMs: number): Deadlines {
  const heavy = new Map<FastifyReply, AbortController>()
  const stop = (reply: FastifyReply, reason: AppError): void => {
    const controller = heavy.get(reply)
    if (controller === undefined) return
    heavy.delete(reply)
    controller.abort(reason)
  }
  function signal (reply: FastifyReply): AbortSignal {
    const controller = new AbortController()
    heavy.set(reply, controller)
    reply.raw.once('close', () => {
      // Closed before the answer was written: the client left, nobody waits for the work.
      // The error is made only when work still runs for this reply (not per request).
      if (!reply.raw.writableFinished && heavy.has(reply)) stop(reply, new AppError('TIMEOUT', 'The client closed the connection'))
    })
    return controller.signal
  }
  const endHeavy = (reply: FastifyReply): void => {
    if (heavy.size !== 0) heavy.delete(reply)
  }

  if (limitMs <= 0) {
    return { start () {}, end: endHeavy, signal, close () { heavy.clear() } }
  }
  // Insertion order is start order; with one limit for all, also deadline order.
  const running = new Map<FastifyReply, number>()
  const sweep = (): void => {
    const now = Date.now()
    for (const [reply, startedAt] of running) {
      if (startedAt + limitMs > now) break
      running.delete(reply)
      const err = new AppError('TIMEOUT', `The request took longer than ${limitMs} ms and was stopped: try again, or send a smaller request`)
      // Answered already, or the client left (no answer will ever finish).
      if (reply.sent || reply.raw.destroyed) {
        stop(reply, err)
        continue
      }
      if (reply.raw.headersSent) reply.raw.destroy(err)
      else reply.send(err)
      stop(reply, err)
    }
  }
  const timer = setInterval(sweep, Math.max(10, Math.min(1000, Math.floor(limitMs / 10))))
  timer.unref()
  return {
    start (reply) { running.set(reply, Date.now()) },
    end (reply) {
      running.delete(reply)
      endHeavy(reply)
    },
    signal,
    close () {
      clearInterval(timer)
      running.clear()
      heavy.clear()
    }
  }
}
