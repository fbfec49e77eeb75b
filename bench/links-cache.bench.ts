// A keyed welcome card drawn against the same card served from the result cache (issue
// 38, item 4: a cached picture at least 20 times faster than a drawn one), side by side
// in one run: alternating rounds of pictures with new parameters (each one drawn, X-Cache:
// miss) and of one picture asked again (X-Cache: hit), one request at a time over HTTP on
// loopback on one kept-alive connection, through the whole request path (key, rate limit, the card's checks, the
// address, the disk read). Signed links replay this keyed route, so a link's picture
// costs what the keyed one does. Reported as mean time per picture; the ratio is drawn /
// cached.
import http from 'node:http'
import { performance } from 'node:perf_hooks'
import type { Benchmark } from './harness.js'
import { startOurServer } from './shared-path.bench.js'

const ROUNDS = 4

/** One kept-alive connection, as a bot holds one to the API. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })

function post (url: string, key: string, body: unknown): Promise<{ status: number, cache: string, bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/gen/welcome`, { method: 'POST', headers: { authorization: key, 'content-type': 'application/json' }, agent }, (res) => {
      let bytes = 0
      res.on('data', (d: Buffer) => { bytes += d.length })
      res.on('end', () => resolve({ status: res.statusCode!, cache: String(res.headers['x-cache']), bytes }))
    })
    req.on('error', reject)
    req.end(JSON.stringify(body))
  })
}

const bench: Benchmark = {
  name: 'Result cache: a keyed welcome card drawn vs served from the cache',
  async run ({ quick }) {
    const server = await startOurServer(undefined, { resultCacheMaxBytes: 256 * 1024 * 1024 })
    const drawnPerRound = quick ? 5 : 15
    const cachedPerRound = quick ? 50 : 150
    const card = (username: string) => ({ username, members: 'Member #1234', banner: 'space', icon: 'star', output: 'png' })
    let fresh = 0
    try {
      // Warm: the threads' fonts and art, and the cached card.
      for (let i = 0; i < 3; i++) await post(server.url, server.key, card(`warm ${i}`))
      const cached = await post(server.url, server.key, card('Cached Ada'))
      if (cached.status !== 200) throw new Error(`the card answered ${cached.status}`)
      let drawnMs = 0
      let drawnCount = 0
      let cachedMs = 0
      let cachedCount = 0
      let bytes = 0
      for (let round = 0; round < ROUNDS; round++) {
        let start = performance.now()
        for (let i = 0; i < drawnPerRound; i++) {
          const answer = await post(server.url, server.key, card(`New member ${fresh++}`))
          if (answer.status !== 200 || answer.cache !== 'miss') throw new Error(`a new card answered ${answer.status}, X-Cache ${answer.cache}`)
        }
        drawnMs += performance.now() - start
        drawnCount += drawnPerRound
        start = performance.now()
        for (let i = 0; i < cachedPerRound; i++) {
          const answer = await post(server.url, server.key, card('Cached Ada'))
          if (answer.status !== 200 || answer.cache !== 'hit') throw new Error(`the cached card answered ${answer.status}, X-Cache ${answer.cache}`)
          bytes = answer.bytes
        }
        cachedMs += performance.now() - start
        cachedCount += cachedPerRound
      }
      return [{
        name: `welcome card (1024×450 PNG, ${Math.round(bytes / 1024)} KB), one request at a time`,
        ours: cachedMs / cachedCount,
        reference: drawnMs / drawnCount,
        referenceName: 'drawn (new parameters, X-Cache: miss)',
        unit: 'ms per picture',
        better: 'lower',
        target: 20,
        note: `${drawnCount} drawn, ${cachedCount} from the cache (X-Cache: hit), in ${ROUNDS} alternating rounds on one kept-alive connection; ours = from the cache`
      }]
    } finally {
      agent.destroy()
      await server.close()
    }
  }
}

export default bench
