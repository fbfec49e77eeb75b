// The built server (dist/server.js) started as operators start it, with each documented
// family of settings: it starts, answers /healthz and a keyed request, and exits 0 on
// SIGTERM; a bad value of any setting stops it with exit code 78 naming the variable; a
// taken port stops it with one sentence naming PORT or METRICS_PORT.
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Redis } from 'ioredis'
import pg from 'pg'
import { SETTING_NAMES } from '../../../src/config.js'
import { dropSchema, postgresMissing, redisMissing, TEST_DATABASE_URL, TEST_REDIS_URL, uniqueName, urlWithSchema } from '../../support/backends.js'
import { tempDir } from '../../support/helpers.js'
import { freePort, request, type ServerProcess, startServerProcess, until } from '../../support/processes.js'

// Asked before any test runs: the bad-value loop blocks the event loop (spawnSync), which
// would time out a reachability check made while it runs.
const scaleOutMissing = (await postgresMissing()) ?? (await redisMissing())

const KEY = 'process-matrix-key-0123456789'
const dirs: string[] = []
after(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }) })

function dataDir (): string {
  const d = tempDir('uma-matrix-')
  dirs.push(d)
  return d
}

/** The settings every start of this file shares: a key, no starter gifs (faster starts). */
function baseEnv (env: Record<string, string> = {}): Record<string, string> {
  return { DATA_DIR: dataDir(), API_KEYS: KEY, GIF_STARTER_CATALOG: 'false', ...env }
}

