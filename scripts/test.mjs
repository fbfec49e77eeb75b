#!/usr/bin/env node
// The whole test suite: type-check everything, then run every test/**/*.test.ts with
// Node's test runner (TypeScript loaded through tsx). Extra arguments narrow the files:
// node scripts/test.mjs colors  → only files whose path contains "colors".
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
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

const result = spawnSync(process.execPath, [
  '--import', 'tsx',
  '--test',
  '--test-reporter=spec',
  `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 2}`,
  ...files
], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } })
process.exit(result.status ?? 1)
