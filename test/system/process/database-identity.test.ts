// The built server and its SQLite file (issue 25): a database deleted while serving is
// noticed (readiness 503, the operator's readiness on the metrics port naming it, one
// error line, writes refused), and the restart
// refuses to create an empty database where an earlier install lost its own, unless
// ALLOW_EMPTY_DATABASE says to; a file that is not SQLite and a DATA_DIR that cannot be
// written stop the start with one sentence and the documented exit code.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { tempDirs } from '../../support/helpers.js'
import { freePort, request, type ServerProcess, startServerProcess } from '../../support/processes.js'

const DATABASE = 'utility-media.sqlite'
// src/store/sqlite/database-file.ts: the check runs every 2 s; twice that and a margin.
const NOTICE_WITHIN_MS = 6000
const EXIT_DATABASE_UNREADABLE = 65
const EXIT_DATABASE_MISSING = 66
const EXIT_CONFIG = 78

const dirs = tempDirs()
after(() => dirs.removeAll())
const dataDir = (): string => dirs.make('uma-dbfile-')

/** No starter gifs: faster starts; the emoji font's cache/ still marks the install. */
function env (dir: string, extra: Record<string, string> = {}): Record<string, string> {
  return { DATA_DIR: dir, GIF_STARTER_CATALOG: 'false', ...extra }
}

