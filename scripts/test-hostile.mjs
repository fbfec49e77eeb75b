#!/usr/bin/env node
// The hostile suite (test/system/hostile/, issue 14): compiles, then runs its files one at a time
// (TEST_CONCURRENCY=1). Its checks measure the server process (a /healthz probe's longest
// wait, CPU time after the last answer): two hostile files at once, or other tests beside
// them, would measure each other. Extra arguments narrow the files as in scripts/test.mjs.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const words = process.argv.slice(2).filter((a) => !a.startsWith('--'))
const flags = process.argv.slice(2).filter((a) => a.startsWith('--'))
const files = words.length === 0 ? ['test/system/hostile/'] : words.map((w) => `test/system/hostile/${w}`)
const run = spawnSync(process.execPath, [path.join(root, 'scripts', 'test.mjs'), ...files, '--sqlite-only', ...flags], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, TEST_CONCURRENCY: '1' }
})
process.exit(run.status ?? 1)
