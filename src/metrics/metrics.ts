// Prometheus metrics of one app instance, in its own registry (no global state):
// requests by route and status, durations, requests in flight, image-work queues and
// rejections, remote fetch outcomes, rate-limit refusals, and Node's process metrics.
import client from 'prom-client'
import { createRequestStats } from './request-stats.js'

export type Metrics = ReturnType<typeof createMetrics>

export function createMetrics () {
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry })
  return {
    registry,
    // Counted on every request: plain numbers, made series when scraped (request-stats.ts).
    requests: createRequestStats(registry),
    rateLimitRejections: new client.Counter({ name: 'rate_limit_rejections_total', help: 'Requests refused with 429, by reason (rate or quota) and route', labelNames: ['reason', 'route'] as const, registers: [registry] }),
    workQueued: new client.Gauge({ name: 'work_queue_length', help: 'CPU-bound jobs waiting for a slot, by queue', labelNames: ['queue'] as const, registers: [registry] }),
    workRunning: new client.Gauge({ name: 'work_running', help: 'CPU-bound jobs running, by queue', labelNames: ['queue'] as const, registers: [registry] }),
    workRejections: new client.Counter({ name: 'work_rejections_total', help: 'Jobs refused because the queue was full (503), by queue', labelNames: ['queue'] as const, registers: [registry] }),
    remoteFetches: new client.Counter({ name: 'remote_fetches_total', help: 'Remote image fetches, by outcome', labelNames: ['outcome'] as const, registers: [registry] })
  }
}
