// Delivery of access events to the operator's storefront (WEBHOOK_URL), never on a
// request's path: emit() queues and returns at once; a small pool of POSTs drains the
// queue in the background, each with a deadline (WEBHOOK_TIMEOUT_MS), signed per Standard
// Webhooks at each attempt (the timestamp is the attempt's: a receiver refusing old
// timestamps still takes a retry). A network error, a timeout, 408, 429 or a 5xx is retried
// with exponential backoff and jitter (Retry-After respected) for WEBHOOK_RETRY_FOR, then
// dropped with a log line and a metric; any other answer that is not 2xx is dropped at once
// (a redirect is not followed: its target is the setting to fix). What is queued when the
// sender closes is spilled to DATA_DIR/webhooks-pending, one file per delivery written
// whole then renamed (as src/access/usage-recorder.ts spills usage), and sent at the next
// start. Delivery is at least once: a receiver drops repeats by webhook-id
// (./message.ts). The clock, the timers, the POST and the jitter are injected, so
// that tests run retries and spills without waiting.
import fs from 'node:fs'
import path from 'node:path'
import type { AccessEvent, AccessEvents } from '../access/events.js'
import type { WebhookObserver } from '../metrics/metrics.js'
import { toMessage, type WebhookEventType, type WebhookMessage } from './message.js'
import { secretKey, signature } from './signature.js'

/** Deliveries waiting (or being retried) at most; past it a new event is dropped, logged and counted. */
export const MAX_QUEUED = 1000
/** POSTs in flight at once: a slow receiver is not flooded, and one that hangs holds at most these. */
export const MAX_IN_FLIGHT = 2
/** The first retry waits about this long, each next one twice as long… */
export const FIRST_RETRY_MS = 5_000
/** …up to this (Retry-After included: a longer one is shortened to it). */
export const MAX_RETRY_MS = 3_600_000
/** Event ids remembered so that the same event emitted again (every refused request of a used-up quota) is sent once. */
const SEEN_IDS = 10_000
/** A spill file: the delivery's id is its name. */
const SPILL_FILE = /^webhook-(msg_[0-9a-f]{32})\.json$/

export interface Clock {
  now: () => number
  setTimeout: (fn: () => void, ms: number) => unknown
  clearTimeout: (handle: unknown) => void
}

/** Real time; timers unref'd (a pending retry never keeps the process up). */
export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout)
}

export interface PostAnswer {
  status: number
  /** The Retry-After header, as sent. */
  retryAfter: string | null
}

/** One POST with its deadline; throws on a network error or the deadline (an error named TimeoutError) or the close (AbortError). */
export type Post = (url: string, request: { headers: Record<string, string>, body: string, timeoutMs: number, signal: AbortSignal }) => Promise<PostAnswer>

/** fetch (undici), redirects not followed, the answer's body discarded. */
export const fetchPost: Post = async (url, { headers, body, timeoutMs, signal }) => {
  const res = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) })
  await res.body?.cancel().catch(() => {})
  return { status: res.status, retryAfter: res.headers.get('retry-after') }
}

export interface WebhookLog {
  info: (fields: object, message: string) => void
  warn: (fields: object, message: string) => void
  error: (fields: object, message: string) => void
}

export interface WebhookSenderOptions {
  url: string
  /** WEBHOOK_SECRET, `whsec_<base64>`. */
  secret: string
  /** WEBHOOK_EVENTS: the others are not sent. */
  events: readonly WebhookEventType[]
  timeoutMs: number
  retryForMs: number
  /** DATA_DIR/webhooks-pending; none: what is queued at close is lost (tests). */
  spillDir?: string
  log: WebhookLog
  observer: WebhookObserver
  /** Sent as the User-Agent. */
  userAgent: string
  clock?: Clock
  post?: Post
  /** 0 ≤ x < 1, for the jitter. */
  random?: () => number
  maxQueued?: number
}

export interface WebhookSender extends AccessEvents {
  /** Deliveries waiting, being retried or in flight. */
  readonly queued: number
  /** Stops sending, ends the POSTs in flight and spills what is queued. */
  close: () => Promise<void>
}

interface Delivery extends WebhookMessage {
  /** When the event was first queued (epoch ms): it is retried until firstAt + retryForMs. */
  firstAt: number
  attempts: number
  /** When it may be sent next (epoch ms). */
  nextAt: number
}

/** Retry-After: seconds, or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs (value: string | null, now: number): number | undefined {
  if (value === null) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** Exponential backoff with "equal jitter": between half and all of FIRST_RETRY_MS · 2^(failures − 1), capped. */
