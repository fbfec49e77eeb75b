#!/usr/bin/env node
// The whole test suite: type-check and lint everything (eslint.config.mjs), then run every test/**/*.test.ts with
// Node's test runner (TypeScript loaded through tsx). Extra arguments narrow the files:
// node scripts/test.mjs colors  → only files whose path contains "colors".
// Then the store-dependent suites run again on PostgreSQL when it is reachable
// (--sqlite-only skips that pass). The hostile suite runs last, alone (see below).
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'))

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
if (files.some((f) => f.startsWith(path.join('test', 'browser'))) && !fs.existsSync('/usr/bin/chromium')) {
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

function runTests (list, env = {}, concurrency = Number(process.env.TEST_CONCURRENCY ?? 2)) {
  return spawnSync(process.execPath, [
    '--import', 'tsx',
    '--test',
    '--test-reporter=spec',
    `--test-concurrency=${concurrency}`,
    ...list
  ], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test', ...env } }).status ?? 1
}

// The hostile suite (test/hostile/) measures the server process it attacks (a /healthz
// probe's longest wait, CPU time after the last answer): it runs after the rest, one file
// at a time, so that no other test shares the cores it measures.
const HOSTILE = path.join('test', 'hostile') + path.sep
const hostileFiles = files.filter((f) => f.startsWith(HOSTILE))
const otherFiles = files.filter((f) => !f.startsWith(HOSTILE))
let status = otherFiles.length > 0 ? runTests(otherFiles) : 0
if (hostileFiles.length > 0) {
  process.stdout.write(`\nHostile suite: ${hostileFiles.length} files, one at a time\n`)
  status = runTests(hostileFiles, { TEST_CONCURRENCY: '1' }, 1) || status
}

// The suites that exercise the store run a second time on PostgreSQL (scale-out mode),
// where one is reachable: same tests, same behaviour, both stores. Of their folders, only
// the files whose store follows TEST_STORE (test apps and stores from test/helpers.ts):
// the others test a process, a parser or a store they open themselves, and would only
// run again unchanged.
const STORE_SUITES = ['test/foundation/', 'test/limits/', 'test/gifs/']
const FOLLOWS_TEST_STORE = /\b(createTestApp|openTestStore|TEST_STORE)\b/
const storeFiles = files
  .filter((f) => STORE_SUITES.some((d) => f.startsWith(d.replaceAll('/', path.sep))))
  .filter((f) => FOLLOWS_TEST_STORE.test(fs.readFileSync(path.join(root, f), 'utf8')))
if (storeFiles.length > 0 && !process.argv.includes('--sqlite-only')) {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test')
  const reachable = await new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port || 5432) }, () => { socket.end(); resolve(true) })
    socket.setTimeout(1000, () => { socket.destroy(); resolve(false) })
    socket.on('error', () => resolve(false))
  })
  if (reachable) {
    process.stdout.write(`\nSecond pass: ${storeFiles.length} store-dependent test files on PostgreSQL (TEST_STORE=postgres)\n`)
    status = runTests(storeFiles, { TEST_STORE: 'postgres' }) || status
  } else {
    process.stdout.write(`\nSkipped the PostgreSQL pass: nothing answers at ${url.host} (set TEST_DATABASE_URL)\n`)
  }
}
process.exit(status)
