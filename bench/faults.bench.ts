// Issue 25's table, measured from outside: the built server (dist/server.js) under a
// steady stream of keyed requests while a dependency fails, each fault made by the TCP
// fault proxy of the process tests (test/support/fault-proxy.ts) in front of the real PostgreSQL
// and Redis, or done to the SQLite file and the process itself. Per fault: the answers by
// status (200, 503, 500, others), the longest answer, usage lost and counted twice (the
// requests answered 200 against the usage the store holds afterwards), and the recovery
// time (from the fault's end to /readyz reporting the dependency back, or to a restart's
// first answer). Printed as a table, never asserted: the process tests assert the
// behaviour (test/system/faults/, test/system/scale-out/, test/system/process/).
//
// Needs PostgreSQL (TEST_DATABASE_URL, default 127.0.0.1:5432/test) and Redis
// (TEST_REDIS_URL, default 127.0.0.1:6379); the PostgreSQL and Redis rows are skipped
// without them. Each fault lasts 10 s (3 s with --quick). Run after a build:
//   npx tsc -p tsconfig.build.json && npm run bench -- faults
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { Database } from '../src/store/sqlite/driver.js'
import { Redis } from 'ioredis'
import pg from 'pg'
import { dropSchema, postgresMissing, redisMissing, TEST_DATABASE_URL, TEST_REDIS_URL, uniqueName, urlWithSchema } from '../test/support/backends.js'
import { type FaultProxy, startFaultProxy } from '../test/support/fault-proxy.js'
import { type ServerProcess, startServerProcess } from '../test/support/processes.js'
import type { Benchmark } from './harness.js'

/** The key every stream uses: looked up before each fault, so held in memory during it. */
const KEY = 'um_faults-bench-held-key-000001'
/** A key first used during the fault (PostgreSQL rows): what a new client sees. */
const UNSEEN_KEY = 'um_faults-bench-unseen-key-0002'
const CONCURRENCY = 4
/** An answer not received after this counts as "no answer" (the server's own deadline is 30 s). */
const CLIENT_TIMEOUT_MS = 35_000
const USAGE_FLUSH_MS = 250
/** SQLite's file in DATA_DIR (src/store/sqlite/index.ts). */
const DATABASE_FILE = 'utility-media.sqlite'

interface Answer { status: number, error: string, ms: number, at: number }

/** GET with a deadline; status 0 when the connection failed or the deadline passed. */
function get (url: string, key: string): Promise<Answer> {
  const sent = Date.now()
  return new Promise((resolve) => {
    const done = (status: number, error: string): void => resolve({ status, error, ms: Date.now() - sent, at: Date.now() })
    const req = http.get(url, { headers: { authorization: key }, timeout: CLIENT_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (d: Buffer) => chunks.push(d))
      res.on('end', () => {
        let error = ''
        if (res.statusCode! >= 400) try { error = String(JSON.parse(Buffer.concat(chunks).toString()).error) } catch {}
        done(res.statusCode!, error)
      })
      res.on('error', () => done(0, 'aborted'))
    })
    req.on('timeout', () => { req.destroy(); done(0, 'timeout') })
    req.on('error', (err: NodeJS.ErrnoException) => done(0, err.code ?? 'error'))
  })
}

