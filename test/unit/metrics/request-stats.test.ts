// Request counts and durations kept in plain numbers must print exactly what
// prom-client's own Counter, Histogram and Gauge print for the same requests.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import client from 'prom-client'
import { createRequestStats, DURATION_BUCKETS } from '../../../src/metrics/request-stats.js'

const REQUESTS: Array<[string, string, number, number]> = [
  ['GET', '/sfw/gif/:imageType', 200, 0.0005],
  ['GET', '/sfw/gif/:imageType', 200, 0.001], // on a bound: counted in le="0.001"
  ['GET', '/sfw/gif/:imageType', 204, 0.003], // same status class as 200
  ['GET', '/sfw/gif/:imageType', 400, 0.02],
  ['POST', '/convert/image-png', 200, 1.7],
  ['POST', '/convert/image-png', 503, 30], // past the last bound: only +Inf
  ['GET', 'unknown', 404, 0.0001]
]

/** The printed lines of one metric, sorted (series order is not part of the format). */
async function lines (registry: client.Registry, name: string): Promise<string[]> {
  const text = await registry.getSingleMetricAsString(name)
  return text.split('\n').filter((l) => l !== '' && !l.startsWith('#')).sort()
}

describe('request stats', () => {
  it('prints the same series as prom-client fed the same requests', async () => {
    const ours = new client.Registry()
    const stats = createRequestStats(ours)
    const theirs = new client.Registry()
    const counter = new client.Counter({ name: 'http_requests_total', help: 'h', labelNames: ['method', 'route', 'status'], registers: [theirs] })
    const histogram = new client.Histogram({ name: 'http_request_duration_seconds', help: 'h', labelNames: ['method', 'route', 'status_class'], buckets: DURATION_BUCKETS, registers: [theirs] })
    const gauge = new client.Gauge({ name: 'http_requests_in_flight', help: 'h', registers: [theirs] })
    for (const [method, route, status, seconds] of REQUESTS) {
      stats.enter()
      gauge.inc()
      stats.record(method, route, status, seconds)
      gauge.dec()
      counter.inc({ method, route, status })
      histogram.observe({ method, route, status_class: `${Math.floor(status / 100)}xx` }, seconds)
    }
    stats.enter() // one still running
    gauge.inc()
    for (const name of ['http_requests_total', 'http_request_duration_seconds', 'http_requests_in_flight']) {
      assert.deepEqual(await lines(ours, name), await lines(theirs, name), name)
    }
    // And the facts behind them, spelled out once.
    const histogramLines = await lines(ours, 'http_request_duration_seconds')
    assert.ok(histogramLines.includes('http_request_duration_seconds_bucket{le="0.001",method="GET",route="/sfw/gif/:imageType",status_class="2xx"} 2'))
    assert.ok(histogramLines.includes('http_request_duration_seconds_count{method="GET",route="/sfw/gif/:imageType",status_class="2xx"} 3'))
    assert.ok(histogramLines.includes('http_request_duration_seconds_bucket{le="10",method="POST",route="/convert/image-png",status_class="5xx"} 0'))
    assert.ok(histogramLines.includes('http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/convert/image-png",status_class="5xx"} 1'))
    assert.deepEqual(await lines(ours, 'http_requests_in_flight'), ['http_requests_in_flight 1'])
  })
})
