#!/usr/bin/env node
// The whole test suite: type-check everything, then run every test/**/*.test.ts with
// Node's test runner (TypeScript loaded through tsx). Extra arguments narrow the files:
// node scripts/test.mjs colors  → only files whose path contains "colors".
// Then the store-dependent suites run again on PostgreSQL when it is reachable
// (--sqlite-only skips that pass).
import { spawnSync } from 'node:child_process'
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

if (!process.argv.includes('--no-typecheck')) {
  process.stderr.write('Type-checking (tsc --noEmit)...\n')
  const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' })
  if (tsc.status !== 0) process.exit(tsc.status ?? 1)
}

function runTests (list, env = {}) {
  return spawnSync(process.execPath, [
    '--import', 'tsx',
    '--test',
    '--test-reporter=spec',
    `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 2}`,
    ...list
  ], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test', ...env } }).status ?? 1
}

let status = runTests(files)

// The suites that exercise the store run a second time on PostgreSQL (scale-out mode),
// where one is reachable: same tests, same behaviour, both stores.
const STORE_SUITES = ['test/foundation/', 'test/limits/', 'test/gifs/']
const storeFiles = files.filter((f) => STORE_SUITES.some((d) => f.startsWith(d.replaceAll('/', path.sep))))
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
