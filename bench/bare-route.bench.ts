// Issue 37's two scenarios, measured from outside: the built server as operators run it
// (dist/server.js started as `npm start` starts it: jemalloc, its V8 flags, its libuv pool,
// a key, one log line a request) against a bare Fastify 5 route doing the same call with
// nothing else (no key, limits, usage, deadline or log line), each server in a process of
// its own, autocannon in this process, on the same cores, in alternating rounds.
//
// - Markdown → HTML: the first 120 CommonMark spec examples joined by blank lines (2.8 KB,
//   short of the issue's "about 10 KB"), repeated until it reaches 10 KB (11.1 KB), sent as JSON
//   {"markdown"} (docs/text-conversion.md); the bare route renders it with markdown-it's
//   default preset on its event loop and answers {"html"}. 8 connections. Target 0.8.
// - JPEG → JPEG: a 1200×800 photo-like JPEG of quality 90 (made once by sharp) to quality
//   80, sent as the raw body (docs/image-conversion.md); the bare route runs
//   sharp(body).jpeg({ quality: 80 }) on it. 2 connections. Target 0.9.
//
// BENCH_OTHER_CHECKOUTS=/path[,/path...] runs each of those checkouts' built server as
// one more process in the same rounds (their dist/ must be built): before and after a
// change, side by side.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { allocatorEnv, serverNodeFlags } from '../scripts/allocator.mjs'
import { threadPoolEnv } from '../scripts/thread-pool.mjs'
import { type Benchmark, type BenchRow, load, median, perRoundRatios, roundsOf } from './harness.js'
import { photo } from './image-conversion.bench.js'
import { freePort } from '../test/support/processes.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)

const KEY = 'bare-route-bench-key-0123456789abcdef'

/** The first 120 CommonMark spec examples joined by blank lines (tabs as tabs), repeated to 10 KB. */
export function specDocument (bytes = 10 * 1024): string {
  const spec = require('commonmark-spec') as { tests: Array<{ markdown: string }> }
  const block = spec.tests.slice(0, 120).map((t) => t.markdown.replace(/→/g, '\t')).join('\n\n')
  const copies = [block]
  while (Buffer.byteLength(copies.join('\n\n')) < bytes) copies.push(block)
  return copies.join('\n\n')
}

/**
 * The bare server: Fastify 5 and its defaults, a route per scenario, plain `node` (no
 * flags, glibc's allocator, libuv's default pool): nothing of ours.
 */
const BARE_SERVER = `
  import { createRequire } from 'node:module'
  const [root, port] = process.argv.slice(1)
  const require = createRequire(root + '/package.json')
  const Fastify = require('fastify')
  const MarkdownIt = require('markdown-it')
  const sharp = require('sharp')
  const md = new MarkdownIt()
  const app = Fastify()
  app.addContentTypeParser('image/jpeg', { parseAs: 'buffer', bodyLimit: 16 * 1024 * 1024 }, (_request, body, done) => done(null, body))
  app.get('/healthz', async () => 'ok')
  app.post('/md', async (request) => ({ html: md.render(request.body.markdown) }))
  app.post('/jpg', async (request, reply) => reply.type('image/jpeg').send(await sharp(request.body).jpeg({ quality: 80 }).toBuffer()))
  await app.listen({ port: Number(port), host: '127.0.0.1' })
`

/** CPU time (user + system, every thread) a process has used, in ms, from /proc/<pid>/stat. */
function processCpuMs (pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 1000 / 100
}

async function waitUp (url: string, child: ChildProcess, what: string): Promise<void> {
  for (const end = Date.now() + 60_000; ;) {
    if (child.exitCode !== null || Date.now() > end) throw new Error(`${what} did not start`)
    const up = await new Promise<boolean>((resolve) => { http.get(`${url}/healthz`, (res) => { res.resume(); resolve(res.statusCode === 200) }).on('error', () => resolve(false)) })
    if (up) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

interface Server { name: string, child: ChildProcess, url: string, md: string, jpg: string, key?: string }

/** A checkout's built server as `npm start` starts it, with a key and the rate limit out of the way (it is not what is measured). */
async function startBuilt (name: string, checkout: string, dataDir: string): Promise<Server> {
  const port = await freePort()
  const { env } = allocatorEnv({ ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), API_KEYS: KEY, RATE_LIMIT_MAX: '1000000000' })
  const pooled = threadPoolEnv(env, checkout).env
  const child = spawn(process.execPath, [...serverNodeFlags(pooled), path.join(checkout, 'dist', 'server.js')], { cwd: checkout, env: pooled, stdio: ['ignore', 'ignore', 'inherit'] })
  const url = `http://127.0.0.1:${port}`
  await waitUp(url, child, name)
  return { name, child, url, md: `${url}/convert/markdown-html`, jpg: `${url}/convert/image-jpg`, key: KEY }
}

async function startBare (): Promise<Server> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--input-type=module', '-e', BARE_SERVER, root, String(port)], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  const url = `http://127.0.0.1:${port}`
  await waitUp(url, child, 'the bare Fastify route')
  return { name: 'bare', child, url, md: `${url}/md`, jpg: `${url}/jpg` }
}

