// Request metrics: counted once per answer, labelled by route pattern (never the raw
// URL, whose values are unbounded).
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Metrics } from '../metrics/metrics.js'
import type { RoutePolicy } from './route-config.js'

export function requestMetrics (metrics: Metrics) {
  return {
    enter (): void {
      metrics.requests.enter()
    },
    leave (request: FastifyRequest, reply: FastifyReply, route: RoutePolicy): void {
      metrics.requests.record(request.method, route.url, reply.statusCode, reply.elapsedTime / 1000)
    }
  }
}
