// Request metrics: counted once per answer, labelled by route pattern (never the raw
// URL, whose values are unbounded).
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Metrics } from '../metrics/metrics.js'
import type { RoutePolicy } from './route-config.js'

export function requestMetrics (metrics: Metrics) {
  return {
    enter (): void {
      metrics.inFlight.inc()
    },
    leave (request: FastifyRequest, reply: FastifyReply, route: RoutePolicy): void {
      metrics.inFlight.dec()
      const status = reply.statusCode
      const method = request.method
      metrics.httpRequests.inc({ method, route: route.url, status })
      metrics.httpDuration.observe({ method, route: route.url, status_class: `${Math.floor(status / 100)}xx` }, reply.elapsedTime / 1000)
    }
  }
}
