#!/usr/bin/env node
// The whole test suite: type-check and lint everything (eslint.config.mjs), then run every test/**/*.test.ts with
// Node's test runner (TypeScript loaded through tsx). test/ mirrors src/: test/unit/ holds
// each module's tests at its path (src/work/pool.ts → test/unit/work/pool.test.ts),
// test/system/ the suites by kind (process, hostile, faults, scale-out, browser, clients,
// golden). Extra arguments narrow the files:
// node scripts/test.mjs colors  → only files whose path contains "colors";
// node scripts/test.mjs src/work → the tests of src/work/ (test/unit/work/);
// node scripts/test.mjs unit     → every unit test; system/process → the process suite.
// The hostile suite then runs alone (see below), and the store-dependent suites run again
// on PostgreSQL when it is reachable (--sqlite-only skips that pass). All of it runs on
// this machine's Node, then again on Node 24 and Node 26 LTS from the npm registry
// (--this-node-only skips those runs). The run ends with one
// summary of every pass: counts, times, and the failing tests by name, then a last line
// "all passes: N passed, N failed, N skipped"; the exit code is not 0 when any pass failed.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ensureNode, EXTRA_NODE_VERSIONS } from './node-lts.mjs'

const startedAt = Date.now()
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
// A filter naming a src module or folder selects its tests (the same path under test/unit/).
const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'))
  .map((a) => a.startsWith('src/') ? a.replace(/^src\//, 'test/unit/').replace(/\.ts$/, '') : a)

const files = fs.readdirSync(path.join(root, 'test'), { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => path.join('test', f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()

if (files.length === 0) {
  process.stderr.write(`No test files match ${filters.join(', ')}\n`)
  process.exit(1)
}

// Dependencies installed and src/ compiled to dist/ first: the process-level tests start
// the built server (dist/server.js), as operators run it.
{
  const prepare = spawnSync(process.execPath, [path.join(root, 'scripts', 'prepare.mjs')], { cwd: root, stdio: 'inherit' })
  if (prepare.status !== 0) process.exit(prepare.status ?? 1)
}

// The browser tests drive Debian's chromium, and `npm start` prefers Debian's jemalloc:
// installed here when missing (apt-get; CI does the same in .ci/run), so that a fresh
// machine needs no step beyond `npm test`.
if (files.some((f) => f.startsWith(path.join('test', 'system', 'browser'))) && !fs.existsSync('/usr/bin/chromium')) {
  const install = spawnSync('bash', [path.join(root, 'scripts', 'install-system-packages.sh')], { cwd: root, stdio: 'inherit' })
  if (install.status !== 0) process.stderr.write('Could not install chromium (scripts/install-system-packages.sh): the browser tests will fail\n')
}

// Type-checking and linting side by side: neither keeps both cores busy alone (about 17 s
// one after the other, 13 s together). Each prints only what it finds.
{
  const node = (args) => new Promise((resolve) => {
    spawn(process.execPath, args, { cwd: root, stdio: 'inherit' }).on('exit', (code) => resolve(code ?? 1))
  })
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  const checks = []
  const labels = []
  if (!process.argv.includes('--no-typecheck')) {
    labels.push('type-checking (tsc --noEmit)')
    // The server, tests and scripts; then the browser pages, which need the DOM's types.
    checks.push(node([tsc, '--noEmit', '-p', 'tsconfig.json']).then(async (code) => code || await node([tsc, '--noEmit', '-p', path.join('web', 'tsconfig.json')])))
  }
  if (!process.argv.includes('--no-lint')) {
    labels.push('linting (eslint, neostandard)')
    checks.push(node([path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), '.']))
  }
  if (labels.length > 0) process.stderr.write(`${labels.join(' and ').replace(/^./, (c) => c.toUpperCase())}...\n`)
  const failed = (await Promise.all(checks)).find((code) => code !== 0)
  if (failed !== undefined) process.exit(failed)
}

// Each pass prints Node's spec reporter as it runs, and a second reporter
// (scripts/test-results-reporter.mjs) writes its failures and counts to a file for the
// summary at the end: a failure early in a long run is otherwise far above the last
// pass's green lines. Every pass runs on this machine's Node and again on each extra LTS
// line of scripts/node-lts.mjs (Node 24, from the npm registry): users run the current
// LTS, the development machines Node 20.
const RESULTS_REPORTER = pathToFileURL(path.join(root, 'scripts', 'test-results-reporter.mjs')).href
const passes = []
const notRun = []

function runTests (runtime, name, list, env = {}, concurrency = Number(process.env.TEST_CONCURRENCY ?? 2)) {
  const results = path.join(os.tmpdir(), `uma-test-${process.pid}-${passes.length}.jsonl`)
  const start = Date.now()
  name = `${name}, Node ${runtime.version}`
  const status = spawnSync(runtime.node, [
    '--import', 'tsx',
    '--test',
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    `--test-reporter=${RESULTS_REPORTER}`, `--test-reporter-destination=${results}`,
    `--test-concurrency=${concurrency}`,
    // A test that hangs fails after ten minutes instead of holding the run (and CI) for
    // good: the slowest honest ones take about three under load.
    '--test-timeout=600000',
    ...list
  ], { cwd: root, stdio: 'inherit', env: { ...process.env, ...runtime.env, NODE_ENV: 'test', ...env } }).status ?? 1
  const pass = { name, status, ms: Date.now() - start, counts: undefined, failures: [] }
  const lines = fs.existsSync(results) ? fs.readFileSync(results, 'utf8').split('\n').filter(Boolean) : []
  fs.rmSync(results, { force: true })
  for (const line of lines) {
    let record
    try { record = JSON.parse(line) } catch { continue } // a runner killed mid-line
    if (record.counts) pass.counts = record.counts
    else pass.failures.push(record)
  }
  passes.push(pass)
  return status
}

/** "48 s", "3 min 05 s". */
function duration (ms) {
  const s = Math.round(ms / 1000)
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`
}

/** "test/unit/colors/routes.test.ts › GET /color/info › reads hex=00ff00 as lime: <message>". */
function describeFailure (failure) {
  const file = failure.file ? path.relative(root, failure.file) : '(no file)'
  // A file that failed outside its tests is reported as a test named by its path.
  const names = failure.failed.filter((n) => n !== failure.file)
  if (names.length === 0) return `${file} › the file itself failed outside its tests: see its output above`
  const what = names.join(' › ') + (failure.suite ? ' (the suite itself)' : '')
  const message = failure.message.replace(/\s+/g, ' ').trim()
  const why = message ? `: ${message.length > 160 ? message.slice(0, 157) + '...' : message}` : ''
  return `${file} › ${what}${why}`
}

/** One summary of every pass, ending on the line CI reads; the exit code for the run. */
function summarise () {
  const out = ['', '='.repeat(72), 'Summary of all passes', '']
  const total = { passed: 0, failed: 0, skipped: 0 }
  const failures = []
  for (const pass of passes) {
    const c = pass.counts
    const failed = c ? c.fail + (c.cancelled ?? 0) : 0
    // A pass whose runner failed without naming a failed test (it crashed, or its counts
    // are missing) still counts as one failure.
    const unexplained = pass.status !== 0 && pass.failures.length === 0 ? 1 : 0
    const counts = c
      ? `${c.tests} tests: ${c.pass} passed, ${failed} failed, ${c.skipped} skipped` +
        (c.cancelled ? ` (${c.cancelled} of the failed cancelled)` : '') + (c.todo ? `, ${c.todo} todo` : '')
      : 'no counts reported'
    out.push(`  ${pass.status === 0 ? 'ok  ' : 'FAIL'}  ${pass.name.padEnd(38)} ${counts}, ${duration(pass.ms)}`)
    total.passed += c?.pass ?? 0
    total.skipped += c?.skipped ?? 0
    total.failed += Math.max(failed, unexplained)
    for (const failure of pass.failures) failures.push(`  [${pass.name}] ${describeFailure(failure)}`)
    if (unexplained) failures.push(`  [${pass.name}] the test runner exited with code ${pass.status} without naming a failed test: see its output above`)
  }
  for (const line of notRun) out.push(`  --    ${line}`)
  out.push('', `Total wall time: ${duration(Date.now() - startedAt)} (the whole run: build and checks included)`)
  if (failures.length > 0) out.push('', 'Failed tests (a suite is named when its own hook failed; its tests were cancelled):', ...failures)
  out.push('', `all passes: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`)
  process.stdout.write(out.join('\n') + '\n')
  return passes.find((p) => p.status !== 0)?.status ?? 0
}

// The hostile suite (test/system/hostile/) measures the server process it attacks (a /healthz
// probe's longest wait, CPU time after the last answer): it runs after the rest, one file
// at a time, so that no other test shares the cores it measures.
const HOSTILE = path.join('test', 'system', 'hostile') + path.sep
const hostileFiles = files.filter((f) => f.startsWith(HOSTILE))
const otherFiles = files.filter((f) => !f.startsWith(HOSTILE))

// The suites that exercise the store run a second time on PostgreSQL (scale-out mode),
// where one is reachable: same tests, same behaviour, both stores. They are the unit tests
// of what keeps its state in the store: keys, limits and usage (access/), what every route
// shares (http/, the error catalogue), metrics and the gif catalog. Of those, only the
// files whose store follows TEST_STORE (test apps and stores from test/support/helpers.ts):
// the others test a parser or a store they open themselves, and would only run again
// unchanged. (test/unit/store/ opens both stores itself, where PostgreSQL is reachable.)
const STORE_SUITES = ['test/unit/access/', 'test/unit/http/', 'test/unit/errors.test.ts', 'test/unit/metrics/', 'test/unit/gifs/']
const FOLLOWS_TEST_STORE = /\b(createTestApp|openTestStore|TEST_STORE)\b/
const storeFiles = files
  .filter((f) => STORE_SUITES.some((d) => f.startsWith(d.replaceAll('/', path.sep))))
  .filter((f) => FOLLOWS_TEST_STORE.test(fs.readFileSync(path.join(root, f), 'utf8')))
let postgres
if (storeFiles.length > 0 && !process.argv.includes('--sqlite-only')) {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test')
  const reachable = await new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port || 5432) }, () => { socket.end(); resolve(true) })
    socket.setTimeout(1000, () => { socket.destroy(); resolve(false) })
    socket.on('error', () => resolve(false))
  })
  postgres = reachable ? true : `nothing answers at ${url.host} (set TEST_DATABASE_URL)`
  if (!reachable) notRun.push(`PostgreSQL pass skipped: ${postgres}`)
} else if (storeFiles.length > 0) {
  notRun.push('PostgreSQL pass not run (--sqlite-only)')
}

/** Every pass on one Node: the main pass, the hostile suite alone, the PostgreSQL pass. */
function runSuite (runtime) {
  if (otherFiles.length > 0) runTests(runtime, 'main pass', otherFiles)
  if (hostileFiles.length > 0) {
    process.stdout.write(`\nHostile suite on Node ${runtime.version}: ${hostileFiles.length} files, one at a time\n`)
    runTests(runtime, 'hostile suite', hostileFiles, { TEST_CONCURRENCY: '1' }, 1)
  }
  if (postgres === true) {
    process.stdout.write(`\nSecond pass on Node ${runtime.version}: ${storeFiles.length} store-dependent test files on PostgreSQL (TEST_STORE=postgres)\n`)
    runTests(runtime, 'PostgreSQL pass', storeFiles, { TEST_STORE: 'postgres' })
  } else if (typeof postgres === 'string') {
    process.stdout.write(`\nSkipped the PostgreSQL pass: ${postgres}\n`)
  }
}

runSuite({ node: process.execPath, version: process.versions.node, env: {} })
// Then the same passes on each extra LTS line, its bin/ first on PATH so that what the
// tests start by name (npm, node) runs on it too. --this-node-only skips them (a quick
// loop); a line that cannot be installed counts as a failed pass.
if (!process.argv.includes('--this-node-only')) {
  for (const major of Object.keys(EXTRA_NODE_VERSIONS).map(Number)) {
    const extra = ensureNode(major)
    if (!extra.node) {
      passes.push({ name: `Node ${major}`, status: 1, ms: 0, counts: undefined, failures: [] })
      process.stdout.write(`\nNo Node ${major} to run the suite on: ${extra.reason}\n`)
      continue
    }
    process.stdout.write(`\nThe suite again on Node ${extra.version} (scripts/node-lts.mjs)\n`)
    const bin = path.dirname(extra.node)
    runSuite({ node: extra.node, version: extra.version, env: { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` } })
  }
} else {
  notRun.push(`the passes on Node ${Object.values(EXTRA_NODE_VERSIONS).join(', ')} not run (--this-node-only)`)
}
process.exit(summarise())