/** A steady stream of keyed requests until stopped; every answer is kept. */
function stream (server: () => ServerProcess | undefined, options: { unseenShare?: number, unseenFrom?: () => boolean, path?: string } = {}): { answers: Answer[], stop: () => Promise<Answer[]> } {
  const answers: Answer[] = []
  const state = { stopped: false }
  let n = 0
  const workers = Array.from({ length: CONCURRENCY }, async () => {
    while (!state.stopped) {
      const s = server()
      if (s === undefined || s.child.exitCode !== null) { await sleep(20); continue }
      // The unseen key is first sent once unseenFrom() says so (the fault began): never looked up before.
      const unseen = options.unseenShare !== undefined && (options.unseenFrom?.() ?? true) && n++ % Math.round(1 / options.unseenShare) === 0
      answers.push(await get(`${s.url}${options.path ?? '/color/random'}`, unseen ? UNSEEN_KEY : KEY))
    }
  })
  return {
    answers,
    async stop () {
      state.stopped = true
      await Promise.all(workers)
      return answers
    }
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

async function readyz (s: ServerProcess): Promise<{ status: number, body: any }> {
  const a = await new Promise<{ status: number, body: any }>((resolve) => {
    http.get(`${s.url}/readyz`, { timeout: 5000 }, (res) => {
      let text = ''
      res.on('data', (d) => { text += d })
      res.on('end', () => { try { resolve({ status: res.statusCode!, body: JSON.parse(text) }) } catch { resolve({ status: res.statusCode!, body: {} }) } })
    }).on('error', () => resolve({ status: 0, body: {} })).on('timeout', function (this: http.ClientRequest) { this.destroy() })
  })
  return a
}

/** Milliseconds until `ok` holds (polled every 50 ms), or undefined past `ms`. */
async function timeUntil (ok: () => Promise<boolean>, ms = 60_000): Promise<number | undefined> {
  const start = Date.now()
  while (Date.now() - start < ms) {
    if (await ok()) return Date.now() - start
    await sleep(50)
  }
  return undefined
}

interface Row {
  fault: string
  answers: Answer[]
  /** Usage: served 200 (billed), stored afterwards; undefined when not measured. */
  served?: number
  stored?: number
  /** How much loss the design allows here (kill -9: the answers of the last flush interval). */
  allowedLoss?: number
  recoveryMs?: number
  recovery?: string
  note?: string
}

function tally (answers: Answer[]): { ok: number, s503: number, s500: number, other: number, maxMs: number, codes: string } {
  const byCode = new Map<string, number>()
  let ok = 0; let s503 = 0; let s500 = 0; let other = 0; let maxMs = 0
  for (const a of answers) {
    maxMs = Math.max(maxMs, a.ms)
    if (a.status === 200) ok++
    else if (a.status === 503) s503++
    else if (a.status === 500) s500++
    else other++
    if (a.status !== 200) byCode.set(`${a.status || 'no answer'} ${a.error}`.trim(), (byCode.get(`${a.status || 'no answer'} ${a.error}`.trim()) ?? 0) + 1)
  }
  return { ok, s503, s500, other, maxMs, codes: [...byCode].map(([c, n]) => `${c} ×${n}`).join(', ') }
}

const TABLE_HEAD = [
  '| fault | 200 | 503 | 500 | other | longest answer | usage lost | usage double | recovery | notes |',
  '|---|---|---|---|---|---|---|---|---|---|'
]

function printTable (rows: Row[]): void {
  console.log('\n' + [...TABLE_HEAD, ...rows.map(tableLine)].join('\n'))
}

function tableLine (r: Row): string {
  const t = tally(r.answers)
  const measured = r.served !== undefined && r.stored !== undefined
  const lost = measured ? Math.max(0, r.served! - r.stored!) : undefined
  const double = measured ? Math.max(0, r.stored! - r.served!) : undefined
  const lostText = lost === undefined ? '-' : `${lost} of ${r.served}${r.allowedLoss === undefined ? '' : ` (bound ${r.allowedLoss})`}`
  const recovery = r.recovery ?? (r.recoveryMs === undefined ? '-' : `${(r.recoveryMs / 1000).toFixed(2)} s`)
  const notes = [t.codes && `refusals: ${t.codes}`, r.note].filter(Boolean).join('; ')
  return `| ${r.fault} | ${t.ok} | ${t.s503} | ${t.s500} | ${t.other} | ${(t.maxMs / 1000).toFixed(2)} s | ${lostText} | ${double ?? '-'} | ${recovery} | ${notes} |`
}

/** Usage requests stored for the bench's keys (source env) in a PostgreSQL schema. */
async function storedInPostgres (schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: urlWithSchema(schema) })
  await client.connect()
  try {
    return (await client.query<{ n: number }>("SELECT COALESCE(SUM(u.requests), 0)::int AS n FROM key_usage u JOIN api_keys k ON k.id = u.key_id WHERE k.source = 'env'")).rows[0]!.n
  } finally {
    await client.end()
  }
}

