// Prepaid credits exact through Redis and PostgreSQL faults (issue 39; docs/billing.md,
// "Credits"): the built server in scale-out mode, PostgreSQL and Redis each through a
// fault proxy (test/support/fault-proxy.ts). A key of N credits is served exactly N
// units, whatever fails meanwhile: never past zero (no free picture), never charged twice
// (a batch whose reply was lost is retried under its id and raises the key's total
// once), never a 500: what cannot be checked is answered 503.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { dropSchema, postgresMissing, redisMissing, TEST_DATABASE_URL, TEST_REDIS_URL, uniqueName, urlWithSchema } from '../../support/backends.js'
import { lastLine, runBuiltCli } from '../../support/cli.js'
import { type FaultProxy, startFaultProxy } from '../../support/fault-proxy.js'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, startServerProcess, until } from '../../support/processes.js'

const missing = (await postgresMissing()) ?? (await redisMissing())
const OPERATOR = 'um_faults-credits-operator-key-01'
/** USAGE_FLUSH_MS of the server: how old a key's credits may be before they are read again (docs/billing.md, "Credits"). */
const REFRESH_MS = 100

describe('credits through PostgreSQL and Redis faults', { skip: missing }, () => {
  const schema = uniqueName('credits_faults')
  const dataDir = tempDir('uma-credits-faults-')
  let pgProxy: FaultProxy
  let redisProxy: FaultProxy
  let server: ServerProcess

  before(async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await client.connect()
    await client.query(`CREATE SCHEMA ${schema}`)
    await client.end()
    const pgTarget = new URL(TEST_DATABASE_URL)
    pgProxy = await startFaultProxy({ host: pgTarget.hostname, port: Number(pgTarget.port || 5432) })
    const redisTarget = new URL(TEST_REDIS_URL)
    redisProxy = await startFaultProxy({ host: redisTarget.hostname, port: Number(redisTarget.port || 6379) })
    const viaProxy = new URL(urlWithSchema(schema))
    viaProxy.port = String(pgProxy.port)
    server = await startServerProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: viaProxy.toString(),
      REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
      REDIS_PREFIX: `${schema}:`,
      API_KEYS: OPERATOR,
      GIF_STARTER_CATALOG: 'false',
      RATE_LIMIT_MAX: '100000',
      USAGE_FLUSH_MS: String(REFRESH_MS),
      KEY_CACHE_TTL_MS: '100',
      SHUTDOWN_TIMEOUT_MS: '5000'
    })
  })

  after(async () => {
    await pgProxy?.pass()
    await redisProxy?.pass()
    await server?.stop()
    await pgProxy?.close()
    await redisProxy?.close()
    await dropSchema(schema)
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  /** A key made by the built CLI straight on PostgreSQL (not through the proxy). */
  function createKey (name: string, credits: number): string {
    const r = runBuiltCli(dataDir, ['keys', 'create', '--name', name, '--credits', String(credits)], { DATABASE_URL: urlWithSchema(schema), GIF_STARTER_CATALOG: 'false' })
    assert.equal(r.code, 0, r.err)
    return lastLine(r.out)
  }

  /** The key's billed units as PostgreSQL holds them: its running total and its usage rows. */
  async function billed (name: string): Promise<{ total: number, usage: number }> {
    const client = new pg.Client({ connectionString: urlWithSchema(schema) })
    await client.connect()
    try {
      const { rows } = await client.query<{ total: number, usage: number }>(
        'SELECT k.units_total::int AS total, COALESCE((SELECT SUM(units) FROM key_usage u WHERE u.key_id = k.id), 0)::int AS usage FROM api_keys k WHERE k.name = $1', [name])
      return rows[0]!
    } finally {
      await client.end()
    }
  }

  /** One request costing 1 unit: its status (never a 500) and its error code. */
  async function spend (key: string): Promise<{ status: number, error?: string }> {
    const res = await request(`${server.url}/color/random`, { headers: { authorization: key } })
    const body = res.status === 200 ? undefined : JSON.parse(res.body.toString()) as { error: string }
    assert.ok([200, 402, 503].includes(res.status), `${res.status} ${res.body.toString()}`)
    return { status: res.status, ...(body === undefined ? {} : { error: body.error }) }
  }

  /** Sends requests until the key is refused 402; 503s (the store out) are retried. Counts the 200s. */
  async function spendAll (key: string, limit: number): Promise<number> {
    let served = 0
    for (let i = 0; i < limit; i++) {
      const { status, error } = await spend(key)
      if (status === 200) served++
      else if (status === 402) { assert.equal(error, 'CREDITS_EXHAUSTED'); return served } else await new Promise((resolve) => setTimeout(resolve, 50))
    }
    assert.fail(`still not refused after ${limit} requests (${served} served)`)
  }

  it('serves exactly the credits while Redis is cut (credits never use Redis)', async () => {
    const key = createKey('redis-cut', 20)
    await redisProxy.cut()
    try {
      assert.equal(await spendAll(key, 40), 20)
    } finally {
      await redisProxy.pass()
    }
    await until(async () => (await billed('redis-cut')).total === 20, 10_000, 'the 20 units written')
    assert.deepEqual(await billed('redis-cut'), { total: 20, usage: 20 })
  })

  it('charges once a batch whose reply PostgreSQL lost, and serves exactly the credits', async () => {
    const key = createKey('lost-replies', 15)
    let served = 0
    for (let i = 0; i < 5; i++) if ((await spend(key)).status === 200) served++
    // The next usage batches are applied but their replies never arrive: each is retried under its id.
    await pgProxy.loseReplies('usage_batches')
    try {
      for (let i = 0; i < 5; i++) if ((await spend(key)).status === 200) served++
      await new Promise((resolve) => setTimeout(resolve, 500))
    } finally {
      await pgProxy.pass()
    }
    await until(async () => (await billed('lost-replies')).total === served, 20_000, `the ${served} units served written once`)
    // The store holds them, but the server has not heard so (the reply lost): its next read
    // of the credits must not count them there and as unwritten here too (a 402 with 5 left).
    served += await spendAll(key, 60)
    assert.equal(served, 15)
    await until(async () => (await billed('lost-replies')).total === 15, 10_000, 'the 15 units written')
    // Later flushes add nothing more.
    await new Promise((resolve) => setTimeout(resolve, 500))
    assert.deepEqual(await billed('lost-replies'), { total: 15, usage: 15 })
  })

  it('answers 503 rather than serving on credit while PostgreSQL is cut, and never past zero', async () => {
    const key = createKey('pg-cut', 12)
    let served = 0
    for (let i = 0; i < 4; i++) if ((await spend(key)).status === 200) served++
    assert.equal(served, 4)
    await pgProxy.cut()
    const during: string[] = []
    try {
      // The key's credits were last read before the cut; once older than USAGE_FLUSH_MS
      // (by the server's clock, which the process does not let us drive) they must be read
      // again, and cannot be. Within that interval the docs let the server answer from what
      // it read (a fast machine served all 8 credits left before any read was due).
      await new Promise((resolve) => setTimeout(resolve, REFRESH_MS + 50))
      for (let i = 0; i < 12; i++) {
        const { status, error } = await spend(key)
        during.push(`${status}${error === undefined ? '' : ` ${error}`}`)
      }
    } finally {
      await pgProxy.pass()
    }
    // Not one served on credit, not one refused for want of credits it has: 503 each time.
    assert.deepEqual(during, Array(12).fill('503 STORE_UNAVAILABLE'), `while the credits cannot be read: ${during.join(', ')}`)
    served += await spendAll(key, 60)
    assert.equal(served, 12)
    await until(async () => (await billed('pg-cut')).total === 12, 20_000, 'the 12 units written')
    assert.deepEqual(await billed('pg-cut'), { total: 12, usage: 12 })
  })
})
