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

export interface Metrics {
  /** What GET /metrics prints; undefined when nothing is counted. */
  readonly registry: Registry | undefined
  requestStarted (): void
  requestAnswered (method: string, route: string, status: number, seconds: number): void
  rateLimitRejected (reason: string, route: string): void
  remoteFetched (outcome: string): void
  queue (name: string): QueueObserver
}

const IGNORED_QUEUE: QueueObserver = { changed () {}, rejected () {} }

export const NO_METRICS: Metrics = {
  registry: undefined,
  requestStarted () {},
  requestAnswered () {},
  rateLimitRejected () {},
  remoteFetched () {},
  queue: () => IGNORED_QUEUE
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
    })
  }
}
