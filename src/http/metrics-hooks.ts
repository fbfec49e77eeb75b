// Request metrics: counted once per answer, labelled by route pattern (never the raw
// URL, whose values are unbounded).
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Metrics } from '../metrics/metrics.js'

export const metricsHooksPlugin = fp(async function metricsHooks (app: FastifyInstance, { metrics }: { metrics: Metrics }) {
  app.addHook('onRequest', function enter (_request, _reply, done) {
    metrics.inFlight.inc()
    done()
  })
  app.addHook('onResponse', function leave (request, reply, done) {
    metrics.inFlight.dec()
    const route = request.is404 ? 'unknown' : request.routeOptions.url ?? 'unknown'
    const status = reply.statusCode
    metrics.httpRequests.inc({ method: request.method, route, status })
    metrics.httpDuration.observe({ method: request.method, route, status_class: `${Math.floor(status / 100)}xx` }, reply.elapsedTime / 1000)
    done()
  })
}, { name: 'metrics-hooks' })
