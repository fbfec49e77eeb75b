// A keyed welcome card drawn against the same card served from the result cache (issue
// 38, item 4: a cached picture at least 20 times faster than a drawn one), side by side
// in one run: alternating rounds of cards with new parameters (each one drawn, X-Cache:
// miss) and of one card asked again (X-Cache: hit), one request at a time on one
// kept-alive connection, through the whole request path (key, rate limit, the card's
// checks, the address, the disk read and its check). The client runs on a thread of its
// own, as a bot runs elsewhere (bench/harness.ts, requestLoop, does the same): its
// reading of 200 KB answers stays off the event loop it measures. Signed links replay
// this keyed route, so a link's picture costs what the keyed one does. Reported as mean
// time per picture; the ratio is drawn / cached.
//
// The second row is the other figure (a welcome card by link at least 10 times
// the throughput of the keyed uncached route): pictures per second under concurrent
// load, a few connections at once, of GET of one signed link (signed offline with the
// key's link secret from GET /me, as a bot does; no If-None-Match, as a proxy fetching
// fresh: every answer a full 200) against the keyed POST /gen/welcome with new
// parameters each request (each one drawn), on the same server, in alternating rounds of
// the same length. The key's rate limit is out of the way (testConfig's): it is not what
// is measured.
import { createHmac } from 'node:crypto'
import { Worker } from 'node:worker_threads'
import { type Benchmark, type BenchRow, median, perRoundRatios, roundsOf } from './harness.js'
import { startOurServer } from './shared-path.bench.js'

const ROUNDS = 4

// The client's thread: sends each batch of bodies one after the other and answers the
// time they took, or the first answer that was not a 200 with the X-Cache expected.
const CLIENT = `
const http = require('node:http')
const { parentPort, workerData: o } = require('node:worker_threads')
const { performance } = require('node:perf_hooks')
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const post = (body) => new Promise((resolve, reject) => {
  const req = http.request(o.url, { method: 'POST', agent, headers: { authorization: o.key, 'content-type': 'application/json' } }, (res) => {
    let bytes = 0
    res.on('data', (d) => { bytes += d.length })
    res.on('end', () => resolve({ status: res.statusCode, cache: String(res.headers['x-cache']), bytes }))
  })
  req.on('error', reject)
  req.end(body)
})
parentPort.on('message', async ({ bodies, expect }) => {
  try {
    const start = performance.now()
    let bytes = 0
    for (const body of bodies) {
      const answer = await post(body)
      if (answer.status !== 200 || (expect !== undefined && answer.cache !== expect)) return parentPort.postMessage({ error: 'answered ' + answer.status + ', X-Cache ' + answer.cache })
      bytes = answer.bytes
    }
    parentPort.postMessage({ ms: performance.now() - start, bytes })
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message || err) })
  }
})
`

// The load's thread: `parallel` kept-alive connections, each sending its next request
// as soon as the last answer is read, for `seconds` after a short warm-up; a request
// started before the end is waited for and counted (a drawn card takes a good part of a
// second). Answers pictures per second, or the first answer that was not a 200 with the
// X-Cache expected. POSTs with a prefix carry a new username each (a card never drawn
// before); without one, the card as given.
const LOAD = `
const http = require('node:http')
const { parentPort, workerData: o } = require('node:worker_threads')
const { performance } = require('node:perf_hooks')
const agent = new http.Agent({ keepAlive: true, maxSockets: o.parallel })
let n = 0
const once = () => new Promise((resolve, reject) => {
  const headers = o.method === 'POST' ? { authorization: o.key, 'content-type': 'application/json' } : {}
  const body = o.method === 'POST' ? JSON.stringify(o.prefix === undefined ? o.card : { ...o.card, username: o.prefix + ' ' + (n++) }) : undefined
  const req = http.request(o.url, { method: o.method, agent, headers }, (res) => {
    res.on('data', () => {})
    res.on('end', () => res.statusCode === 200 && String(res.headers['x-cache']) === o.expect ? resolve() : reject(new Error(o.method + ' answered ' + res.statusCode + ', X-Cache ' + res.headers['x-cache'])))
  })
  req.on('error', reject)
  req.end(body)
})
const loop = async (end) => { let k = 0; while (performance.now() < end) { await once(); k++ } return k }
;(async () => {
  const warm = performance.now() + 300
  await Promise.all(Array.from({ length: o.parallel }, () => loop(warm)))
  const start = performance.now()
  const counts = await Promise.all(Array.from({ length: o.parallel }, () => loop(start + o.seconds * 1000)))
  parentPort.postMessage(counts.reduce((a, b) => a + b, 0) / ((performance.now() - start) / 1000))
})().catch((err) => parentPort.postMessage({ error: String(err && err.message || err) }))
`

