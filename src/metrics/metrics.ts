// What the app reports as it serves: requests by route and status, durations, requests in
// flight, work queues and their refusals, remote fetch outcomes, rate-limit refusals, and
// Node's process metrics. With METRICS_PORT these are Prometheus series in a registry of
// the app's own (createMetrics, no global state); without it NO_METRICS, whose calls do
// nothing: nothing is counted that nobody can read, and prom-client is not even loaded.
import type { Registry } from 'prom-client'
import { createRequestStats } from './request-stats.js'

/** A queue's report (src/work/scheduler.ts): jobs running and waiting, and refusals. */
export interface QueueObserver {
  changed (running: number, waiting: number): void
  rejected (): void
}

/** The result cache's report (src/result-cache/): answers served from it or drawn, and what it holds. */
export interface ResultCacheObserver {
  hit (): void
  miss (): void
  evicted (): void
  held (bytes: number, entries: number): void
}

/** The webhooks' report (src/webhooks/): deliveries made, retried and dropped, by event type, and what waits. */
export interface WebhookObserver {
  delivered (type: string): void
  /** `reason`: network, timeout, status_408, status_429, status_5xx. */
  retried (type: string, reason: string): void
  /** `reason`: expired (retried for WEBHOOK_RETRY_FOR), refused (a 4xx), redirect, queue_full. */
  dropped (type: string, reason: string): void
  queued (length: number): void
}

export interface Metrics {
  /** What GET /metrics prints; undefined when nothing is counted. */
  readonly registry: Registry | undefined
  requestStarted (): void
  requestAnswered (method: string, route: string, status: number, seconds: number): void
  rateLimitRejected (reason: string, route: string): void
  remoteFetched (outcome: string): void
  queue (name: string): QueueObserver
  readonly resultCache: ResultCacheObserver
  readonly webhooks: WebhookObserver
}

const IGNORED_QUEUE: QueueObserver = { changed () {}, rejected () {} }
const IGNORED_RESULT_CACHE: ResultCacheObserver = { hit () {}, miss () {}, evicted () {}, held () {} }
export const IGNORED_WEBHOOKS: WebhookObserver = { delivered () {}, retried () {}, dropped () {}, queued () {} }

export const NO_METRICS: Metrics = {
  registry: undefined,
  requestStarted () {},
  requestAnswered () {},
  rateLimitRejected () {},
  remoteFetched () {},
  queue: () => IGNORED_QUEUE,
  resultCache: IGNORED_RESULT_CACHE,
  webhooks: IGNORED_WEBHOOKS
}

export async function createMetrics (): Promise<Metrics> {
  const { default: client } = await import('prom-client')
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry })
  // Counted on every request: plain numbers, made series when scraped (request-stats.ts).
  const requests = createRequestStats(registry)
  const rateLimitRejections = new client.Counter({ name: 'rate_limit_rejections_total', help: 'Requests refused with 429, by reason (rate or quota) and route', labelNames: ['reason', 'route'] as const, registers: [registry] })
  const workQueued = new client.Gauge({ name: 'work_queue_length', help: 'CPU-bound jobs waiting for a slot, by queue', labelNames: ['queue'] as const, registers: [registry] })
  const workRunning = new client.Gauge({ name: 'work_running', help: 'CPU-bound jobs running, by queue', labelNames: ['queue'] as const, registers: [registry] })
  const workRejections = new client.Counter({ name: 'work_rejections_total', help: 'Jobs refused because the queue was full (503), by queue', labelNames: ['queue'] as const, registers: [registry] })
  const remoteFetches = new client.Counter({ name: 'remote_fetches_total', help: 'Remote image fetches, by outcome', labelNames: ['outcome'] as const, registers: [registry] })
  const cacheHits = new client.Counter({ name: 'result_cache_hits_total', help: 'Pictures answered from the result cache or from a drawing another request started', registers: [registry] })
  const cacheMisses = new client.Counter({ name: 'result_cache_misses_total', help: 'Pictures drawn for the request that asked (one per drawing)', registers: [registry] })
  const cacheEvictions = new client.Counter({ name: 'result_cache_evictions_total', help: 'Result cache entries deleted to stay within RESULT_CACHE_MAX_BYTES', registers: [registry] })
  const cacheBytes = new client.Gauge({ name: 'result_cache_bytes', help: 'Bytes the result cache holds on disk', registers: [registry] })
  const cacheEntries = new client.Gauge({ name: 'result_cache_entries', help: 'Entries the result cache holds on disk', registers: [registry] })
  const webhooksDelivered = new client.Counter({ name: 'webhook_deliveries_total', help: 'Webhooks the receiver took (2xx), by event type', labelNames: ['type'] as const, registers: [registry] })
  const webhooksRetried = new client.Counter({ name: 'webhook_retries_total', help: 'Webhook attempts that failed and will be retried, by event type and reason', labelNames: ['type', 'reason'] as const, registers: [registry] })
  const webhooksDropped = new client.Counter({ name: 'webhook_dropped_total', help: 'Webhooks given up (expired, refused, redirect, queue_full), by event type and reason', labelNames: ['type', 'reason'] as const, registers: [registry] })
  const webhooksQueued = new client.Gauge({ name: 'webhook_queue_length', help: 'Webhooks waiting to be sent or retried', registers: [registry] })
  return {
    registry,
    requestStarted: () => requests.enter(),
    requestAnswered: (method, route, status, seconds) => requests.record(method, route, status, seconds),
    rateLimitRejected: (reason, route) => rateLimitRejections.inc({ reason, route }),
    remoteFetched: (outcome) => remoteFetches.inc({ outcome }),
    queue: (queue) => ({
      changed (running, waiting) {
        workRunning.set({ queue }, running)
        workQueued.set({ queue }, waiting)
      },
      rejected () { workRejections.inc({ queue }) }
    }),
    resultCache: {
      hit: () => cacheHits.inc(),
      miss: () => cacheMisses.inc(),
      evicted: () => cacheEvictions.inc(),
      held (bytes, entries) {
        cacheBytes.set(bytes)
        cacheEntries.set(entries)
      }
    },
    webhooks: {
      delivered: (type) => webhooksDelivered.inc({ type }),
      retried: (type, reason) => webhooksRetried.inc({ type, reason }),
      dropped: (type, reason) => webhooksDropped.inc({ type, reason }),
      queued: (length) => webhooksQueued.set(length)
    }
  }
}
