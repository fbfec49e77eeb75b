// The built server in scale-out mode while PostgreSQL fails (issue 25), its DATABASE_URL
// pointing at a fault proxy (test/support/fault-proxy.ts) in front of the real PostgreSQL:
// cut, reset and black-holed, keyed requests answer 200 from what the instance holds or
// 503 STORE_UNAVAILABLE with Retry-After, never 500 and never CLIENT_CLOSED; gif files
// this instance holds answer 200; /healthz answers at once while calls to the store wait
// for their deadlines; and it is ready again once PostgreSQL returns. A key with a quota
// and /me, which read the usage in the store, answer 503 STORE_UNAVAILABLE (never 500,
// never a stale quota) and count exactly once PostgreSQL is back.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { runCli } from '../../../src/cli/main.js'
import { renderStarterGif } from '../../../src/gifs/starter-art.js'
import { dropSchema, postgresMissing, TEST_DATABASE_URL, uniqueName, urlWithSchema } from '../../support/backends.js'
import { type FaultProxy, startFaultProxy } from '../../support/fault-proxy.js'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, type SimpleResponse, startServerProcess } from '../../support/processes.js'

const missing = await postgresMissing()

const HELD_KEY = 'um_outage-test-held-key-0001'
const UNSEEN_KEY = 'um_outage-test-unseen-key-0002'
const QUOTA = 1000

