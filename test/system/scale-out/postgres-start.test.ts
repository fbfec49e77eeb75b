// The built server and command line started while PostgreSQL does not answer (issue 25):
// refused (cut), reset or stalled behind the fault proxy, each stops within a few seconds
// with one sentence naming DATABASE_URL and where it points, no stack, and exit 69
// (EX_UNAVAILABLE, docs/operations-faults.md); a database name the server refuses is a
// setting to correct, exit 78 naming DATABASE_URL. Nothing is created in DATA_DIR's
// database and the URL (it may hold a password) is never printed.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { postgresMissing, TEST_DATABASE_URL } from '../../support/backends.js'
import { type FaultProxy, startFaultProxy } from '../../support/fault-proxy.js'
import { tempDirs } from '../../support/helpers.js'

const missing = await postgresMissing()

const EXIT_STORE_UNAVAILABLE = 69
const EXIT_CONFIG = 78
/** The connect deadline (CONNECT_TIMEOUT_MS, 2 s) and the start's own time, with a margin. */
const REFUSED_WITHIN_MS = 15_000

interface Ended { code: number | null, stdout: string, stderr: string, ms: number }

/** The command line's stderr after its first line, which names the store (checked here). */
function withoutStoreLine (stderr: string): string {
  const [first, ...rest] = stderr.split('\n')
  assert.match(first!, /^Store: PostgreSQL 127\.0\.0\.1:\d+\/\S+ \(DATABASE_URL from the environment/)
  assert.equal(first!.includes('not-printed-secret'), false)
  return rest.join('\n')
}

/** Runs dist/server.js or dist/cli/index.js to its end (killed past REFUSED_WITHIN_MS). */
function runToEnd (script: string, args: string[], env: Record<string, string>): Promise<Ended> {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.resolve(script), ...args], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', GIF_STARTER_CATALOG: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    const timer = setTimeout(() => child.kill('SIGKILL'), REFUSED_WITHIN_MS)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr, ms: Date.now() - started })
    })
  })
}

describe('starting while PostgreSQL does not answer', { skip: missing }, () => {
  let proxy: FaultProxy
  const dirs = tempDirs()
  let url = ''
  let address = ''

  before(async () => {
    const target = new URL(TEST_DATABASE_URL)
    proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) })
    const viaProxy = new URL(TEST_DATABASE_URL)
    viaProxy.port = String(proxy.port)
    viaProxy.password = 'not-printed-secret'
    url = viaProxy.toString()
    address = `127.0.0.1:${proxy.port}`
  })
  after(async () => {
    await proxy?.close()
    dirs.removeAll()
  })

  const dataDir = (): string => dirs.make('uma-pg-start-')

  /** One line naming PostgreSQL, its address and DATABASE_URL, no stack, no URL. */
  function oneSentence (r: Ended, what: string): void {
    const lines = r.stderr.trimEnd().split('\n')
    assert.equal(lines.length, 1, `${what}: ${r.stderr}`)
    assert.match(lines[0]!, new RegExp(`PostgreSQL at ${address.replaceAll('.', '\\.')} \\(DATABASE_URL\\) cannot be reached \\(.+\\): start it, or point DATABASE_URL at a server that answers\\.$`), what)
    assert.doesNotMatch(r.stderr + r.stdout, /^\s+at /m, `${what}: no stack`)
    assert.doesNotMatch(r.stderr + r.stdout, /not-printed-secret|postgres:\/\//, `${what}: the URL is not printed`)
  }

  for (const mode of ['cut', 'reset', 'stall'] as const) {
    it(`${mode}: the server stops with one sentence naming DATABASE_URL and exit 69`, async () => {
      await proxy[mode]()
      try {
        const dir = dataDir()
        const r = await runToEnd('dist/server.js', [], { DATA_DIR: dir, DATABASE_URL: url })
        assert.equal(r.code, EXIT_STORE_UNAVAILABLE, r.stderr + r.stdout)
        oneSentence(r, 'server')
        assert.equal(r.stdout, '', 'nothing said before: no key printed, no catalog made')
        assert.ok(r.ms < REFUSED_WITHIN_MS, `${r.ms} ms`)
      } finally {
        await proxy.pass()
      }
    })

    it(`${mode}: the command line stops the same way, exit 69`, async () => {
      await proxy[mode]()
      try {
        const ran = await runToEnd('dist/cli/index.js', ['keys', 'list'], { DATA_DIR: dataDir(), DATABASE_URL: url })
        assert.equal(ran.code, EXIT_STORE_UNAVAILABLE, ran.stderr + ran.stdout)
        // First the line naming the store: its address and database, never the password.
        const r = { ...ran, stderr: withoutStoreLine(ran.stderr) }
        assert.match(r.stderr, /^Error: /)
        oneSentence({ ...r, stderr: r.stderr.replace(/^Error: /, '') }, 'cli')
      } finally {
        await proxy.pass()
      }
    })
  }

  it('a database the server refuses (no such database): exit 78 naming DATABASE_URL, server and command line alike', async () => {
    const wrong = new URL(TEST_DATABASE_URL)
    wrong.pathname = '/uma_no_such_database'
    for (const [script, args] of [['dist/server.js', []], ['dist/cli/index.js', ['keys', 'list']]] as const) {
      const r = await runToEnd(script, [...args], { DATA_DIR: dataDir(), DATABASE_URL: wrong.toString() })
      assert.equal(r.code, EXIT_CONFIG, r.stderr + r.stdout)
      const lines = (script === 'dist/cli/index.js' ? withoutStoreLine(r.stderr) : r.stderr).trimEnd().split('\n')
      assert.equal(lines.length, 1, r.stderr)
      assert.match(lines[0]!, /^Invalid configuration: PostgreSQL at [^ ]+ \(DATABASE_URL\) refused the connection \(database "uma_no_such_database" does not exist\): correct the user, password or database name in DATABASE_URL\.$/)
    }
  })
})
