// REQUEST_TIMEOUT_MS: a request still running after it is answered 503 TIMEOUT (or, when
// its answer has started, cut off). Every request has the same limit, so the requests
// in flight are kept in start order and one periodic sweep looks only at the oldest:
// Fastify's own handlerTimeout costs a timer, an AbortController and a socket listener
// per request, a measurable share of a small request.
import type { FastifyReply } from 'fastify'
import { AppError } from '../errors.js'

export interface Deadlines {
  start (reply: FastifyReply): void
  end (reply: FastifyReply): void
  close (): void
}

export function createDeadlines (limitMs: number): Deadlines {
  if (limitMs <= 0) return { start () {}, end () {}, close () {} }
  // Insertion order is start order; with one limit for all, also deadline order.
  const running = new Map<FastifyReply, number>()
  const sweep = (): void => {
    const now = Date.now()
    for (const [reply, startedAt] of running) {
      if (startedAt + limitMs > now) break
      running.delete(reply)
      // Answered already, or the client left (no answer will ever finish).
      if (reply.sent || reply.raw.destroyed) continue
      const err = new AppError('TIMEOUT', `The request took longer than ${limitMs} ms and was stopped: try again, or send a smaller request`)
      if (reply.raw.headersSent) reply.raw.destroy(err)
      else reply.send(err)
    }
  }
  const timer = setInterval(sweep, Math.max(10, Math.min(1000, Math.floor(limitMs / 10))))
  timer.unref()
  return {
    start (reply) { running.set(reply, Date.now()) },
    end (reply) { running.delete(reply) },
    close () {
      clearInterval(timer)
      running.clear()
    }
  }
}