async function loadOf (workerData: Record<string, unknown>): Promise<number> {
  const worker = new Worker(LOAD, { eval: true, workerData })
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

/** Connections at once for the throughput row: a few, as a burst of embeds fetching. */
const CONNECTIONS = 4
/** Alternating rounds of the throughput row (each side once per round). */
const LOAD_ROUNDS = 5

const WELCOME = { members: 'Member #1234', banner: 'space', icon: 'star', output: 'png' }

/**
 * The link-versus-keyed throughput row, on a server with the result cache on; and, for
 * information, the link against the same card keyed from the cache (what the link's
 * own path, its check and the replay of the keyed request, adds).
 */
async function linkThroughput (server: { url: string, key: string }, duration: number): Promise<BenchRow[]> {
  // The key's link id and secret, as a bot reads them once at start.
  const me = await (await fetch(`${server.url}/me`, { headers: { authorization: server.key } })).json() as { links: { id: string, secret: string } }
  const target = `/gen/welcome?${new URLSearchParams({ username: 'Linked Ada', ...WELCOME }).toString().replaceAll('+', '%20')}`
  const sig = createHmac('sha256', me.links.secret).update(`${me.links.id}/0${target}`).digest('base64url')
  const link = `${server.url}/l/${me.links.id}/0/${sig}${target}`
  // The first fetch draws it (X-Cache: miss); every later one is served from the cache.
  const first = await fetch(link)
  await first.arrayBuffer()
  if (first.status !== 200) throw new Error(`the link answered ${first.status}`)
  const bytes = Number((await (await fetch(link)).arrayBuffer()).byteLength)
  const seconds = duration / LOAD_ROUNDS / 2
  let round = 0
  const results = await roundsOf({
    link: async () => await loadOf({ url: link, method: 'GET', expect: 'hit', parallel: CONNECTIONS, seconds }),
    keyed: async () => await loadOf({ url: `${server.url}/gen/welcome`, method: 'POST', key: server.key, card: WELCOME, prefix: `Load ${round++}`, expect: 'miss', parallel: CONNECTIONS, seconds }),
    keyedHit: async () => await loadOf({ url: `${server.url}/gen/welcome`, method: 'POST', key: server.key, card: { username: 'Linked Ada', ...WELCOME }, expect: 'hit', parallel: CONNECTIONS, seconds })
  }, LOAD_ROUNDS)
  return [{
    name: `welcome card (1024×450 PNG, ${Math.round(bytes / 1024)} KB) by signed link against the keyed route uncached, ${CONNECTIONS} connections at once`,
    ours: median(results.link),
    reference: median(results.keyed),
    referenceName: 'keyed POST /gen/welcome, new parameters each (drawn)',
    unit: 'pictures/s',
    better: 'higher',
    target: 10,
    note: `GET of one link signed offline (no If-None-Match: every answer a full 200, X-Cache: hit) against POST with a new username each (X-Cache: miss), ${LOAD_ROUNDS} alternating rounds of ${seconds.toFixed(1)} s each side from a client thread; per-round ratios ${perRoundRatios(results.link, results.keyed)}`
  }, {
    name: 'the same link against the same card keyed from the result cache (information: what the link\'s check and replay add)',
    ours: median(results.link),
    reference: median(results.keyedHit),
    referenceName: 'keyed POST /gen/welcome, the same card (X-Cache: hit)',
    unit: 'pictures/s',
    better: 'higher',
    note: `same rounds and connections; per-round ratios ${perRoundRatios(results.link, results.keyedHit)}`
  }]
}

const bench: Benchmark = {
  name: 'Result cache: a keyed welcome card drawn vs served from the cache; by signed link vs keyed uncached',
  async run ({ quick, duration }) {
    const server = await startOurServer(undefined, { resultCacheMaxBytes: 256 * 1024 * 1024, rateLimitMax: 1_000_000_000 })
    const client = new Worker(CLIENT, { eval: true, workerData: { url: `${server.url}/gen/welcome`, key: server.key } })
    const batch = async (bodies: string[], expect?: 'hit' | 'miss'): Promise<{ ms: number, bytes: number }> => await new Promise((resolve, reject) => {
      client.once('message', (m: { ms: number, bytes: number } | { error: string }) => 'error' in m ? reject(new Error(m.error)) : resolve(m))
      client.postMessage({ bodies, expect })
    })
    const drawnPerRound = quick ? 5 : 15
    const cachedPerRound = quick ? 50 : 150
    const card = (username: string): string => JSON.stringify({ username, members: 'Member #1234', banner: 'space', icon: 'star', output: 'png' })
    let fresh = 0
    try {
      // Warm: the threads' fonts and art, and the cached card.
      await batch([0, 1, 2].map((i) => card(`warm ${i}`)))
      await batch([card('Cached Ada')])
      let drawnMs = 0
      let cachedMs = 0
      let bytes = 0
      for (let round = 0; round < ROUNDS; round++) {
        drawnMs += (await batch(Array.from({ length: drawnPerRound }, () => card(`New member ${fresh++}`)), 'miss')).ms
        const cached = await batch(Array(cachedPerRound).fill(card('Cached Ada')), 'hit')
        cachedMs += cached.ms
        bytes = cached.bytes
      }
      const timed: BenchRow = {
        name: `welcome card (1024×450 PNG, ${Math.round(bytes / 1024)} KB), one request at a time`,
        ours: cachedMs / (cachedPerRound * ROUNDS),
        reference: drawnMs / (drawnPerRound * ROUNDS),
        referenceName: 'drawn (new parameters, X-Cache: miss)',
        unit: 'ms per picture',
        better: 'lower',
        target: 20,
        note: `${drawnPerRound * ROUNDS} drawn, ${cachedPerRound * ROUNDS} from the cache (X-Cache: hit), in ${ROUNDS} alternating rounds on one kept-alive connection from a client thread; ours = from the cache`
      }
      return [timed, ...await linkThroughput(server, duration)]
    } finally {
      await client.terminate()
      await server.close()
    }
  }
}

export default bench
