// The benchmark harness's shared pieces: what a benchmark reports, how to load an
// HTTP server on loopback (autocannon), and how to time an in-process function.
// Benchmarks print ratios against a reference run in the same process, never assert.
import { performance } from 'node:perf_hooks'
import autocannon from 'autocannon'

export interface BenchRow {
  /** What was measured, e.g. "shared request path (auth + envelope)". */
  name: string
  /** Our figure, in `unit`. */
  ours: number
  /** The reference figure, in `unit`; omitted for rows that stand alone. */
  reference?: number
  /** What the reference is, e.g. "bare Fastify route". */
  referenceName?: string
  unit: string
  /** "higher" when bigger is better (throughput), "lower" for latency/size. */
  better: 'higher' | 'lower'
  /** The target ratio ours/reference (or reference/ours for "lower"), if the issue set one. */
  target?: number
  note?: string
}

export interface Benchmark {
  name: string
  run (options: BenchOptions): Promise<BenchRow[]>
}

export interface BenchOptions {
  /** Seconds per HTTP load run. */
  duration: number
  /** Quick mode: smaller inputs and shorter runs, for a smoke check. */
  quick: boolean
}

/** ours/reference, oriented so that above 1 is always "ours is better". */
export function ratioOf (row: BenchRow): number | undefined {
  if (row.reference === undefined || row.reference === 0 || row.ours === 0) return undefined
  return row.better === 'higher' ? row.ours / row.reference : row.reference / row.ours
}

export interface LoadResult {
  requestsPerSec: number
  latencyP50: number
  latencyP99: number
  errors: number
  non2xx: number
  statusCounts: Record<string, number>
  /** Answers per exact status code. */
  statusCodes: Record<string, number>
}

export interface LoadOptions {
  url: string
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string | Buffer
  connections?: number
  duration: number
  /** Several request shapes, round-robin (mixed loads). */
  requests?: Array<{ method?: 'GET' | 'POST', path: string, headers?: Record<string, string>, body?: string | Buffer }>
}

/** Drives a loopback HTTP server for a bounded time with autocannon. */
export async function load (options: LoadOptions): Promise<LoadResult> {
  const target = new URL(options.url)
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error('benchmarks only load loopback servers')
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? 32,
    pipelining: 1,
    duration: options.duration,
    // The load generator runs on its own thread, so it does not steal the event loop
    // of the server it measures (both live in this process). Binary bodies cannot be
    // handed to a worker (they arrive as Uint8Array, which autocannon refuses): those
    // loads run on this thread, against servers in other processes.
    workers: options.requests?.some((r) => Buffer.isBuffer(r.body)) === true || Buffer.isBuffer(options.body) ? undefined : 1,
    requests: options.requests as autocannon.Request[] | undefined
  })
  return {
    requestsPerSec: result.requests.average,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statusCounts: {
      '1xx': result['1xx'], '2xx': result['2xx'], '3xx': result['3xx'], '4xx': result['4xx'], '5xx': result['5xx']
    },
    statusCodes: Object.fromEntries(Object.entries((result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {}).map(([code, v]) => [code, v.count]))
  }
}

/**
 * Operations per second of an async or sync function, measured over `seconds` after
 * a short warm-up. Alternate calls of two functions with `compare` for fairness.
 */
export async function opsPerSec (fn: () => unknown, seconds = 2): Promise<number> {
  const warmEnd = performance.now() + Math.min(500, seconds * 250)
  while (performance.now() < warmEnd) await fn()
  let n = 0
  const start = performance.now()
  const end = start + seconds * 1000
  while (performance.now() < end) {
    await fn()
    n++
  }
  return n / ((performance.now() - start) / 1000)
}

