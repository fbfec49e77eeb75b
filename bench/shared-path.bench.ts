// The cost of the shared request path (request id, API-key auth, envelope, one log
// line) against a bare Fastify route answering the same JSON. Target: ≥ 0.85.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { createApp } from '../src/app.js'
import { type Config, testConfig } from '../src/config.js'
import { ok } from '../src/http/envelope.js'
import { Envelope } from '../src/http/envelope.js'
import { createKeyService } from '../src/keys/keys.js'
import { openSqliteStore } from '../src/store/sqlite/index.js'
import { type Benchmark, load } from './harness.js'

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
  const app = await createApp({ config, store, logger: { level: 'info', file: '/dev/null' } })
  await setup?.(app)
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  return {
    app,
    url,
    key,
    async close () {
      await app.close()
      await store.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

const bench: Benchmark = {
  name: 'Shared request path (foundation)',
  async run ({ duration }) {
    const bare = await startBareServer()
    const ours = await startOurServer((app) => {
      app.get('/bench/ping', { schema: { response: { 200: Envelope({ pong: Type.Boolean(), service: Type.String() }) } } }, async () => ok(ANSWER))
    })
    try {
      // Alternate the two, twice, so drift in machine load hits both alike.
      const results = { ours: [] as number[], bare: [] as number[] }
      for (let round = 0; round < 2; round++) {
        results.bare.push((await load({ url: `${bare.url}/bench/ping`, duration: duration / 2 })).requestsPerSec)
        const r = await load({ url: `${ours.url}/bench/ping`, headers: { authorization: ours.key }, duration: duration / 2 })
        if (r.non2xx > 0) throw new Error(`our route answered ${r.non2xx} non-2xx`)
        results.ours.push(r.requestsPerSec)
      }
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
      return [{
        name: 'GET with API key, JSON envelope answer (32 connections, autocannon, loopback)',
        ours: mean(results.ours),
        reference: mean(results.bare),
        referenceName: 'bare Fastify route',
        unit: 'req/s',
        better: 'higher',
        target: 0.85
      }]
    } finally {
      await ours.close()
      await bare.app.close()
    }
  }
}
export default bench
