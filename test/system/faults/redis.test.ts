// Redis failing under the built server (issue 25): the rate-limit counters reach Redis
// through a fault proxy (test/support/fault-proxy.ts) that cuts, delays, stalls or black-holes
// the connection. What users rely on, not timings: keyed requests keep answering (200 on
// this instance's own counters, never 500), /healthz answers, the counters go back to
// Redis by themselves when it answers again, a start without Redis serves, SIGTERM during
// an outage exits 0, and RATE_LIMIT_ON_STORE_ERROR=closed refuses with 503 and
// Retry-After instead. Each outage lasts a few seconds at most.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { Redis } from 'ioredis'
import { redisMissing, TEST_REDIS_URL, uniqueName } from '../../support/backends.js'
import { type FaultProxy, startFaultProxy } from '../../support/fault-proxy.js'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, type SimpleResponse, startServerProcess, until } from '../../support/processes.js'

const missing = await redisMissing()
const target = new URL(TEST_REDIS_URL)
const KEY = 'um_faults_redis_test_key_0123456789'
/** Longest a request may take while Redis fails (its deadline is 250 ms; the rest is slack for a loaded machine). */
const BOUNDED_MS = 3000

interface Instance { proxy: FaultProxy, server: ServerProcess, prefix: string, dir: string }

async function startInstance (env: Record<string, string> = {}, cutFirst = false): Promise<Instance> {
  const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 6379) })
  if (cutFirst) await proxy.cut()
  const prefix = `${uniqueName('faults')}:`
  const dir = tempDir('uma-faults-')
  // A server that fails to start must not leave the proxy listening: the file would never end.
  const server = await startServerProcess({
    DATA_DIR: dir,
    REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
    REDIS_PREFIX: prefix,
    API_KEYS: KEY,
    GIF_STARTER_CATALOG: 'false',
    SHUTDOWN_TIMEOUT_MS: '5000',
    ...env
  }).catch(async (err: unknown) => { await proxy.close(); throw err })
  return { proxy, server, prefix, dir }
}

async function stopInstance (i: Instance | undefined): Promise<void> {
  if (i === undefined) return
  await i.server.stop()
  await i.proxy.close()
  const redis = new Redis(TEST_REDIS_URL)
  try {
    const keys = await redis.keys(`${i.prefix}*`)
    if (keys.length > 0) await redis.del(...keys)
  } finally {
    redis.disconnect()
  }
  fs.rmSync(i.dir, { recursive: true, force: true })
}

/** A request that must answer within `ms`. */
async function bounded (url: string, headers: Record<string, string> = {}, ms = BOUNDED_MS): Promise<SimpleResponse> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error(`${url} did not answer within ${ms} ms`)), ms) })
  try {
    return await Promise.race([request(url, { headers }), late])
  } finally {
    clearTimeout(timer)
  }
}

const keyed = (i: Instance): Promise<SimpleResponse> => bounded(`${i.server.url}/color/random`, { authorization: KEY })

/** Units counted in Redis for the test key (read directly, not through the proxy). */
async function countedInRedis (i: Instance): Promise<number> {
  const redis = new Redis(TEST_REDIS_URL)
  try {
    const keys = await redis.keys(`${i.prefix}rl:k*`)
    const values = keys.length === 0 ? [] : await redis.mget(...keys)
    return values.reduce((sum, v) => sum + Number(v ?? 0), 0)
  } finally {
    redis.disconnect()
  }
}

/**
 * Asserts that keyed requests are counted in Redis again, within a few seconds. Closed,
 * the instance refuses them (503) until it has seen Redis answer again.
 */
