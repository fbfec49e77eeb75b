// Requests answered and their durations, counted in plain numbers per route, method and
// status, and turned into Prometheus series only when /metrics is scraped.
// prom-client's labelled inc() and observe() build and hash a key from the label
// object on every call, a measurable share of every small request (docs/performance.md,
// "Prometheus counting"). Here a request costs three Map look-ups on values it already
// has, an increment and one bucket search.
import type { Metric, Registry } from 'prom-client'

/** Upper bounds (seconds) of http_request_duration_seconds. */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

interface Series {
  count: number
  sum: number
  /** Answers per bucket (not cumulative); the last slot is +Inf. */
  buckets: Float64Array
}

export interface RequestStats {
  enter (): void
  /** One answered request; `seconds` from its arrival to its answer. */
  record (method: string, route: string, status: number, seconds: number): void
}

type MetricValue = { value: number, labels: Record<string, string | number>, metricName?: string }

/** A metric prom-client's registry can print: it only calls get() (and reset()). */
function metric (name: string, help: string, type: 'counter' | 'gauge' | 'histogram', values: () => MetricValue[]): Metric<string> {
  return {
    name,
    help,
    type,
    aggregator: 'sum',
    async get () { return { name, help, type, aggregator: 'sum', values: values() } },
    reset () {}
  } as unknown as Metric<string>
}

/** Registers http_requests_total, http_request_duration_seconds and http_requests_in_flight. */
export function createRequestStats (registry: Registry): RequestStats {
  // route → method → status → series: the route and method strings are the same
  // instances request after request, so their hashes are computed once.
  const byRoute = new Map<string, Map<string, Map<number, Series>>>()
  let inFlight = 0

  const each = function * (): Generator<[string, string, number, Series]> {
    for (const [route, byMethod] of byRoute) {
      for (const [method, byStatus] of byMethod) {
        for (const [status, series] of byStatus) yield [method, route, status, series]
      }
    }
  }

  registry.registerMetric(metric('http_requests_total', 'Requests answered, by method, route and status', 'counter', () =>
    [...each()].map(([method, route, status, s]) => ({ value: s.count, labels: { method, route, status } }))))

  registry.registerMetric(metric('http_request_duration_seconds', 'Time from request to answer, by method, route and status class', 'histogram', () => {
    // Statuses of one class (200 and 204) share one histogram.
    const classes = new Map<string, { labels: Record<string, string>, series: Series }>()
    for (const [method, route, status, s] of each()) {
      const statusClass = `${Math.floor(status / 100)}xx`
      const key = `${method} ${route} ${statusClass}`
      let c = classes.get(key)
      if (!c) classes.set(key, c = { labels: { method, route, status_class: statusClass }, series: { count: 0, sum: 0, buckets: new Float64Array(DURATION_BUCKETS.length + 1) } })
      c.series.count += s.count
      c.series.sum += s.sum
      for (let i = 0; i < s.buckets.length; i++) c.series.buckets[i]! += s.buckets[i]!
    }
    const values: MetricValue[] = []
    for (const { labels, series } of classes.values()) {
      let cumulative = 0
      DURATION_BUCKETS.forEach((le, i) => {
        cumulative += series.buckets[i]!
        values.push({ metricName: 'http_request_duration_seconds_bucket', value: cumulative, labels: { le, ...labels } })
      })
      values.push({ metricName: 'http_request_duration_seconds_bucket', value: series.count, labels: { le: '+Inf', ...labels } })
      values.push({ metricName: 'http_request_duration_seconds_sum', value: series.sum, labels })
      values.push({ metricName: 'http_request_duration_seconds_count', value: series.count, labels })
    }
    return values
  }))

  registry.registerMetric(metric('http_requests_in_flight', 'Requests being handled now', 'gauge', () => [{ value: inFlight, labels: {} }]))

  return {
    enter () { inFlight++ },
    record (method, route, status, seconds) {
      inFlight--
      let byMethod = byRoute.get(route)
      if (!byMethod) byRoute.set(route, byMethod = new Map())
      let byStatus = byMethod.get(method)
      if (!byStatus) byMethod.set(method, byStatus = new Map())
      let series = byStatus.get(status)
      if (!series) byStatus.set(status, series = { count: 0, sum: 0, buckets: new Float64Array(DURATION_BUCKETS.length + 1) })
      series.count++
      series.sum += seconds
      let i = 0
      while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]!) i++
      series.buckets[i]!++
    }
  }
}