describe('the built server while PostgreSQL fails', { skip: missing }, () => {
  const schema = uniqueName('outage')
  const directUrl = urlWithSchema(schema)
  const dataDir = tempDir('uma-outage-')
  const cliDir = tempDir('uma-outage-cli-')
  let proxy: FaultProxy
  let server: ServerProcess
  let filePath = ''
  /** A key with a quota, made by the command line (keys create --quota). */
  let quotaKey = ''
  const bytes = renderStarterGif('hug', 1)

  const keyed = (url: string, key = HELD_KEY): Promise<SimpleResponse> => request(`${server.url}${url}`, { headers: { authorization: key } })

  /** The answer is 200, or 503 STORE_UNAVAILABLE with Retry-After: never 500, never a client's error. */
  function servedOrRefused (res: SimpleResponse, what: string): void {
    if (res.status === 200) return
    assert.equal(res.status, 503, `${what}: ${res.status} ${res.body.toString()}`)
    assert.equal(JSON.parse(res.body.toString()).error, 'STORE_UNAVAILABLE', what)
    assert.match(String(res.headers['retry-after']), /^[1-9][0-9]*$/, what)
  }

  async function warm (): Promise<void> {
    const pick = await keyed('/sfw/gif/hug')
    assert.equal(pick.status, 200, pick.body.toString())
    filePath = new URL(JSON.parse(pick.body.toString()).file).pathname
    const file = await request(`${server.url}${filePath}`)
    assert.equal(file.status, 200)
  }

  async function ready (): Promise<void> {
    const end = Date.now() + 10_000
    while ((await request(`${server.url}/readyz`)).status !== 200) {
      if (Date.now() > end) assert.fail('not ready again within 10 s of PostgreSQL returning')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  before(async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await client.connect()
    await client.query(`CREATE SCHEMA ${schema}`)
    await client.end()
    // One gif in the catalog, imported straight into PostgreSQL by the command line.
    const folder = tempDir('uma-outage-gifs-')
    fs.mkdirSync(path.join(folder, 'hug'))
    fs.writeFileSync(path.join(folder, 'hug', 'one.gif'), bytes)
    const err: string[] = []
    const code = await runCli(['gifs', 'import', folder, '--create-store'], { DATA_DIR: cliDir, DATABASE_URL: directUrl, GIF_STARTER_CATALOG: 'false' }, { out: () => {}, err: (s) => err.push(s), interactive: false })
    fs.rmSync(folder, { recursive: true, force: true })
    assert.equal(code, 0, err.join('\n'))
    const out: string[] = []
    const created = await runCli(['keys', 'create', '--name', 'with-quota', '--quota', `${QUOTA}/day`], { DATA_DIR: cliDir, DATABASE_URL: directUrl, GIF_STARTER_CATALOG: 'false' }, { out: (s) => out.push(s), err: (s) => err.push(s), interactive: false })
    assert.equal(created, 0, err.join('\n'))
    quotaKey = out.join('\n').trim().split('\n').pop()!.trim()
    assert.match(quotaKey, /^um_/)

    const target = new URL(TEST_DATABASE_URL)
    proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) })
    const viaProxy = new URL(directUrl)
    viaProxy.port = String(proxy.port)
    server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: viaProxy.toString(), GIF_STARTER_CATALOG: 'false', API_KEYS: `${HELD_KEY},${UNSEEN_KEY}` })
    await warm()
  })

  after(async () => {
    await proxy?.pass()
    await server?.stop()
    await proxy?.close()
    await dropSchema(schema)
    for (const d of [dataDir, cliDir]) fs.rmSync(d, { recursive: true, force: true })
  })

  it('cut: held key and gifs answer 200, gif files 200, an unseen key 503 with Retry-After, /healthz 200, /readyz 503; ready again after', async () => {
    await proxy.cut()
    try {
      const start = Date.now()
      // Past the key and gif TTLs (1 s by default): answered from what the instance holds.
      while (Date.now() - start < 2500) {
        const pick = await keyed('/sfw/gif/hug')
        assert.equal(pick.status, 200, pick.body.toString())
        assert.equal(new URL(JSON.parse(pick.body.toString()).file).pathname, filePath)
        const color = await keyed('/color/random')
        assert.equal(color.status, 200, color.body.toString())
        const file = await request(`${server.url}${filePath}`)
        assert.equal(file.status, 200)
        assert.deepEqual(file.body, Buffer.from(bytes))
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
      const unseen = await keyed('/color/random', UNSEEN_KEY)
      assert.equal(unseen.status, 503, unseen.body.toString())
      servedOrRefused(unseen, 'a key never looked up')
      const health = await request(`${server.url}/healthz`)
      assert.equal(health.status, 200)
      assert.equal((await request(`${server.url}/readyz`)).status, 503)
    } finally {
      await proxy.pass()
    }
    await ready()
    assert.equal((await keyed('/color/random', UNSEEN_KEY)).status, 200, 'the unseen key works once PostgreSQL is back')
  })

  it('a key with a quota and /me: 503 STORE_UNAVAILABLE with Retry-After while cut (never 500), exact quota once back', async () => {
    const me = async (key: string): Promise<{ status: number, body: any }> => {
      const res = await keyed('/me', key)
      return { status: res.status, body: JSON.parse(res.body.toString()) }
    }
    await ready()
    const first = await me(quotaKey)
    assert.equal(first.status, 200, JSON.stringify(first.body))
    const usedBefore = first.body.quota.used as number
    let served = 0
    for (let i = 0; i < 3; i++) {
      const res = await keyed('/color/random', quotaKey)
      assert.equal(res.status, 200, res.body.toString())
      served++
    }
    await proxy.cut()
    try {
      // Past USAGE_FLUSH_MS (250 ms): the quota's stored total has to be read again.
      await new Promise((resolve) => setTimeout(resolve, 600))
      for (let i = 0; i < 5; i++) {
        const res = await keyed('/color/random', quotaKey)
        servedOrRefused(res, 'a key with a quota')
        assert.equal(res.status, 503, 'a quota cannot be checked without the stored usage')
        for (const key of [quotaKey, HELD_KEY]) {
          const account = await keyed('/me', key)
          servedOrRefused(account, '/me')
          assert.equal(account.status, 503, '/me reads the usage in the store')
        }
      }
    } finally {
      await proxy.pass()
    }
    await ready()
    const last = await me(quotaKey)
    assert.equal(last.status, 200, JSON.stringify(last.body))
    // The requests served were counted once; the refused ones (503) not at all.
    assert.equal(last.body.quota.used, usedBefore + served)
    assert.equal(last.body.quota.remaining, QUOTA - usedBefore - served)
    assert.equal(last.body.usage.today.colors.requests, usedBefore + served)
  })

  it('reset: connections reset on the server side are never answered 500 or 400 CLIENT_CLOSED', async () => {
    await warm()
    await proxy.reset()
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => i % 2 === 0 ? keyed('/sfw/gif/hug') : keyed('/me')))
      for (const res of answers) servedOrRefused(res, 'during the reset')
    } finally {
      await proxy.pass()
    }
    await ready()
  })

  it('black hole: requests end within the store deadlines, 200 or 503, and /healthz answers at once meanwhile', async () => {
    await warm()
    await proxy.blackHole()
    try {
      const start = Date.now()
      const pending = Array.from({ length: 40 }, (_, i) => {
        const sent = Date.now()
        const call = i % 4 === 0 ? keyed('/me') : i % 4 === 1 ? keyed('/color/random', UNSEEN_KEY) : i % 4 === 2 ? keyed('/sfw/gif/hug') : request(`${server.url}${filePath}`)
        return call.then((res) => ({ res, ms: Date.now() - sent }))
      })
      await new Promise((resolve) => setTimeout(resolve, 100))
      const healthStart = Date.now()
      const health = await request(`${server.url}/healthz`)
      assert.equal(health.status, 200)
      assert.ok(Date.now() - healthStart < 500, `/healthz took ${Date.now() - healthStart} ms`)
      for (const { res, ms } of await Promise.all(pending)) {
        servedOrRefused(res, 'during the black hole')
        assert.ok(ms < 5000, `an answer took ${ms} ms`)
      }
      assert.ok(Date.now() - start < 6000)
    } finally {
      await proxy.pass()
    }
    await ready()
    assert.equal(server.child.exitCode, null, 'still running')
    assert.doesNotMatch(server.output(), /"statusCode":500|"status":500|CLIENT_CLOSED/)
    // Usage that could not be written is said at warn, without a stack, at most once per 10 s (not at every 250 ms flush).
    const usageLines = server.output().split('\n').filter((l) => l.includes('could not write usage'))
    assert.ok(usageLines.length <= 3, usageLines.join('\n'))
    for (const line of usageLines) assert.match(line, /"level":40/)
  })
})
