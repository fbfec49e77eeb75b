#!/usr/bin/env node
// `npm run bench`: runs bench/run.ts on the V8 flags `npm start` gives the server
// (scripts/allocator.mjs, serverNodeFlags: --expose-gc, and a 1 MB young generation on
// the event loop). Most benches start our server inside their own process, so that
// process needs the server's flags, and they must be set before Node starts: hence this
// launcher, as scripts/start.mjs is one.
//
// The allocator stays the system's. The processes the benches spawn inherit this one's
// environment, references among them (canvacord, a bare Fastify route), and an
// LD_PRELOAD would move them to jemalloc too. Benches that start the built server as a
// process set its allocator themselves.
//
// Without --expose-gc, a drawing thread never collects after a picture
// (src/runtime/garbage.ts, collectYoung). The encoder's copy of the pixels then waits for
// V8's own collections, and each card touches fresh memory. On a 2-vCPU VM (28 November
// 2026) that put the bench's cards 1.2 to 1.6 times below what the server gives with
// npm start's V8 flags (docs/performance.md, "The benches on npm start's V8
// flags"). Arguments are passed on; the exit code is bench/run.ts's own.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { serverNodeFlags } from './allocator.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const flags = serverNodeFlags(process.env)
process.stdout.write(`Benchmarks on the server's V8 flags: ${flags.join(' ')}\n`)
const child = spawn(process.execPath, [...flags, '--import', 'tsx', path.join(root, 'bench', 'run.ts'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' })
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => { child.kill(signal) })
}
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 128 : 1)
})
