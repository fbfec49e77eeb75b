// Prometheus metrics of one app instance, in its own registry (no global state):
// requests by route and status, durations, requests in flight, image-work queues and
// rejections, remote fetch outcomes, rate-limit refusals, and Node's process metrics.
import client from 'prom-client'

export type Metrics = ReturnType<typeof createMetrics>

export function createMetrics () {
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry })
  return {
    registry,
    httpRequests: new client.Counter({ name: 'http_requests_total', help: 'Requests answered, by method, route and status', labelNames: ['method', 'route', 'status'] as const, registers: [registry] }),
    httpDuration: new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to answer, by method, route and status class',
      labelNames: ['method', 'route', 'status_class'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry]
    }),
    inFlight: new client.Gauge({ name: 'http_requests_in_flight', help: 'Requests being handled now', registers: [registry] }),
    rateLimitRejections: new client.Counter({ name: 'rate_limit_rejections_total', help: 'Requests refused with 429, by reason (rate or quota) and route', labelNames: ['reason', 'route'] as const, registers: [registry] }),
    workQueued: new client.Gauge({ name: 'work_queue_length', help: 'CPU-bound jobs waiting for a slot, by queue', labelNames: ['queue'] as const, registers: [registry] }),
    workRunning: new client.Gauge({ name: 'work_running', help: 'CPU-bound jobs running, by queue', labelNames: ['queue'] as const, registers: [registry] }),
    workRejections: new client.Counter({ name: 'work_rejections_total', help: 'Jobs refused because the queue was full (503), by queue', labelNames: ['queue'] as const, registers: [registry] }),
    remoteFetches: new client.Counter({ name: 'remote_fetches_total', help: 'Remote image fetches, by outcome', labelNames: ['outcome'] as const, registers: [registry] })
  }
}