/** The median; for an even count, the mean of the two middle values. */
export function median (xs: number[]): number {
  const sorted = [...xs].sort((x, y) => x - y)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/**
 * Measures two functions in alternating rounds, so that drift in machine load hits both
 * alike; returns operations per second of each (median over rounds).
 */
export async function compare (a: () => unknown, b: () => unknown, seconds = 4, rounds = 4): Promise<[number, number]> {
  const ra: number[] = []
  const rb: number[] = []
  for (let i = 0; i < rounds; i++) {
    ra.push(await opsPerSec(a, seconds / rounds / 2))
    rb.push(await opsPerSec(b, seconds / rounds / 2))
  }
  return [median(ra), median(rb)]
}

/**
 * Two HTTP throughput measurements taken in alternating rounds (b first), so that drift
 * in machine load hits both alike; the median of each.
 */
export async function alternateLoads (a: () => Promise<number>, b: () => Promise<number>, rounds = 2): Promise<[number, number]> {
  const ra: number[] = []
  const rb: number[] = []
  for (let round = 0; round < rounds; round++) {
    rb.push(await b())
    ra.push(await a())
  }
  return [median(ra), median(rb)]
}

/**
 * HTTP throughput measurements of several servers, each once per round, the order
 * reversed every other round, so that drift in machine load and the position in a round
 * hit all alike. Returns each one's results in round order (for per-round ratios).
 */
export async function roundsOf<K extends string> (loads: Record<K, () => Promise<number>>, rounds: number): Promise<Record<K, number[]>> {
  const names = Object.keys(loads) as K[]
  const results = Object.fromEntries(names.map((name) => [name, []])) as unknown as Record<K, number[]>
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 1 ? [...names].reverse() : names
    for (const name of order) results[name].push(await loads[name]())
  }
  return results
}

/** "0.98, 1.02, …": the ratio of a to b in each round. */
export function perRoundRatios (a: number[], b: number[]): string {
  return a.map((x, i) => (x / b[i]!).toFixed(2)).join(', ')
}

export interface RequestLoopOptions {
  url: string
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string | Buffer
  /** Requests in flight at once (one keep-alive connection each). */
  parallel: number
  seconds: number
}

// The loop run by requestLoop's worker: CommonJS, evaluated from this string.
const REQUEST_LOOP_WORKER = `
const http = require('node:http')
const { parentPort, workerData: o } = require('node:worker_threads')
const { performance } = require('node:perf_hooks')
const agent = new http.Agent({ keepAlive: true, maxSockets: o.parallel })
const body = o.body === undefined ? undefined : Buffer.from(o.body)
const headers = { ...o.headers }
if (body !== undefined) headers['content-length'] = body.length
const once = () => new Promise((resolve, reject) => {
  const req = http.request(o.url, { method: o.method, agent, headers }, (res) => {
    res.on('data', () => {})
    res.on('end', () => res.statusCode === 200 ? resolve() : reject(new Error(o.url + ' answered ' + res.statusCode)))
  })
  req.on('error', reject)
  req.end(body)
})
const loop = async (end) => { let n = 0; while (performance.now() < end) { await once(); n++ } return n }
;(async () => {
  const warm = performance.now() + 200
  await Promise.all(Array.from({ length: o.parallel }, () => loop(warm)))
  const start = performance.now()
  const counts = await Promise.all(Array.from({ length: o.parallel }, () => loop(start + o.seconds * 1000)))
  parentPort.postMessage(counts.reduce((a, b) => a + b, 0) / ((performance.now() - start) / 1000))
})().catch((err) => parentPort.postMessage({ error: String(err && err.message || err) }))
`

/**
 * Completed requests per second of `parallel` loops each sending the request and reading
 * the whole answer back to back for `seconds`, from a worker thread: the client's work
 * stays off the event loop of the server it measures (as autocannon's thread does), and
 * a request started before the end is waited for and counted (autocannon drops those,
 * a large share at a few requests per second). Fails on any answer but 200.
 */
export async function requestLoop (options: RequestLoopOptions): Promise<number> {
  const { Worker } = await import('node:worker_threads')
  const body = typeof options.body === 'string' ? Buffer.from(options.body) : options.body
  const worker = new Worker(REQUEST_LOOP_WORKER, {
    eval: true,
    workerData: { url: options.url, method: options.method ?? 'POST', headers: options.headers ?? {}, body: body === undefined ? undefined : new Uint8Array(body), parallel: options.parallel, seconds: options.seconds }
  })
  try {
    const result = await new Promise<number | { error: string }>((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
    })
    if (typeof result !== 'number') throw new Error(result.error)
    return result
  } finally {
    await worker.terminate()
  }
}
