#!/usr/bin/env node
// `npm start`: makes the checkout runnable (scripts/prepare.mjs), then runs the built
// server under jemalloc when Debian's libjemalloc2 is installed (scripts/allocator.mjs),
// with libuv's thread pool sized for its conversions (scripts/thread-pool.mjs). Both must
// be set before Node starts, hence a launcher process; it passes SIGTERM/SIGINT on and
// exits with the server's code. On a Node past its end of life (Node 20 since April
// 2026, which the development machines still have) it runs all the same, after one line
// saying so (scripts/node-lts.mjs).
import { spawn, spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { allocatorEnv, serverNodeFlags } from './allocator.mjs'
import { endOfLifeNotice } from './node-lts.mjs'
import { threadPoolEnv } from './thread-pool.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const prepare = spawnSync(process.execPath, [path.join(root, 'scripts', 'prepare.mjs')], { cwd: root, stdio: 'inherit' })
if (prepare.status !== 0) process.exit(prepare.status ?? 1)

const notice = endOfLifeNotice()
if (notice) process.stderr.write(`${notice}\n`)

const allocator = allocatorEnv(process.env)
const { env, line } = threadPoolEnv(allocator.env)
process.stdout.write(`Starting the Utility Media API; ${allocator.line}; ${line}\n`)
// The server resolves DATA_DIR and .env against the working directory: kept as given.
const child = spawn(process.execPath, [...process.execArgv, ...serverNodeFlags(env), path.join(root, 'dist', 'server.js')], { env, stdio: 'inherit' })
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => { child.kill(signal) })
}
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 128 : 1)
})