async function countsInRedisAgain (i: Instance, closed = false): Promise<void> {
  const before = await countedInRedis(i)
  const end = Date.now() + 10_000
  for (;;) {
    const res = await keyed(i)
    if (!(closed && res.status === 503)) assert.equal(res.status, 200, res.body.toString())
    if (await countedInRedis(i) > before) return
    if (Date.now() > end) assert.fail(`requests are still not counted in Redis 10 s after it came back\n${i.server.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** Keyed requests and /healthz during an outage of `ms`: all answer, none 500. */
async function answersThroughout (i: Instance, ms: number): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    const [health, res] = await Promise.all([bounded(`${i.server.url}/healthz`), keyed(i)])
    assert.equal(health.status, 200)
    assert.equal(res.status, 200, `a keyed request during the outage answered ${res.status}: ${res.body.toString()}`)
    assert.ok(res.headers['x-ratelimit-remaining'] !== undefined, 'the limit is still applied (on local counters)')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const warnings = (output: string): string[] => output.split('\n').filter((l) => l.includes('does not answer'))

describe('Redis failing under a running server (RATE_LIMIT_ON_STORE_ERROR=open)', { skip: missing }, () => {
  let i: Instance
  before(async () => { i = await startInstance({ RATE_LIMIT_MAX: '1000' }) })
  after(() => stopInstance(i))

  it('counts in Redis while it answers', async () => {
    assert.equal((await keyed(i)).status, 200)
    assert.ok(await countedInRedis(i) >= 1)
  })

  it('Redis cut: keyed requests answer 200 on local counters (no 500), and are counted in Redis again once it is back', async () => {
    await i.proxy.cut()
    // A limit still applies, counted here: the remaining units go down request by request.
    const remaining: number[] = []
    for (let n = 0; n < 3; n++) {
      const res = await keyed(i)
      assert.equal(res.status, 200, res.body.toString())
      remaining.push(Number(res.headers['x-ratelimit-remaining']))
    }
    assert.ok(remaining[0]! > remaining[1]! && remaining[1]! > remaining[2]!, `remaining ${remaining.join(', ')}`)
    await answersThroughout(i, 1000)
    await i.proxy.pass()
    await countsInRedisAgain(i)
    // One line when the outage started, one when it ended.
    await until(() => i.server.output().includes('answers again'))
  })

  it('Redis black-holed: /healthz and keyed requests keep answering, and recover without a restart', async () => {
    await i.proxy.blackHole()
    await answersThroughout(i, 2000)
    await i.proxy.pass()
    await countsInRedisAgain(i)
  })

  it('Redis stalling new connections after a cut: requests keep answering, and recover', async () => {
    await i.proxy.cut()
    assert.equal((await keyed(i)).status, 200)
    await i.proxy.stall()
    await answersThroughout(i, 2000)
    await i.proxy.pass()
    await countsInRedisAgain(i)
  })

  it('Redis answering in 2 s: requests do not wait for it, and recover', async () => {
    await i.proxy.delay(2000)
    await answersThroughout(i, 2500)
    await i.proxy.pass()
    await countsInRedisAgain(i)
  })

  it('logs each outage once, with no unhandled error and no stack', () => {
    const out = i.server.output()
    assert.doesNotMatch(out, /Unhandled error event/)
    assert.doesNotMatch(out, /\n\s+at /, 'no stack trace')
    // Four outages above, one line each (not one per request or per reconnection).
    assert.equal(warnings(out).length, 4, warnings(out).join('\n'))
  })
})

describe('starting with Redis unreachable', { skip: missing }, () => {
  let i: Instance
  before(async () => { i = await startInstance({}, true) })
  after(() => stopInstance(i))

  it('starts degraded with one clear line, serves keyed requests, and switches to Redis when it comes', async () => {
    assert.equal((await bounded(`${i.server.url}/healthz`)).status, 200)
    assert.equal((await keyed(i)).status, 200)
    const out = i.server.output()
    assert.equal(warnings(out).length, 1, out)
    assert.doesNotMatch(out, /Unhandled error event/)
    assert.doesNotMatch(out, /\n\s+at /, 'no stack trace')
    assert.equal(await countedInRedis(i), 0)
    await i.proxy.pass()
    await countsInRedisAgain(i)
  })

  it('SIGTERM during an outage exits 0', async () => {
    await i.proxy.blackHole()
    assert.equal((await keyed(i)).status, 200)
    assert.equal(await i.server.stop(), 0, i.server.output())
  })
})

describe('RATE_LIMIT_ON_STORE_ERROR=closed', { skip: missing }, () => {
  let i: Instance
  before(async () => { i = await startInstance({ RATE_LIMIT_ON_STORE_ERROR: 'closed' }) })
  after(() => stopInstance(i))

  it('refuses keyed requests with 503, Retry-After and the envelope while Redis is cut, and serves again once it is back', async () => {
    assert.equal((await keyed(i)).status, 200)
    await i.proxy.cut()
    const res = await keyed(i)
    assert.equal(res.status, 503, res.body.toString())
    assert.match(String(res.headers['content-type']), /^application\/json/)
    assert.ok(Number(res.headers['retry-after']) > 0, `Retry-After: ${res.headers['retry-after']}`)
    const body = JSON.parse(res.body.toString())
    assert.equal(body.success, false)
    assert.equal(body.code, 503)
    assert.equal(body.error, 'SERVICE_UNAVAILABLE')
    assert.match(body.message, /Retry-After/)
    assert.equal(body.requestId, res.headers['x-request-id'])
    // The health check is not rate-limited, and /me is free (never refused): both answer.
    assert.equal((await bounded(`${i.server.url}/healthz`)).status, 200)
    assert.equal((await bounded(`${i.server.url}/me`, { authorization: KEY })).status, 200)
    await i.proxy.pass()
    await countsInRedisAgain(i, true)
    assert.equal((await keyed(i)).status, 200)
  })

  it('SIGTERM during an outage exits 0', async () => {
    await i.proxy.cut()
    assert.equal((await keyed(i)).status, 503)
    assert.equal(await i.server.stop(), 0, i.server.output())
  })
})
