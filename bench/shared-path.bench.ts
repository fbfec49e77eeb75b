// The cost of the shared request path (request id, API-key auth, rate limit, usage,
// request deadline, envelope, one log line; metrics when METRICS_PORT is set) against a
// bare Fastify route answering the same JSON. Against, too, the same features assembled
// from the ecosystem's plugins (issue 18's target: ≥ 1.0): what a team would get without
// our path. And a hand-built piece against the library piece it replaces, swapped alone
// (the request deadline against Fastify's handlerTimeout: what keeping it costs or saves).
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import cors from '@fastify/cors'
import rateLimit from '@fastify/rate-limit'
import Fastify, { type FastifyInstance, LogController } from 'fastify'
import pino from 'pino'
import { Type } from 'typebox'
import { connectionOptions, createApp } from '../src/app.js'
import type { Config } from '../src/config.js'
import { testConfig } from '../test/support/config.js'
import { ok, Envelope } from '../src/http/envelope.js'
import { createKeyService, hashKey } from '../src/access/keys.js'
import { createMemoryCounterStore } from '../src/store/counters/memory.js'
import { openSqliteStore } from '../src/store/sqlite/index.js'
import { type Benchmark, type BenchRow, load, median, perRoundRatios, roundsOf } from './harness.js'

const ANSWER = { pong: true, service: 'utility-media-api' }

/** The reference: Fastify with one route and nothing else. */
export async function startBareServer (): Promise<{ app: FastifyInstance, url: string }> {
  const app = Fastify({ logger: false })
  app.get('/bench/ping', async () => ({ success: true, code: 200, message: '', ...ANSWER }))
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, url }
}

/**
 * The same features from the ecosystem, as a team might assemble them: a request id
 * header, an onRequest hook looking the key's SHA-256 up in memory (401 otherwise),
 * @fastify/rate-limit per key (its X-RateLimit-* headers), @fastify/cors (cross-origin
 * off for the API, as ours by default), Fastify's handlerTimeout at REQUEST_TIMEOUT_MS
 * (503 and request.signal, as our deadline), the same socket limits as ours, one pino
 * line per request through Fastify's logger to pino's own destination (SonicBoom, as
 * Fastify's default logger writes; to /dev/null), the same envelope. Usage counting,
 * quotas and the IETF rate-limit headers have no plugin: ours does them on top.
 */
export async function startPluginServer (key: string): Promise<{ app: FastifyInstance, url: string, key: string, close: () => Promise<void> }> {
  const logs = pinoDestination()
  const config = testConfig(os.tmpdir())
  const app = Fastify({
    logger: { level: 'info', stream: logs.stream },
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    handlerTimeout: config.requestTimeoutMs,
    ...connectionOptions(config)
  })
  const keys = new Map([[hashKey(key), 'bench']])
  app.decorateRequest('keyName', '')
  await app.register(cors, { origin: false })
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
    const name = keys.get(hashKey(request.headers.authorization ?? ''))
    if (name === undefined) return reply.code(401).send({ success: false, code: 401, message: 'Unknown API key' })
    ;(request as unknown as { keyName: string }).keyName = name
  })
  await app.register(rateLimit, { max: 1_000_000_000, timeWindow: 60_000, keyGenerator: (request) => String(request.headers.authorization) })
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ method: request.method, url: request.url, route: request.routeOptions.url, status: reply.statusCode, ms: reply.elapsedTime, key: (request as unknown as { keyName: string }).keyName, ip: request.ip }, 'request')
  })
  app.get('/bench/ping', { schema: { response: { 200: Envelope({ pong: Type.Boolean(), service: Type.String() }) } } }, async () => ok(ANSWER))
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, url, key, async close () { await app.close(); logs.close() } }
}

/** pino's own destination to /dev/null (SonicBoom, synchronous writes: pino's default). */
function pinoDestination (): { stream: pino.DestinationStream, close: () => void } {
  const stream = pino.destination({ dest: '/dev/null', sync: true })
  return { stream, close: () => stream.end() }
}

