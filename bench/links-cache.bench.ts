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
import { Worker } from 'node:worker_threads'
import type { Benchmark } from './harness.js'
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

const bench: Benchmark = {
  name: 'Result cache: a keyed welcome card drawn vs served from the cache',
  async run ({ quick }) {
    const server = await startOurServer(undefined, { resultCacheMaxBytes: 256 * 1024 * 1024 })
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
      return [{
        name: `welcome card (1024×450 PNG, ${Math.round(bytes / 1024)} KB), one request at a time`,
        ours: cachedMs / (cachedPerRound * ROUNDS),
        reference: drawnMs / (drawnPerRound * ROUNDS),
        referenceName: 'drawn (new parameters, X-Cache: miss)',
        unit: 'ms per picture',
        better: 'lower',
        target: 20,
        note: `${drawnPerRound * ROUNDS} drawn, ${cachedPerRound * ROUNDS} from the cache (X-Cache: hit), in ${ROUNDS} alternating rounds on one kept-alive connection from a client thread; ours = from the cache`
      }]
    } finally {
      await client.terminate()
      await server.close()
    }
  }
}

export default bench