async function answersKeyed (s: ServerProcess, headers: Record<string, string> = {}): Promise<void> {
  const health = await request(`${s.url}/healthz`)
  assert.equal(health.status, 200)
  const res = await request(`${s.url}/color/random?seed=matrix`, { headers: { authorization: KEY, ...headers } })
  assert.equal(res.status, 200, res.body.toString())
  assert.match(JSON.parse(res.body.toString()).hex, /^#[0-9a-f]{6}$/)
  const refused = await request(`${s.url}/color/random`)
  assert.equal(refused.status, 401)
}

async function stopsCleanly (s: ServerProcess): Promise<void> {
  assert.equal(await s.stop(), 0, s.output())
}

function requestLines (output: string): Array<Record<string, unknown>> {
  return output.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request')
}

// ---------------------------------------------------------------------------------------
// A bad value for every setting. The variables come from the table of settings
// (src/config/settings.ts), so a setting added there without a row here fails the first test.

const packageJson = path.resolve('package.json')
const BAD_VALUES: Record<string, string[]> = {
  PORT: ['eighty', '65536'],
  HOST: ['not a host!'],
  DATA_DIR: [packageJson],
  ALLOW_EMPTY_DATABASE: ['perhaps'],
  PUBLIC_URL: ['ftp://example.com', 'http://x/?q=1'],
  LOG_LEVEL: ['loud'],
  API_KEYS: ['short'],
  LINK_SIGNING_KEYS: ['too-short-key', 'a key with spaces in it that is long enough'],
  ADMIN_TOKEN: ['um_notanoperatortoken0123456789abcdef', 'umo_short'],
  ADMIN_ANSWER_KEY: ['too-short', 'a key with spaces in it that is long enough'],
  BODY_LIMIT: ['lots', '10'],
  TRUST_PROXY: ['maybe', '10.0.0.0/33'],
  SHUTDOWN_TIMEOUT_MS: ['1e3'],
  REQUEST_TIMEOUT_MS: ['600001'],
  RATE_LIMIT_MAX: ['0'],
  RATE_LIMIT_WINDOW: ['forever', '10ms'],
  RATE_LIMIT_IP_MAX: ['x'],
  USAGE_FLUSH_MS: ['10'],
  KEY_CACHE_TTL_MS: ['60001'],
  GIF_CACHE_TTL_MS: ['soon'],
  DATABASE_URL: ['mysql://127.0.0.1/test'],
  REDIS_URL: ['http://127.0.0.1:6379'],
  REDIS_PREFIX: ['has space'],
  RATE_LIMIT_ON_STORE_ERROR: ['skip'],
  METRICS_PORT: ['70000', 'same-as-port'],
  METRICS_HOST: ['bad host!'],
  GIF_STARTER_CATALOG: ['perhaps'],
  TEXT_BODY_LIMIT: ['1b'],
  REMOTE_FETCH_ALLOW: ['10.0.0.0/99'],
  REMOTE_FETCH_MAX_BYTES: ['1tb'],
  REMOTE_FETCH_TIMEOUT_MS: ['50'],
  REMOTE_FETCH_MEMORY: ['1kb', 'lots'],
  RESULT_CACHE_MAX_BYTES: ['-1', 'half a gig'],
  RESULT_CACHE_DISK_TIMEOUT_MS: ['5', 'slow'],
  REMOTE_IMAGE_FRESH_SECONDS: ['-1', '86401'],
  RENDER_CONCURRENCY: ['-1'],
  IMAGE_MAX_PIXELS: ['0'],
  IMAGE_MAX_FRAMES: ['many'],
  IMAGE_TIMEOUT_MS: ['999'],
  IMAGE_CONCURRENCY: ['0'],
  IMAGE_MEMORY: ['8mb'],
  IMAGE_UPLOAD_MEMORY: ['1mb'],
  IMAGE_UPLOAD_TIMEOUT_MS: ['99'],
  IMAGE_UPLOAD_MIN_RATE: ['fast'],
  IMAGE_UPLOAD_GRACE_MS: ['-1'],
  MAX_CONNECTIONS: ['0'],
  MAX_CONNECTIONS_PER_ADDRESS: ['0'],
  MAX_IDLE_CONNECTIONS_PER_ADDRESS: ['-1'],
  KEEP_ALIVE_TIMEOUT_MS: ['99'],
  HEADERS_TIMEOUT_MS: ['never'],
  INFO_WEBSITE: ['example.com'],
  INFO_DISCORD: ['ftp://discord.example'],
  INFO_TWITTER: ['@handle'],
  INFO_REDDIT: ['r/bots'],
  INFO_DONATE: ['javascript:alert(1)'],
  INFO_EMAIL: ['not an address'],
  GIF_PULL_CONTACT: ['ops@exämple.test'],
  DISCORD_CDN_URL: ['cdn.discordapp.com'],
  GIF_PULL_NEKOS_BEST_URL: ['nekos.best/api/v2'],
  GIF_PULL_WAIFU_PICS_URL: ['ftp://api.waifu.pics'],
  GIF_PULL_OTAKUGIFS_URL: ['api.otakugifs.xyz'],
  GIF_PULL_PURRBOT_URL: ['file:///etc/passwd'],
  WORKER_THREADS: ['257'],
  WORK_TIMEOUT_MS: ['ten'],
  CORS_ORIGINS: ['https://app.example.com/path'],
  RATE_LIMIT_IPV6_PREFIX: ['129'],
  RATE_LIMIT_MAX_TRACKED: ['99']
}

/** The variables loadConfig reads: the table's (test/unit/config/settings.test.ts holds loadConfig to it), ENV_FILE aside. */
function settingsReadByConfig (): string[] {
  return SETTING_NAMES.filter((name) => name !== 'ENV_FILE').sort()
}

describe('a bad value of any setting', () => {
  it('every setting loadConfig reads has a bad value here and a row in docs/configuration.md', () => {
    const read = settingsReadByConfig()
    assert.ok(read.length > 20, `found only ${read.join(', ')}`)
    assert.deepEqual(Object.keys(BAD_VALUES).sort(), read, 'BAD_VALUES must list exactly the settings loadConfig reads')
    const page = fs.readFileSync('docs/configuration.md', 'utf8')
    for (const name of read) assert.ok(page.includes(`\`${name}\``), `docs/configuration.md documents ${name}`)
  })

  it('stops the start with exit code 78 and one line naming the variable', () => {
    for (const [name, values] of Object.entries(BAD_VALUES)) {
      for (const value of values) {
        const env: Record<string, string> = { ...process.env as Record<string, string>, DATA_DIR: path.join(dirs[0] ?? dataDir(), 'unused'), PORT: '39999', HOST: '127.0.0.1', [name]: value === 'same-as-port' ? '39999' : value }
        const r = spawnSync(process.execPath, ['dist/server.js'], { env, encoding: 'utf8', timeout: 30_000 })
        assert.equal(r.status, 78, `${name}=${value}: exit ${r.status}, ${r.stderr}${r.stdout}`)
        assert.match(r.stderr, new RegExp(`^Invalid configuration: ${name} \\S.*\\n$`), `${name}=${value}`)
        assert.equal(r.stdout, '', `${name}=${value} printed nothing else`)
      }
    }
  })
})

// ---------------------------------------------------------------------------------------

describe('METRICS_PORT, TRUST_PROXY and LOG_LEVEL=debug', () => {
  let s: ServerProcess
  let metricsPort = 0
  before(async () => {
    metricsPort = await freePort()
    s = await startServerProcess(baseEnv({ METRICS_PORT: String(metricsPort), TRUST_PROXY: 'true', LOG_LEVEL: 'debug' }))
  })
  after(async () => { if (s.child.exitCode === null) s.child.kill('SIGKILL') })

  it('starts with the metrics port set (it once exited 1: a hook added after listen) and answers', async () => {
    await answersKeyed(s, { 'x-forwarded-for': '203.0.113.7' })
  })

  it('serves /metrics on the metrics port, counting the public requests, and not on the public port', async () => {
    const metrics = await request(`http://127.0.0.1:${metricsPort}/metrics`)
    assert.equal(metrics.status, 200)
    assert.match(String(metrics.headers['content-type']), /^text\/plain/)
    assert.match(metrics.body.toString(), /^http_requests_total\{[^}]*route="\/color\/random"[^}]*status="200"[^}]*\} \d+$/m)
    const onPublic = await request(`${s.url}/metrics`)
    assert.equal(onPublic.status, 404)
    assert.equal(JSON.parse(onPublic.body.toString()).success, false)
  })

  it('logs the client address from X-Forwarded-For (trusted proxy) and request lines at debug', async () => {
    await until(() => requestLines(s.output()).some((l) => l.ip === '203.0.113.7'))
  })

  it('stops on SIGTERM with exit 0, closing the metrics port', async () => {
    await stopsCleanly(s)
    await assert.rejects(request(`http://127.0.0.1:${metricsPort}/metrics`))
  })
})