/** Our app, as production runs it (info-level logs through pino's destination, to /dev/null), with a key. */
export async function startOurServer (setup?: (app: FastifyInstance) => void | Promise<void>, overrides: Partial<Config> = {}): Promise<{ app: FastifyInstance, url: string, key: string, close: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bench-'))
  const store = openSqliteStore(dataDir)
  const { key } = await createKeyService(store.keys).create('bench')
  const config = testConfig(dataDir, { logLevel: 'info', ...overrides })
  // Logs as production writes them (src/server.ts), to /dev/null.
  const logs = pinoDestination()
  const app = await createApp({ config, store, counters: createMemoryCounterStore(), logger: { level: config.logLevel, stream: logs.stream } })
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

/** Alternating rounds: the host's load drifts by ±15 % within minutes. */
const ROUNDS = 5

type Server = { url: string, key?: string }

const bench: Benchmark = {
  name: 'Shared request path (foundation)',
  async run ({ duration }) {
    const route = (app: FastifyInstance): void => {
      app.get('/bench/ping', { schema: { response: { 200: Envelope({ pong: Type.Boolean(), service: Type.String() }) } } }, async () => ok(ANSWER))
    }
    const bare = await startBareServer()
    const ours = await startOurServer(route)
    const quiet = await startOurServer(route, { logLevel: 'silent' })
    // Counting for Prometheus happens only with METRICS_PORT set (off by default).
    const counted = await startOurServer(route, { metricsPort: 0 })
    const plugins = await startPluginServer(ours.key)
    // One piece swapped alone: our app without its request deadline (REQUEST_TIMEOUT_MS=0),
    // the route under Fastify's handlerTimeout at the same limit instead, the socket
    // timeout kept as the deadline's setting makes it.
    const defaults = testConfig(os.tmpdir())
    const handlerTimeout = await startOurServer((app) => {
      app.server.setTimeout(connectionOptions(defaults).connectionTimeout)
      app.get('/bench/ping', { handlerTimeout: defaults.requestTimeoutMs, schema: { response: { 200: Envelope({ pong: Type.Boolean(), service: Type.String() }) } } }, async () => ok(ANSWER))
    }, { requestTimeoutMs: 0 })
    try {
      // Every server once per round in alternating order; medians and the spread of the
      // per-round ratios.
      const servers: Record<string, Server> = { bare, ours, quiet, counted, plugins, handlerTimeout }
      const results = await roundsOf(Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, async () => {
        const r = await load({ url: `${server.url}/bench/ping`, headers: server.key === undefined ? undefined : { authorization: server.key }, duration: duration / ROUNDS })
        if (r.non2xx > 0) throw new Error(`${name} answered ${r.non2xx} non-2xx`)
        return r.requestsPerSec
      }])), ROUNDS)
      const row = (name: string, ours: string, reference: string, referenceName: string, target?: number): BenchRow => ({
        name,
        ours: median(results[ours]!),
        reference: median(results[reference]!),
        referenceName,
        unit: 'req/s',
        better: 'higher',
        target,
        note: `per-round ratios ${perRoundRatios(results[ours]!, results[reference]!)}`
      })
      return [
        // Against the bare route the ratio is information only: its target is retired
        // (docs/performance.md, "The shared request path").
        row('GET with API key, default settings: auth, rate limit, usage, deadline, request id, one log line, envelope (32 connections, autocannon on its own thread, loopback)', 'ours', 'bare', 'bare Fastify route'),
        row('the same with LOG_LEVEL=silent (no request log line)', 'quiet', 'bare', 'bare Fastify route'),
        row('the same with METRICS_PORT set (Prometheus counters and histogram per request)', 'counted', 'bare', 'bare Fastify route'),
        row('default settings, against the same features from the ecosystem (key hook, @fastify/rate-limit, @fastify/cors, Fastify\'s handlerTimeout and pino logger, the same socket limits)', 'ours', 'plugins', 'Fastify + plugins', 1.0),
        row('one piece swapped alone: our request deadline (src/http/deadline.ts) against Fastify\'s handlerTimeout at the same limit, the rest of our path unchanged (kept for correctness, not speed: docs/performance.md)', 'ours', 'handlerTimeout', 'with handlerTimeout')
      ]
    } finally {
      await ours.close()
      await quiet.close()
      await counted.close()
      await plugins.close()
      await handlerTimeout.close()
      await bare.app.close()
    }
  }
}
export default bench