const bench: Benchmark = {
  name: 'Against a bare Fastify route, each server in its own process (issue 37)',
  async run ({ duration, quick }) {
    const built = spawnSync(process.execPath, [path.join(root, 'scripts', 'prepare.mjs')], { cwd: root, stdio: 'inherit' })
    if (built.status !== 0) throw new Error('could not build dist/')
    const others = (process.env.BENCH_OTHER_CHECKOUTS ?? '').split(',').filter((x) => x !== '').map((x) => path.resolve(x))
    const dataDirs: string[] = []
    const dataDir = (): string => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bench-bare-')); dataDirs.push(d); return d }
    const servers: Server[] = []
    try {
      servers.push(await startBuilt('ours', root, dataDir()), await startBare())
      for (const checkout of others) servers.push(await startBuilt(checkout, checkout, dataDir()))
      const markdown = specDocument()
      const markdownBody = JSON.stringify({ markdown })
      const jpeg = await photo(1200, 800)
      const rounds = quick ? 4 : 6
      const seconds = Math.max(quick ? 2 : 3, duration / rounds)
      const rows: BenchRow[] = []
      const scenarios = [
        { name: `Markdown → HTML, ${(Buffer.byteLength(markdown) / 1024).toFixed(1)} KB (the first 120 CommonMark examples, repeated), JSON body, 8 connections`, url: (s: Server) => s.md, type: 'application/json', body: markdownBody, connections: 8, target: 0.8 },
        { name: `JPEG → JPEG, 1200×800 quality 90 (${(jpeg.length / 1000).toFixed(0)} KB) to quality 80, raw body, 2 connections`, url: (s: Server) => s.jpg, type: 'image/jpeg', body: jpeg, connections: 2, target: 0.9 }
      ]
      for (const scenario of scenarios) {
        const cpu: Record<string, number[]> = {}
        const run = (server: Server, secs: number) => async (): Promise<number> => {
          const cpu0 = processCpuMs(server.child.pid!)
          const r = await load({ url: scenario.url(server), method: 'POST', headers: { 'content-type': scenario.type, ...(server.key === undefined ? {} : { authorization: server.key }) }, body: scenario.body, connections: scenario.connections, duration: secs })
          if (r.non2xx > 0 || r.errors > 0) throw new Error(`${server.name} answered ${r.non2xx} non-2xx, ${r.errors} errors`)
          // Answers over the round's length: autocannon's per-second mean drops a second
          // whose answers came late, a large share of a short round on a loaded host.
          const rate = r.statusCounts['2xx']! / secs
          ;(cpu[server.name] ??= []).push((processCpuMs(server.child.pid!) - cpu0) / (rate * secs))
          return rate
        }
        // Warm-up: each server's code compiled and its pools started before any round.
        for (const server of servers) await run(server, 1)()
        for (const name of Object.keys(cpu)) cpu[name] = []
        const results = await roundsOf(Object.fromEntries(servers.map((s) => [s.name, run(s, seconds)])), rounds)
        const cpuNote = servers.map((s) => `${s.name} ${cpu[s.name]!.map((x) => x.toFixed(2)).join(', ')}`).join('; ')
        for (const ours of servers.filter((s) => s.name !== 'bare')) {
          rows.push({
            name: `${scenario.name}: ${ours.name === 'ours' ? 'the built server (npm start\'s allocator, flags and pool)' : `the built server of ${ours.name}`}`,
            ours: median(results[ours.name]!),
            reference: median(results.bare!),
            referenceName: 'bare Fastify 5 route',
            unit: 'req/s',
            better: 'higher',
            target: scenario.target,
            note: `per round ${perRoundRatios(results[ours.name]!, results.bare!)}; CPU a request (ms, the process's every thread): ${cpuNote}`
          })
        }
      }
      return rows
    } finally {
      for (const { child } of servers) {
        if (child.exitCode === null) {
          child.kill('SIGTERM')
          await new Promise((resolve) => child.once('exit', resolve))
        }
      }
      for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true })
    }
  }
}
export default bench