describe('TRUST_PROXY off (default) and LOG_LEVEL=info', () => {
  it('ignores X-Forwarded-For, logs one line per request, stops with exit 0', async () => {
    const s = await startServerProcess(baseEnv({ LOG_LEVEL: 'info' }))
    try {
      await answersKeyed(s, { 'x-forwarded-for': '203.0.113.7' })
      // Request lines name the route, never the URL as sent (its query may carry user data).
      await until(() => requestLines(s.output()).some((l) => l.route === '/color/random'))
      assert.ok(!s.output().includes('seed=matrix'), 'no query string in the log')
      assert.ok(requestLines(s.output()).every((l) => l.ip === '127.0.0.1'), s.output())
    } finally {
      await stopsCleanly(s)
    }
  })
})

describe('LOG_LEVEL above info', () => {
  const levels = ['warn', 'error', 'fatal', 'silent']
  // Started together: each start loads fonts and the colour index, the slow part.
  let servers: Map<string, ServerProcess>
  before(async () => {
    servers = new Map(await Promise.all(levels.map(async (level) => [level, await startServerProcess(baseEnv({ LOG_LEVEL: level }))] as const)))
  })
  after(() => { for (const s of servers.values()) if (s.child.exitCode === null) s.child.kill('SIGKILL') })
  for (const level of levels) {
    it(`${level}: starts, answers, writes no request lines, stops with exit 0`, async () => {
      const s = servers.get(level)!
      await answersKeyed(s)
      await stopsCleanly(s)
      assert.deepEqual(requestLines(s.output()), [])
      // Nothing at info is written: neither "ready" nor "shutting down".
      assert.doesNotMatch(s.output(), /"level":30/)
    })
  }
})

