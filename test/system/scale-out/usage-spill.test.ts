// Usage across a stop while PostgreSQL is down (issue 25; docs/billing.md): the built
// server in scale-out mode, its DATABASE_URL through the fault proxy, serves a key
// before and during a cut; SIGTERM while still cut exits 0 and spills the pending usage to
// DATA_DIR/usage-pending; the restart once PostgreSQL is back replays it. The usage in
// PostgreSQL then equals the requests the client was answered 200, exactly: none lost,
// none counted twice, and a second restart adds nothing.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { dropSchema, postgresMissing, TEST_DATABASE_URL, uniqueName, urlWithSchema } from '../../support/backends.js'
import { type FaultProxy, startFaultProxy } from '../../support/fault-proxy.js'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, startServerProcess, until } from '../../support/processes.js'

const missing = await postgresMissing()

const KEY = 'um_usage-spill-test-key-00001'
const BEFORE_CUT = 25
const DURING_CUT = 40

describe('SIGTERM while PostgreSQL is down, then a restart once it is back', { skip: missing }, () => {
  const schema = uniqueName('spill')
  const dataDir = tempDir('uma-spill-')
  const spillDir = path.join(dataDir, 'usage-pending')
  let proxy: FaultProxy
  let server: ServerProcess | undefined
  let env: Record<string, string>

  before(async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await client.connect()
    await client.query(`CREATE SCHEMA ${schema}`)
    await client.end()
    const target = new URL(TEST_DATABASE_URL)
    proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) })
    const viaProxy = new URL(urlWithSchema(schema))
    viaProxy.port = String(proxy.port)
    env = { DATA_DIR: dataDir, DATABASE_URL: viaProxy.toString(), GIF_STARTER_CATALOG: 'false', API_KEYS: KEY, RATE_LIMIT_MAX: '100000' }
  })

  after(async () => {
    await proxy?.pass()
    await server?.stop()
    await proxy?.close()
    await dropSchema(schema)
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  /** Requests and units stored for the key, read straight from PostgreSQL. */
  async function stored (): Promise<{ requests: number, units: number, batches: number }> {
    const client = new pg.Client({ connectionString: urlWithSchema(schema) })
    await client.connect()
    try {
      const usage = await client.query<{ requests: number, units: number }>(
        'SELECT COALESCE(SUM(u.requests), 0)::int AS requests, COALESCE(SUM(u.units), 0)::int AS units FROM key_usage u JOIN api_keys k ON k.id = u.key_id WHERE k.source = $1', ['env'])
      const batches = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM usage_batches')
      return { ...usage.rows[0]!, batches: batches.rows[0]!.n }
    } finally {
      await client.end()
    }
  }

  /** Sends `n` billed requests one after another; returns how many were answered 200. */
  async function serve (s: ServerProcess, n: number): Promise<number> {
    let ok = 0
    for (let i = 0; i < n; i++) {
      const res = await request(`${s.url}/color/random`, { headers: { authorization: KEY } })
      assert.ok(res.status === 200 || res.status === 503, `${res.status} ${res.body.toString()}`)
      if (res.status === 200) ok++
    }
    return ok
  }

  it('the usage in PostgreSQL equals the requests answered 200: 0 lost, 0 counted twice', async () => {
    server = await startServerProcess(env)
    let served = await serve(server, BEFORE_CUT)
    assert.equal(served, BEFORE_CUT)
    await proxy.cut()
    // The key is held in memory: served during the outage, its usage kept for later.
    const duringCut = await serve(server, DURING_CUT)
    assert.ok(duringCut > DURING_CUT / 2, `only ${duringCut} of ${DURING_CUT} served from the held key`)
    served += duringCut

    const code = await server.stop()
    assert.equal(code, 0, server.output())
    assert.match(server.output(), /spilled to DATA_DIR\/usage-pending/)
    const spilled = fs.readdirSync(spillDir).filter((f) => /^usage-[0-9a-f-]{36}\.json$/.test(f))
    assert.ok(spilled.length > 0, 'the usage PostgreSQL could not take waits in DATA_DIR/usage-pending')
    assert.deepEqual(fs.readdirSync(spillDir).filter((f) => f.endsWith('.tmp')), [], 'no half-written file')

    await proxy.pass()
    server = await startServerProcess(env)
    assert.match(server.output(), /usage spilled by the last run: written again now/)
    await until(() => fs.readdirSync(spillDir).length === 0, 10_000)
    // Once replayed, PostgreSQL holds exactly what the client was served.
    const first = await stored()
    assert.equal(first.requests, served, `stored ${first.requests}, served ${served}`)
    assert.equal(first.units, served)
    assert.equal(await server.stop(), 0, server.output())

    // A second restart has nothing to replay and counts nothing again.
    server = await startServerProcess(env)
    assert.doesNotMatch(server.output(), /usage spilled by the last run/)
    assert.equal(await server.stop(), 0, server.output())
    server = undefined
    assert.deepEqual((({ requests, units }) => ({ requests, units }))(await stored()), { requests: served, units: served })
  })
})
