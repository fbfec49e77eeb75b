// Prometheus metrics: counted per route and status, served on their own port only.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startMetricsServer } from '../../../src/metrics/server.js'
import { readinessReport } from '../../../src/system/routes.js'
import { createTestApp, type TestApp } from '../../support/helpers.js'
import { request } from '../../support/processes.js'

let t: TestApp
let metrics: Awaited<ReturnType<typeof startMetricsServer>>

before(async () => {
  t = await createTestApp({ config: { rateLimitMax: 2, metricsPort: 0 } })
  metrics = await startMetricsServer(t.app.services.metrics.registry!, 0, '127.0.0.1', { readiness: () => readinessReport(t.store, t.app.services.counters) })
})
after(async () => {
  await metrics.close()
  await t.close()
})

describe('metrics', () => {
  it('counts requests by route and status, durations, and rate-limit refusals', async () => {
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: '/gen/html?code=418', headers: t.auth })
    await t.app.inject({ method: 'GET', url: '/no/such/path' })
    const res = await request(`http://127.0.0.1:${metrics.port}/metrics`)
    assert.equal(res.status, 200)
    assert.match(String(res.headers['content-type']), /^text\/plain/)
    const text = res.body.toString()
    assert.match(text, /http_requests_total\{method="GET",route="\/gen\/html",status="418"\} 2/)
    assert.match(text, /http_requests_total\{method="GET",route="\/gen\/html",status="429"\} 1/)
    assert.match(text, /http_requests_total\{method="GET",route="unknown",status="404"\} 1/)
    assert.match(text, /http_request_duration_seconds_count\{method="GET",route="\/gen\/html",status_class="4xx"\} 3/)
    assert.match(text, /rate_limit_rejections_total\{reason="rate",route="\/gen\/html"\} 1/)
    assert.match(text, /http_requests_in_flight 0/)
    assert.match(text, /process_cpu_user_seconds_total/)
    assert.match(text, /nodejs_eventloop_lag_seconds/)
  })

  it('serves the operator\'s readiness report on the metrics port: the store, the database and the counters in detail', async () => {
    const res = await request(`http://127.0.0.1:${metrics.port}/readyz`)
    assert.equal(res.status, 200)
    assert.match(String(res.headers['content-type']), /^application\/json/)
    const report = JSON.parse(res.body.toString())
    assert.deepEqual({ status: report.status, store: report.store, counters: report.counters, state: report.database.state }, { status: 'ready', store: t.store.kind, counters: { state: 'ok', kind: 'memory' }, state: 'ok' })
  })

  it('serves only GET /metrics and GET /readyz on the metrics port, and nothing of it on the public port', async () => {
    assert.equal((await request(`http://127.0.0.1:${metrics.port}/other`)).status, 404)
    assert.equal((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode, 404)
  })

  it('counts nothing without METRICS_PORT: no registry exists, requests are answered as usual', async () => {
    const plain = await createTestApp()
    try {
      assert.equal(plain.app.services.metrics.registry, undefined)
      const res = await plain.app.inject({ method: 'GET', url: '/gen/html?code=418', headers: plain.auth })
      assert.equal(res.statusCode, 418)
      assert.equal((await plain.app.inject({ method: 'GET', url: '/no/such/path' })).statusCode, 404)
    } finally {
      await plain.close()
    }
  })
})