// ---------------------------------------------------------------------------------------

describe('DATABASE_URL and REDIS_URL (scale-out), LOG_LEVEL=trace', { skip: scaleOutMissing }, () => {
  const schema = uniqueName('matrix')
  const prefix = `${uniqueName('uma')}:`
  let s: ServerProcess
  before(async () => {
    // The server works in the schema of the URL's search_path; like the scale-out tests,
    // the test creates it (and drops it after).
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await client.connect()
    try {
      await client.query(`CREATE SCHEMA ${schema}`)
    } finally {
      await client.end()
    }
    s = await startServerProcess(baseEnv({ DATABASE_URL: urlWithSchema(schema), REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, LOG_LEVEL: 'trace' }))
  })
  after(async () => {
    if (s?.child.exitCode === null) s.child.kill('SIGKILL')
    await dropSchema(schema)
    const redis = new Redis(TEST_REDIS_URL)
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length > 0) await redis.del(...keys)
    redis.disconnect()
  })

  it('starts on PostgreSQL in its own schema, counts in Redis under REDIS_PREFIX, answers, stops with exit 0', async () => {
    const ready = JSON.parse((await request(`${s.url}/readyz`)).body.toString())
    assert.deepEqual([ready.status, ready.database.state], ['ready', 'ok'])
    assert.match(s.output(), /"store":"postgres".*Utility Media API ready/)
    await answersKeyed(s)
    const redis = new Redis(TEST_REDIS_URL)
    try {
      assert.ok((await redis.keys(`${prefix}*`)).length > 0, 'rate-limit counters live under the prefix')
    } finally {
      redis.disconnect()
    }
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await client.connect()
    try {
      const tables = await client.query('SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1', [schema])
      assert.ok(tables.rows[0].n > 0, 'the tables are in the schema of DATABASE_URL')
    } finally {
      await client.end()
    }
    await stopsCleanly(s)
  })
})

// ---------------------------------------------------------------------------------------

/** Runs the built server to its exit (it is expected to fail before serving). */
function runToExit (env: Record<string, string>): Promise<{ code: number | null, stdout: string, stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['dist/server.js'], { env: { ...process.env, HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.once('exit', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }) })
  })
}

describe('a taken port', () => {
  let holder: net.Server
  let taken = 0
  before(async () => {
    holder = net.createServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
    taken = (holder.address() as net.AddressInfo).port
  })
  after(() => new Promise<void>((resolve) => holder.close(() => resolve())))

  it('PORT taken: one sentence naming PORT and the address (no logged stack), exit 1', async () => {
    const r = await runToExit(baseEnv({ PORT: String(taken) }))
    assert.equal(r.code, 1, r.stderr)
    assert.equal(r.stderr, `Cannot listen on 127.0.0.1:${taken} (PORT=${taken}): the address is already in use (another process listens there); stop it or choose another PORT.\n`)
    assert.doesNotMatch(r.stdout, /"level":60/)
  })

  it('METRICS_PORT taken: one sentence naming METRICS_PORT and the address, exit 1', async () => {
    const port = await freePort()
    const r = await runToExit(baseEnv({ PORT: String(port), METRICS_PORT: String(taken) }))
    assert.equal(r.code, 1, r.stderr)
    assert.equal(r.stderr, `Cannot listen on 127.0.0.1:${taken} (METRICS_PORT=${taken}): the address is already in use (another process listens there); stop it or choose another METRICS_PORT.\n`)
    assert.doesNotMatch(r.stdout, /"level":60/)
  })
})