/** A start expected to be refused: run to its end, with a bound. */
function startRefused (extra: Record<string, string>): { status: number | null, stderr: string, stdout: string } {
  const r = spawnSync(process.execPath, [path.resolve('dist/server.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...extra },
    encoding: 'utf8',
    timeout: 30_000
  })
  return { status: r.status, stderr: r.stderr, stdout: r.stdout }
}

async function readiness (s: ServerProcess): Promise<{ status: number, body: Record<string, any> }> {
  const res = await request(`${s.url}/readyz`)
  return { status: res.status, body: JSON.parse(res.body.toString()) }
}

/** The operator's readiness report: /readyz on the metrics port (METRICS_PORT). */
async function operatorReadiness (metricsPort: number): Promise<{ status: number, body: Record<string, any> }> {
  const res = await request(`http://127.0.0.1:${metricsPort}/readyz`)
  return { status: res.status, body: JSON.parse(res.body.toString()) }
}

/** Polls /readyz until it answers `status`, within `ms`. */
async function readinessBecomes (s: ServerProcess, status: number, ms: number): Promise<{ status: number, body: Record<string, any> }> {
  const end = Date.now() + ms
  for (;;) {
    const r = await readiness(s)
    if (r.status === status) return r
    if (Date.now() > end) assert.fail(`/readyz still answers ${r.status} after ${ms} ms: ${JSON.stringify(r.body)}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

function listing (dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true }).map(String).sort()
}

describe('the SQLite file deleted while serving', () => {
  it('fails readiness naming the file, logs one error, and the restart refuses to start empty unless told to', async () => {
    const dir = dataDir()
    const file = path.join(dir, DATABASE)
    const metricsPort = await freePort()
    let s = await startServerProcess(env(dir, { METRICS_PORT: String(metricsPort) }))
    try {
      const first = await readiness(s)
      assert.equal(first.status, 200, JSON.stringify(first.body))
      assert.deepEqual(first.body, { success: true, code: 200, message: '', status: 'ready', database: { state: 'ok' }, counters: { state: 'ok' } })
      const inode = fs.statSync(file).ino
      const detailed = await operatorReadiness(metricsPort)
      assert.equal(detailed.status, 200)
      assert.deepEqual(detailed.body, { status: 'ready', store: 'sqlite', database: { state: 'ok', path: file, device: fs.statSync(file).dev, inode }, counters: { state: 'ok', kind: 'memory' } })
      assert.match(s.output(), /No API key existed, so one was created/)

      fs.rmSync(file)
      const down = await readinessBecomes(s, 503, NOTICE_WITHIN_MS)
      assert.equal(down.body.success, false)
      assert.equal(down.body.code, 503)
      assert.equal(down.body.error, 'SERVICE_UNAVAILABLE')
      assert.equal(down.body.message, 'The service is not ready: its database is down')
      assert.deepEqual(down.body.database, { state: 'down' })
      assert.equal(typeof down.body.requestId, 'string')
      assert.ok(!JSON.stringify(down.body).includes(dir), 'the public answer does not say where the data lives')
      const downDetailed = await operatorReadiness(metricsPort)
      assert.equal(downDetailed.status, 503)
      assert.equal(downDetailed.body.status, 'not ready')
      assert.equal(downDetailed.body.database.state, 'down')
      assert.equal(downDetailed.body.database.inode, inode)
      assert.match(downDetailed.body.database.problem, /^the database file .* was deleted while the server had it open/)
      assert.ok(downDetailed.body.database.problem.includes(file), downDetailed.body.database.problem)
      // Still down at the next probe; the problem is logged once, not per probe.
      assert.equal((await readiness(s)).status, 503)
      const errorLines = s.output().split('\n').filter((l) => l.includes('"level":50') && l.includes('database down'))
      assert.equal(errorLines.length, 1, s.output())
      assert.ok(errorLines[0]!.includes(file))
      assert.equal((await request(`${s.url}/healthz`)).status, 200, 'the process itself is alive')
    } finally {
      assert.equal(await s.stop(), 0, s.output())
    }
    assert.equal(fs.existsSync(file), false, 'stopping wrote no new database')

    const before = listing(dir)
    const refused = startRefused(env(dir))
    assert.equal(refused.status, EXIT_DATABASE_MISSING, refused.stderr + refused.stdout)
    assert.equal(refused.stdout, '')
    assert.match(refused.stderr, /^The database \S+ is missing, but DATA_DIR holds an earlier install \(.*cache.*\): restore the database from a backup \(docs\/backups\.md\), or start with an empty database by setting ALLOW_EMPTY_DATABASE=true\.\n$/)
    assert.deepEqual(listing(dir), before, 'a refused start creates nothing')

    s = await startServerProcess(env(dir, { ALLOW_EMPTY_DATABASE: 'true' }))
    try {
      const ready = await readiness(s)
      assert.equal(ready.status, 200, JSON.stringify(ready.body))
      assert.equal(ready.body.database.state, 'ok')
      assert.ok(fs.existsSync(file), 'a new database')
      assert.match(s.output(), /No API key existed, so one was created/, 'it is empty: the first key is made again')
    } finally {
      assert.equal(await s.stop(), 0, s.output())
    }
  })

  it('a database file replaced while serving (another inode at the path) fails readiness too, and refuses writes', async () => {
    const dir = dataDir()
    const file = path.join(dir, DATABASE)
    const metricsPort = await freePort()
    const s = await startServerProcess(env(dir, { METRICS_PORT: String(metricsPort) }))
    try {
      assert.equal((await readiness(s)).status, 200)
      fs.writeFileSync(`${file}.new`, 'not the database')
      fs.renameSync(`${file}.new`, file)
      const down = await readinessBecomes(s, 503, NOTICE_WITHIN_MS)
      assert.deepEqual(down.body.database, { state: 'down' })
      const detailed = await operatorReadiness(metricsPort)
      assert.equal(detailed.status, 503)
      assert.match(detailed.body.database.problem, /was replaced while the server had it open/)
      // Usage is a write: the counted request is answered, its usage is not written to the
      // unlinked file but kept for the next start (DATA_DIR/usage-pending).
      const key = /um_[A-Za-z0-9_-]+/.exec(s.output())?.[0]
      assert.ok(key, s.output())
      assert.equal((await request(`${s.url}/color/random`, { headers: { authorization: key } })).status, 200)
    } finally {
      assert.equal(await s.stop(), 0, s.output())
    }
    assert.ok(fs.readdirSync(path.join(dir, 'usage-pending')).length > 0, 'the refused usage was spilled for the next start')
    // What is now at the path is not a database: the restart says so.
    const r = startRefused(env(dir))
    assert.equal(r.status, EXIT_DATABASE_UNREADABLE, r.stderr + r.stdout)
    assert.equal(r.stderr, `The database ${file} is not a SQLite database: move it aside and restore the database from a backup (docs/backups.md).\n`)
  })

  it('a first start in a new DATA_DIR, and one in an empty DATA_DIR, just work', async () => {
    const parent = dataDir()
    for (const dir of [path.join(parent, 'new', 'data'), dataDir()]) {
      const s = await startServerProcess(env(dir))
      try {
        assert.equal((await readiness(s)).status, 200)
      } finally {
        assert.equal(await s.stop(), 0, s.output())
      }
    }
  })
})

describe('a start that cannot use its database', () => {
  it('the CLI refuses the same way, with the same exit codes, creating nothing', () => {
    const dir = dataDir()
    fs.mkdirSync(path.join(dir, 'cache'))
    // In an empty folder: a .env in the checkout would change the line naming the store.
    const cwd = dataDir()
    const cli = (args: string[]) => spawnSync(process.execPath, [path.resolve('dist/cli/index.js'), ...args], { cwd, env: { ...process.env, DATA_DIR: dir, ENV_FILE: '' }, encoding: 'utf8', timeout: 30_000 })
    let r = cli(['keys', 'list'])
    assert.equal(r.status, EXIT_DATABASE_MISSING, r.stderr + r.stdout)
    // After the line naming the store (every command's first line), the server's sentence.
    const storeLine = `Store: SQLite ${path.join(dir, DATABASE)} (DATA_DIR from the environment; no .env file, ENV_FILE not set)\n`
    assert.ok(r.stderr.startsWith(storeLine), r.stderr)
    r.stderr = r.stderr.slice(storeLine.length)
    assert.match(r.stderr, /^The database \S+ is missing, but DATA_DIR holds an earlier install \(cache\): restore the database from a backup \(docs\/backups\.md\), or start with an empty database by setting ALLOW_EMPTY_DATABASE=true\.\n$/)
    assert.deepEqual(fs.readdirSync(dir), ['cache'])
    fs.writeFileSync(path.join(dir, DATABASE), 'not a database at all, '.repeat(100))
    r = cli(['gifs', 'stats'])
    assert.equal(r.status, EXIT_DATABASE_UNREADABLE, r.stderr + r.stdout)
    assert.equal(r.stderr, `${storeLine}The database ${path.join(dir, DATABASE)} is not a SQLite database: move it aside and restore the database from a backup (docs/backups.md).\n`)
  })

  it('refuses a database file that is not SQLite in one sentence naming it, exit 65', () => {
    const dir = dataDir()
    const file = path.join(dir, DATABASE)
    const garbage = Buffer.from('this is not a database, it is a shopping list\n'.repeat(200))
    fs.writeFileSync(file, garbage)
    const r = startRefused(env(dir))
    assert.equal(r.status, EXIT_DATABASE_UNREADABLE, r.stderr + r.stdout)
    assert.equal(r.stdout, '')
    assert.equal(r.stderr, `The database ${file} is not a SQLite database: move it aside and restore the database from a backup (docs/backups.md).\n`)
    assert.deepEqual(fs.readFileSync(file), garbage, 'the file is left as it was')
    assert.deepEqual(fs.readdirSync(dir), [DATABASE])
  })

  it('refuses a read-only DATA_DIR with exit 78 naming DATA_DIR', { skip: process.getuid?.() === 0 ? 'root writes into a 0555 folder: the refusal cannot be shown as root' : false }, () => {
    const dir = dataDir()
    fs.chmodSync(dir, 0o555)
    const r = startRefused(env(dir))
    assert.equal(r.status, EXIT_CONFIG, r.stderr + r.stdout)
    assert.equal(r.stdout, '')
    assert.match(r.stderr, /^Invalid configuration: DATA_DIR \S+ cannot be used \(.*\): give the server's user write access to it, or choose another DATA_DIR\.\n$/)
    assert.ok(r.stderr.includes(dir))
  })

  it('refuses a DATA_DIR that cannot be created with exit 78 naming DATA_DIR', () => {
    // Below a regular file: no user, root included, can create it.
    const dir = path.join(dataDir(), 'a-file')
    fs.writeFileSync(dir, '')
    const r = startRefused(env(path.join(dir, 'data')))
    assert.equal(r.status, EXIT_CONFIG, r.stderr + r.stdout)
    assert.match(r.stderr, /^Invalid configuration: DATA_DIR \S+ cannot be used \(ENOTDIR[^)]*\): give the server's user write access to it, or choose another DATA_DIR\.\n$/)
  })
})
