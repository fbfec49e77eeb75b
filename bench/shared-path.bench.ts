// The cost of the shared request path (request id, API-key auth, envelope, one log
// line) against a bare Fastify route answering the same JSON. Target: ≥ 0.85.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { createApp } from '../src/app.js'
import { createLogStream } from '../src/log-stream.js'
import { type Config, testConfig } from '../src/config.js'
import { ok } from '../src/http/envelope.js'
import { Envelope } from '../src/http/envelope.js'
import { createKeyService } from '../src/keys/keys.js'
import { openSqliteStore } from '../src/store/sqlite/index.js'
import { type Benchmark, load, median } from './harness.js'

const ANSWER = { pong: true, service: 'utility-media-api' }

/** The reference: Fastify with one route and nothing else. */
export async function startBareServer (): Promise<{ app: FastifyInstance, url: string }> {
  const app = Fastify({ logger: false })
  app.get('/bench/ping', async () => ({ success: true, code: 200, message: '', ...ANSWER }))
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, url }
}

/** Our app, as production runs it (info-level logs, to /dev/null), with a key. */
export async function startOurServer (setup?: (app: FastifyInstance) => void | Promise<void>, overrides: Partial<Config> = {}): Promise<{ app: FastifyInstance, url: string, key: string, close: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bench-'))
  const store = openSqliteStore(dataDir)
  const { key } = await createKeyService(store.keys).create('bench')
  const config = testConfig(dataDir, { logLevel: 'info', ...overrides })
  // Logs as production writes them (src/server.ts), to /dev/null.
  const logs = createLogStream('/dev/null')
  const app = await createApp({ config, store, logger: { level: config.logLevel, stream: logs.stream } })
  await setup?.(app)
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  return {
    app,
    url,
    key,
    async close () {
      await app.close()
      await store.close()
      logs.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

const ROUNDS = 3

const bench: Benchmark = {
  name: 'Shared request path (foundation)',
  async run ({ duration }) {
    const route = (app: FastifyInstance): void => {
      app.get('/bench/ping', { schema: { response: { 200: Envelope({ pong: Type.Boolean(), service: Type.String() }) } } }, async () => ok(ANSWER))
    }
    const bare = await startBareServer()
    const ours = await startOurServer(route)
    const quiet = await startOurServer(route, { logLevel: 'silent' })
    try {
      // Alternate the three, round after round, so drift in machine load hits all alike;
      // report medians and the spread of the per-round ratios.
      const results = { bare: [] as number[], ours: [] as number[], quiet: [] as number[] }
      const perRound = duration / ROUNDS
      for (let round = 0; round < ROUNDS; round++) {
        results.bare.push((await load({ url: `${bare.url}/bench/ping`, duration: perRound })).requestsPerSec)
        for (const [name, server] of [['ours', ours], ['quiet', quiet]] as const) {
          const r = await load({ url: `${server.url}/bench/ping`, headers: { authorization: server.key }, duration: perRound })
          if (r.non2xx > 0) throw new Error(`our route answered ${r.non2xx} non-2xx`)
          results[name].push(r.requestsPerSec)
        }
      }
      const spread = (xs: number[]): string => {
        const ratios = xs.map((x, i) => x / results.bare[i]!)
        return `per-round ratios ${ratios.map((r) => r.toFixed(2)).join(', ')}`
      }
      return [{
        name: 'GET with API key: auth, rate limit, usage, metrics, request id, one log line, envelope (32 connections, autocannon on its own thread, loopback)',
        ours: median(results.ours),
        reference: median(results.bare),
        referenceName: 'bare Fastify route',
        unit: 'req/s',
        better: 'higher',
        target: 0.85,
        note: spread(results.ours)
      }, {
        name: 'the same with LOG_LEVEL=silent (no request log line)',
        ours: median(results.quiet),
        reference: median(results.bare),
        referenceName: 'bare Fastify route',
        unit: 'req/s',
        better: 'higher',
        target: 0.85,
        note: spread(results.quiet)
      }]
    } finally {
      await ours.close()
      await quiet.close()
      await bare.app.close()
    }
  }
}
export default bench