export function backoffMs (failures: number, random: () => number): number {
  const ceiling = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(30, failures - 1))
  return Math.round(ceiling / 2 + random() * ceiling / 2)
}

/** What an answer means: delivered, worth retrying, or refused for good. */
function outcomeOf (status: number): 'delivered' | 'retry' | 'refused' | 'redirect' {
  if (status >= 200 && status < 300) return 'delivered'
  if (status === 408 || status === 429 || status >= 500) return 'retry'
  return status >= 300 && status < 400 ? 'redirect' : 'refused'
}

export function createWebhookSender (options: WebhookSenderOptions): WebhookSender {
  const clock = options.clock ?? SYSTEM_CLOCK
  const post = options.post ?? fetchPost
  const random = options.random ?? Math.random
  const maxQueued = options.maxQueued ?? MAX_QUEUED
  const { log, observer } = options
  const key = secretKey(options.secret)
  const enabled = new Set<string>(options.events)
  const queue: Delivery[] = []
  const inFlight = new Map<Delivery, Promise<void>>()
  const seen = new Set<string>()
  const closing = new AbortController()
  let timer: unknown
  let timerAt = Infinity
  let closed = false

  function remember (id: string): void {
    seen.add(id)
    // A Set iterates in insertion order: the oldest id goes first.
    if (seen.size > SEEN_IDS) seen.delete(seen.values().next().value!)
  }

  function spillPath (id: string): string | undefined {
    return options.spillDir === undefined ? undefined : path.join(options.spillDir, `webhook-${id}.json`)
  }

  function forget (d: Delivery): void {
    queue.splice(queue.indexOf(d), 1)
    observer.queued(queue.length)
    const file = spillPath(d.id)
    if (file !== undefined) {
      try { fs.rmSync(file, { force: true }) } catch (err) { log.warn({ err, webhookId: d.id }, 'could not remove a spilled webhook delivery; it may be sent again at the next start') }
    }
  }

  function drop (d: Delivery, reason: string, fields: object, message: string): void {
    forget(d)
    observer.dropped(d.type, reason)
    log.error({ webhookId: d.id, type: d.type, attempts: d.attempts, reason, ...fields }, message)
  }

  function retry (d: Delivery, reason: string, waitAtLeastMs: number | undefined, fields: object): void {
    const now = clock.now()
    const wait = Math.max(backoffMs(d.attempts, random), Math.min(MAX_RETRY_MS, waitAtLeastMs ?? 0))
    if (now + wait > d.firstAt + options.retryForMs) {
      drop(d, 'expired', { lastFailure: reason, ...fields }, `webhook not delivered within WEBHOOK_RETRY_FOR (${d.attempts} attempts): dropped`)
      return
    }
    d.nextAt = now + wait
    observer.retried(d.type, reason)
    log.warn({ webhookId: d.id, type: d.type, attempts: d.attempts, reason, retryInMs: wait, ...fields }, 'webhook not delivered: retried later')
  }

  async function attempt (d: Delivery): Promise<void> {
    d.attempts++
    const timestamp = Math.floor(clock.now() / 1000)
    const headers = {
      'content-type': 'application/json',
      'user-agent': options.userAgent,
      'webhook-id': d.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature(key, d.id, timestamp, d.body)
    }
    let answer: PostAnswer
    try {
      answer = await post(options.url, { headers, body: d.body, timeoutMs: options.timeoutMs, signal: closing.signal })
    } catch (err) {
      // Ended by the close: still queued, spilled with the rest (the receiver may have it: at least once).
      if (closed) return
      const timeout = (err as Error | undefined)?.name === 'TimeoutError'
      retry(d, timeout ? 'timeout' : 'network', undefined, timeout ? { timeoutMs: options.timeoutMs } : { problem: (err as Error | undefined)?.message, cause: ((err as Error | undefined)?.cause as Error | undefined)?.message })
      return
    }
    const outcome = outcomeOf(answer.status)
    if (outcome === 'delivered') {
      forget(d)
      observer.delivered(d.type)
      log.info({ webhookId: d.id, type: d.type, attempts: d.attempts, status: answer.status }, 'webhook delivered')
    } else if (outcome === 'retry') {
      retry(d, answer.status === 429 ? 'status_429' : answer.status === 408 ? 'status_408' : 'status_5xx', retryAfterMs(answer.retryAfter, clock.now()), { status: answer.status })
    } else if (outcome === 'redirect') {
      drop(d, 'redirect', { status: answer.status }, 'webhook answered with a redirect, which is not followed: dropped (set WEBHOOK_URL to the final address)')
    } else {
      drop(d, 'refused', { status: answer.status }, 'webhook refused by the receiver (a 4xx other than 408 and 429 is not retried): dropped')
    }
  }

  /** Starts the deliveries that are due, as many as MAX_IN_FLIGHT allows, and sets the timer for the next one. */
  function pump (): void {
    if (closed) return
    const now = clock.now()
    let next = Infinity
    for (const d of queue) {
      if (inFlight.has(d)) continue
      if (d.nextAt <= now && inFlight.size < MAX_IN_FLIGHT) {
        inFlight.set(d, attempt(d).catch((err: unknown) => log.error({ err, webhookId: d.id }, 'webhook delivery failed unexpectedly')).finally(() => {
          inFlight.delete(d)
          pump()
        }))
      } else if (inFlight.size < MAX_IN_FLIGHT) {
        next = Math.min(next, d.nextAt)
      }
    }
    wakeAt(next)
  }

  function wakeAt (at: number): void {
    if (at === timerAt) return
    if (timer !== undefined) clock.clearTimeout(timer)
    timer = undefined
    timerAt = at
    if (at === Infinity) return
    timer = clock.setTimeout(() => {
      timer = undefined
      timerAt = Infinity
      pump()
    }, Math.max(0, at - clock.now()))
  }

  function enqueue (d: Delivery): boolean {
    if (seen.has(d.id)) return false
    remember(d.id)
    if (queue.length >= maxQueued) {
      observer.dropped(d.type, 'queue_full')
      log.error({ webhookId: d.id, type: d.type, queued: queue.length }, `webhook queue full (${maxQueued} deliveries waiting for the receiver): this event is dropped`)
      return false
    }
    queue.push(d)
    observer.queued(queue.length)
    return true
  }

  // What the last run spilled goes first, each under its own id, its retry window counted
  // from when it was first queued (one attempt at least, however long the stop was).
  if (options.spillDir !== undefined && fs.existsSync(options.spillDir)) {
    let replayed = 0
    for (const file of fs.readdirSync(options.spillDir).sort()) {
      if (SPILL_FILE.exec(file) === null) continue
      try {
        const saved = JSON.parse(fs.readFileSync(path.join(options.spillDir, file), 'utf8')) as Omit<Delivery, 'nextAt'>
        if (enqueue({ id: saved.id, type: saved.type, body: saved.body, firstAt: saved.firstAt, attempts: saved.attempts, nextAt: clock.now() })) replayed++
      } catch (err) {
        log.error({ err, file }, 'a spilled webhook delivery could not be read: left in DATA_DIR/webhooks-pending')
      }
    }
    if (replayed > 0) log.info({ deliveries: replayed }, 'webhook deliveries spilled by the last run: sent now')
  }
  wakeAt(clock.now())

  return {
    get queued () { return queue.length },
    emit (event: AccessEvent) {
      if (closed || !enabled.has(event.type)) return
      try {
        const now = clock.now()
        if (!enqueue({ ...toMessage(event, now), firstAt: now, attempts: 0, nextAt: now })) return
        // Started from a timer, never from the request that emitted.
        if (inFlight.size < MAX_IN_FLIGHT) wakeAt(now)
      } catch (err) {
        log.error({ err, type: event.type }, 'could not queue a webhook')
      }
    },
    async close () {
      if (closed) return
      closed = true
      if (timer !== undefined) clock.clearTimeout(timer)
      closing.abort()
      await Promise.allSettled(inFlight.values())
      if (options.spillDir === undefined || queue.length === 0) return
      try {
        fs.mkdirSync(options.spillDir, { recursive: true })
        for (const d of queue) {
          const file = spillPath(d.id)!
          // Written whole then renamed: a crash mid-write leaves no half file to replay.
          fs.writeFileSync(`${file}.tmp`, JSON.stringify({ id: d.id, type: d.type, body: d.body, firstAt: d.firstAt, attempts: d.attempts }))
          fs.renameSync(`${file}.tmp`, file)
        }
        log.warn({ deliveries: queue.length }, 'webhook deliveries not sent yet: spilled to DATA_DIR/webhooks-pending, sent at the next start')
      } catch (err) {
        log.error({ err, deliveries: queue.length }, 'could not spill the webhook deliveries not sent yet: they are lost')
      }
    }
  }
}