function storedInSqlite (dataDir: string, group?: string): number {
  const db = new Database(path.join(dataDir, DATABASE_FILE))
  try {
    const sql = 'SELECT COALESCE(SUM(u.requests), 0) AS n FROM key_usage u JOIN api_keys k ON k.id = u.key_id WHERE k.source = \'env\'' + (group === undefined ? '' : ' AND u.endpoint_group = ?')
    return (db.prepare(sql).get(...(group === undefined ? [] : [group])) as { n: number }).n
  } finally {
    db.close()
  }
}

const served = (answers: Answer[]): number => answers.filter((a) => a.status === 200).length

/** A scale-out server's surroundings: its own PostgreSQL schema, a Redis prefix, proxies to both. */
interface ScaleOut {
  schema: string
  prefix: string
  dataDir: string
  pgProxy: FaultProxy
  redisProxy: FaultProxy
  env: Record<string, string>
  close: () => Promise<void>
}

async function scaleOut (extra: Record<string, string> = {}): Promise<ScaleOut> {
  const schema = uniqueName('faults')
  const prefix = `${uniqueName('faults')}:`
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await client.connect()
  await client.query(`CREATE SCHEMA ${schema}`)
  await client.end()
  const pgTarget = new URL(TEST_DATABASE_URL)
  const redisTarget = new URL(TEST_REDIS_URL)
  const pgProxy = await startFaultProxy({ host: pgTarget.hostname, port: Number(pgTarget.port || 5432) })
  const redisProxy = await startFaultProxy({ host: redisTarget.hostname, port: Number(redisTarget.port || 6379) })
  const viaPg = new URL(urlWithSchema(schema))
  viaPg.port = String(pgProxy.port)
  const viaRedis = new URL(TEST_REDIS_URL)
  viaRedis.port = String(redisProxy.port)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-faults-'))
  return {
    schema,
    prefix,
    dataDir,
    pgProxy,
    redisProxy,
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: viaPg.toString(),
      REDIS_URL: viaRedis.toString(),
      REDIS_PREFIX: prefix,
      GIF_STARTER_CATALOG: 'false',
      API_KEYS: `${KEY},${UNSEEN_KEY}`,
      RATE_LIMIT_MAX: '1000000',
      LOG_LEVEL: 'warn',
      ...extra
    },
    async close () {
      await pgProxy.close()
      await redisProxy.close()
      await dropSchema(schema)
      const redis = new Redis(TEST_REDIS_URL)
      const keys = await redis.keys(`${prefix}*`)
      if (keys.length > 0) await redis.del(...keys)
      redis.disconnect()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** A fault on a running scale-out server: stream, fault for `faultMs`, end it, time the recovery. */
async function runningFault (name: string, faultMs: number, options: {
  start: (so: ScaleOut) => Promise<void>
  end: (so: ScaleOut) => Promise<void>
  recovered: (s: ServerProcess) => Promise<boolean>
  unseenShare?: number
  extraEnv?: Record<string, string>
  note?: string
}): Promise<Row> {
  const so = await scaleOut(options.extraEnv)
  let server: ServerProcess | undefined
  try {
    server = await startServerProcess(so.env)
    // Warm: the key is looked up once, the counters answer (its answer is billed: counted with the others).
    const warm = await get(`${server.url}/color/random`, KEY)
    const fault = { began: false }
    const load = stream(() => server, { unseenShare: options.unseenShare, unseenFrom: () => fault.began })
    await sleep(1000)
    await options.start(so)
    fault.began = true
    await sleep(faultMs)
    await options.end(so)
    const s = server
    const recoveryMs = await timeUntil(() => options.recovered(s))
    await sleep(500)
    const answers = [warm, ...await load.stop()]
    await server.stop()
    const stored = await storedInPostgres(so.schema)
    // The server's own word that a usage write failed (and was kept for a retry under its id).
    const retried = server.output().includes('could not write usage') ? 'a usage write failed and was retried' : undefined
    const note = [options.note, retried].filter(Boolean).join('; ') || undefined
    return { fault: name, answers, served: served(answers), stored, recoveryMs, recovery: recoveryMs === undefined ? 'not within 60 s' : undefined, note }
  } finally {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL')
    await so.close()
  }
}

const countersOk = async (s: ServerProcess): Promise<boolean> => (await readyz(s)).body.counters?.state === 'ok'
const ready = async (s: ServerProcess): Promise<boolean> => (await readyz(s)).status === 200

/**
 * A start of the built server expected to be refused: its exit code and first line of
 * stderr; 'serving' (then stopped with SIGTERM) when it started instead.
 */
async function refusedStart (env: Record<string, string>, asUser?: string): Promise<{ code: number | null | 'serving', line: string, ms: number }> {
  const started = Date.now()
  const args = [path.resolve('dist/server.js')]
  const child = asUser === undefined
    ? spawn(process.execPath, args, { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn('runuser', ['-u', asUser, '--', 'env', ...Object.entries({ PORT: '0', HOST: '127.0.0.1', HOME: '/tmp', PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env }).map(([k, v]) => `${k}=${v}`), process.execPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  let serving = false
  child.stderr.on('data', (d) => { stderr += d })
  child.stdout.on('data', (d: Buffer) => {
    if (!serving && d.toString().includes('Utility Media API ready')) {
      serving = true
      child.kill('SIGTERM')
    }
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  clearTimeout(timer)
  return { code: serving ? 'serving' : code, line: (stderr.trim().split('\n')[0] ?? '').slice(0, 160), ms: Date.now() - started }
}

async function sqliteServer (dataDir: string, extra: Record<string, string> = {}): Promise<ServerProcess> {
  return await startServerProcess({ DATA_DIR: dataDir, GIF_STARTER_CATALOG: 'false', API_KEYS: KEY, RATE_LIMIT_MAX: '1000000', LOG_LEVEL: 'warn', USAGE_FLUSH_MS: String(USAGE_FLUSH_MS), ...extra })
}

/**
 * The SQLite file deleted, or overwritten with garbage, under a serving server: the
 * answers meanwhile, readiness, the stop, and what a restart does. When the restart
 * serves (closing the damaged server wrote its view of the database back into the file),
 * the usage it holds then is compared with what was served.
 */
async function sqliteFileFault (name: string, damage: (file: string) => void, faultMs: number): Promise<Row> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-faults-sqlite-'))
  const file = path.join(dataDir, DATABASE_FILE)
  let server: ServerProcess | undefined = await sqliteServer(dataDir)
  try {
    const load = stream(() => server)
    await sleep(1000)
    damage(file)
    await sleep(faultMs)
    const readiness = await readyz(server)
    const answers = await load.stop()
    const code = await server.stop()
    const pending = fs.existsSync(path.join(dataDir, 'usage-pending')) ? fs.readdirSync(path.join(dataDir, 'usage-pending')).length : 0
    const restart = await refusedStart({ DATA_DIR: dataDir, GIF_STARTER_CATALOG: 'false' })
    const row: Row = {
      fault: name,
      answers,
      recovery: 'operator: restore the file, restart',
      note: `/readyz ${readiness.status} (database ${readiness.body.database?.state}); SIGTERM exit ${code}; ${pending} usage batch(es) kept in usage-pending; ` +
        (restart.code === 'serving' ? 'the restart serves' : `restart refused with exit ${restart.code}: "${restart.line}"`)
    }
    if (restart.code === 'serving') {
      // Once more, to its end: the spilled usage replayed, then the file checked.
      server = await sqliteServer(dataDir)
      await timeUntil(async () => !fs.existsSync(path.join(dataDir, 'usage-pending')) || fs.readdirSync(path.join(dataDir, 'usage-pending')).length === 0, 10_000)
      await server.stop()
      server = undefined
      const db = new Database(file)
      const integrity = String(Object.values(db.pragma('integrity_check', { simple: false }) as Array<Record<string, unknown>>)[0]?.integrity_check)
      db.close()
      row.served = served(answers)
      row.stored = storedInSqlite(dataDir)
      row.note += ` (closing the damaged server checkpointed its WAL into the file: integrity_check ${integrity})`
    }
    return row
  } finally {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL')
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

/** One row of the table: its name, what it needs, how to measure it. */
interface Step { name: string, needs: Array<'postgres' | 'redis'>, measure: () => Promise<Row> }

function steps (faultMs: number): Step[] {
  const seconds = `${faultMs / 1000} s`
  const unseen = 'one request in 10 with a key first used during the fault'
  const redisFault = (name: string, start: (so: ScaleOut) => Promise<void>, extraEnv?: Record<string, string>): Step => ({
    name, needs: ['postgres', 'redis'], measure: () => runningFault(name, faultMs, { start, end: (so) => so.redisProxy.pass(), recovered: countersOk, extraEnv })
  })
  return [
    redisFault(`Redis unreachable ${seconds} (cut)`, (so) => so.redisProxy.cut()),
    redisFault(`Redis slow: every reply 2 s late, ${seconds}`, (so) => so.redisProxy.delay(2000)),
    redisFault(`Redis stalls (cut, then new connections stall) ${seconds}`, async (so) => { await so.redisProxy.cut(); await sleep(200); await so.redisProxy.stall() }),
    redisFault(`Redis black hole ${seconds}, then back`, (so) => so.redisProxy.blackHole()),
    redisFault(`Redis cut ${seconds}, RATE_LIMIT_ON_STORE_ERROR=closed`, (so) => so.redisProxy.cut(), { RATE_LIMIT_ON_STORE_ERROR: 'closed' }),
    { name: `start with Redis down, back after ${seconds}`, needs: ['postgres', 'redis'], measure: () => startWithRedisDown(`start with Redis down, back after ${seconds}`, faultMs) },
    {
      name: `PostgreSQL unreachable ${seconds} (cut)`,
      needs: ['postgres', 'redis'],
      measure: () => runningFault(`PostgreSQL unreachable ${seconds} (cut)`, faultMs, { start: (so) => so.pgProxy.cut(), end: (so) => so.pgProxy.pass(), recovered: ready, unseenShare: 0.1, note: unseen })
    },
    {
      name: `PostgreSQL stalls ${seconds} (black hole)`,
      needs: ['postgres', 'redis'],
      measure: () => runningFault(`PostgreSQL stalls ${seconds} (black hole)`, faultMs, { start: (so) => so.pgProxy.blackHole(), end: (so) => so.pgProxy.pass(), recovered: ready, unseenShare: 0.1, note: unseen })
    },
    {
      // A usage batch applied by PostgreSQL whose reply never comes back: retried under its id.
      name: 'PostgreSQL loses the reply to a usage batch (no replies for 4 s)',
      needs: ['postgres', 'redis'],
      measure: () => runningFault('PostgreSQL loses the reply to a usage batch (no replies for 4 s)', 4000, {
        start: (so) => so.pgProxy.loseReplies('INSERT INTO usage_batches'),
        end: (so) => so.pgProxy.pass(),
        recovered: ready,
        note: 'the batch is applied, its reply dropped: retried under the same id'
      })
    },
    { name: 'SIGTERM while PostgreSQL is down (cut), restart once back', needs: ['postgres', 'redis'], measure: () => sigtermWhilePostgresDown(Math.min(faultMs, 3000)) },
    { name: 'start with PostgreSQL down (cut)', needs: ['postgres', 'redis'], measure: startWithPostgresDown },
    { name: 'kill -9 under a steady stream (SQLite)', needs: [], measure: () => killUnderStream(Math.min(faultMs, 3000)) },
    { name: 'failed requests billed', needs: [], measure: failedRequestsBilled },
    { name: `SQLite file deleted while serving (${seconds})`, needs: [], measure: () => sqliteFileFault(`SQLite file deleted while serving (${seconds})`, (file) => fs.rmSync(file), faultMs) },
    {
      name: `SQLite file overwritten with garbage in place (${seconds})`,
      needs: [],
      measure: () => sqliteFileFault(`SQLite file overwritten with garbage in place (${seconds})`, (file) => fs.writeFileSync(file, Buffer.alloc(64 * 1024, 'garbage!')), faultMs)
    },
    { name: 'read-only DATA_DIR at start', needs: [], measure: readOnlyDataDir }
  ]
}

async function startWithRedisDown (name: string, faultMs: number): Promise<Row> {
  const so = await scaleOut()
  let server: ServerProcess | undefined
  try {
    await so.redisProxy.cut()
    const started = Date.now()
    server = await startServerProcess(so.env)
    const startMs = Date.now() - started
    const load = stream(() => server)
    await sleep(faultMs)
    await so.redisProxy.pass()
    const s = server
    const recoveryMs = await timeUntil(() => countersOk(s))
    await sleep(500)
    const answers = await load.stop()
    await server.stop()
    return { fault: name, answers, served: served(answers), stored: await storedInPostgres(so.schema), recoveryMs, note: `serving ${(startMs / 1000).toFixed(1)} s after launch, degraded` }
  } finally {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL')
    await so.close()
  }
}

async function sigtermWhilePostgresDown (downMs: number): Promise<Row> {
  const so = await scaleOut()
  let server: ServerProcess | undefined
  try {
    server = await startServerProcess(so.env)
    const load = stream(() => server)
    await sleep(1000)
    await so.pgProxy.cut()
    await sleep(downMs)
    const answers = await load.stop()
    const stopStart = Date.now()
    const code = await server.stop()
    const stopMs = Date.now() - stopStart
    const pending = fs.readdirSync(path.join(so.dataDir, 'usage-pending')).length
    await so.pgProxy.pass()
    const restarted = Date.now()
    server = await startServerProcess(so.env)
    const s = server
    await timeUntil(async () => fs.readdirSync(path.join(so.dataDir, 'usage-pending')).length === 0 && await ready(s))
    const recoveryMs = Date.now() - restarted
    await server.stop()
    return {
      fault: 'SIGTERM while PostgreSQL is down (cut), restart once back',
      answers,
      served: served(answers),
      stored: await storedInPostgres(so.schema),
      recovery: `${(recoveryMs / 1000).toFixed(2)} s (restart to replayed)`,
      note: `exit ${code} in ${(stopMs / 1000).toFixed(2)} s, ${pending} batch(es) spilled`
    }
  } finally {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL')
    await so.close()
  }
}

async function startWithPostgresDown (): Promise<Row> {
  const so = await scaleOut()
  try {
    await so.pgProxy.cut()
    const r = await refusedStart(so.env)
    return { fault: 'start with PostgreSQL down (cut)', answers: [], recovery: 'restart once it is back', note: `exit ${r.code} after ${(r.ms / 1000).toFixed(1)} s: "${r.line}"` }
  } finally {
    await so.close()
  }
}

async function killUnderStream (streamMs: number): Promise<Row> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-faults-kill-'))
  let server: ServerProcess | undefined = await sqliteServer(dataDir)
  try {
    const load = stream(() => server)
    await sleep(streamMs)
    const killedAt = Date.now()
    server.child.kill('SIGKILL')
    await server.exited
    const answers = (await load.stop()).filter((a) => a.at <= killedAt)
    const lastInterval = answers.filter((a) => a.status === 200 && a.at > killedAt - USAGE_FLUSH_MS).length
    const stored = storedInSqlite(dataDir)
    const restarted = Date.now()
    server = await sqliteServer(dataDir)
    const restartMs = Date.now() - restarted
    await server.stop()
    server = undefined
    return {
      fault: 'kill -9 under a steady stream (SQLite)',
      answers,
      served: served(answers),
      stored,
      allowedLoss: lastInterval,
      recovery: `${(restartMs / 1000).toFixed(2)} s (restart)`,
      note: `bound: the ${lastInterval} answers of the last USAGE_FLUSH_MS (${USAGE_FLUSH_MS} ms)`
    }
  } finally {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL')
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

/** 5xx never billed, 4xx one unit, 429 never (docs/billing.md). */
async function failedRequestsBilled (): Promise<Row> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-faults-billing-'))
  const server = await sqliteServer(dataDir)
  try {
    const answers: Answer[] = []
    for (let i = 0; i < 50; i++) answers.push(await get(`${server.url}/gen/html`, KEY)) // 500 TEST_ERROR
    for (let i = 0; i < 50; i++) answers.push(await get(`${server.url}/gen/html?code=503`, KEY))
    for (let i = 0; i < 20; i++) answers.push(await get(`${server.url}/gen/html?code=418`, KEY))
    await server.stop()
    const billed = storedInSqlite(dataDir, 'system')
    return { fault: 'failed requests billed (50 × 500, 50 × 503, 20 × 418)', answers, note: `usage stored: ${billed} requests (expected 20: the 4xx only)` }
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL')
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

/** The start is refused naming DATA_DIR. Root writes anywhere: as root the server runs as nobody here. */
async function readOnlyDataDir (): Promise<Row> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-faults-ro-'))
  try {
    fs.chmodSync(dataDir, 0o555)
    const asRoot = process.getuid?.() === 0
    const r = await refusedStart({ DATA_DIR: dataDir, GIF_STARTER_CATALOG: 'false' }, asRoot ? 'nobody' : undefined)
    return { fault: 'read-only DATA_DIR at start', answers: [], recovery: 'operator: fix the permissions', note: `exit ${r.code}${asRoot ? ' (as nobody)' : ''}: "${r.line}"` }
  } finally {
    fs.chmodSync(dataDir, 0o700)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

const faults: Benchmark = {
  name: 'Faults survived, usage exact (issue 25): the built server through the fault proxy',
  async run ({ quick }) {
    if (!fs.existsSync('dist/server.js')) throw new Error('dist/server.js is missing: npx tsc -p tsconfig.build.json first')
    const missing = { postgres: await postgresMissing(), redis: await redisMissing() }
    const only = process.env.FAULTS_ONLY
    const rows: Row[] = []
    for (const step of steps(quick ? 3000 : 10_000)) {
      if (only !== undefined && !step.name.toLowerCase().includes(only.toLowerCase())) continue
      const why = step.needs.map((n) => missing[n]).find((m) => m !== undefined)
      if (why !== undefined) {
        process.stderr.write(`[faults] skipped ${step.name}: ${why}\n`)
        continue
      }
      process.stderr.write(`[faults] ${step.name}...\n`)
      const row = await step.measure()
      rows.push(row)
      // Each row as soon as it is measured: a long run that fails later keeps what it has.
      process.stderr.write(`${tableLine(row)}\n`)
    }
    printTable(rows)
    return rows.filter((r) => r.recoveryMs !== undefined).map((r) => ({ name: `recovery after: ${r.fault}`, ours: r.recoveryMs!, unit: 'ms', better: 'lower' as const }))
  }
}

export default faults
