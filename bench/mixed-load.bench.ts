// A mixed load (gifs, colours, text conversion, small image conversions, welcome
// banners) for a fixed time against real server processes: one instance on SQLite, and
// two instances on PostgreSQL + Redis. Reports throughput, p50/p99 latency, errors
// (anything but 2xx and the designed 429/503) and peak RSS of the servers.
import fs from 'node:fs'
import pg from 'pg'
import { runCli } from '../src/cli/main.js'
import { renderStarterGif } from '../src/gifs/starter-art.js'
import { dropSchema, postgresMissing, redisMissing, TEST_DATABASE_URL, TEST_REDIS_URL, uniqueName, urlWithSchema } from '../test/support/backends.js'
import { tempDir } from '../test/support/helpers.js'
import { request, type ServerProcess, startServerProcess } from '../test/support/processes.js'
import { type Benchmark, type BenchRow, load, type LoadResult } from './harness.js'

type Req = { method?: 'GET' | 'POST', path: string, headers?: Record<string, string>, body?: string | Buffer }

/** Peak resident set size of a process (VmHWM), in MiB. */
function peakRssMiB (pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0)
  return kb / 1024
}

async function mix (server: ServerProcess, key: string): Promise<Req[]> {
  const paths = Object.keys(JSON.parse((await request(`${server.url}/openapi.json`)).body.toString()).paths)
  const auth = { authorization: key }
  const json = { ...auth, 'content-type': 'application/json' }
  const requests: Req[] = [
    { path: '/sfw/gif/hug', headers: auth },
    { path: '/color/info?hex=3fa2c4', headers: auth },
    { path: '/color/random', headers: auth },
    { method: 'POST', path: '/convert/markdown-html', headers: json, body: JSON.stringify({ markdown: '# Welcome\n\nSome *text* with a [link](https://example.com) and `code`.\n\n- one\n- two\n' }) },
    { method: 'POST', path: '/convert/html-markdown', headers: json, body: JSON.stringify({ html: '<h1>Hi</h1><p>Some <b>bold</b> and <a href="https://example.com">a link</a>.</p><ul><li>a</li><li>b</li></ul>' }) },
    { path: '/sfw/gif/wave', headers: auth }
  ]
  if (paths.includes('/convert/image-webp')) {
    requests.push({ method: 'POST', path: '/convert/image-webp?quality=80', headers: { ...auth, 'content-type': 'image/gif' }, body: renderStarterGif('wave', 0) })
  }
  if (paths.includes('/gen/welcome') || paths.includes('/gen/{template}')) {
    requests.push({ method: 'POST', path: '/gen/welcome', headers: json, body: JSON.stringify({ username: 'Newcomer', members: 'Member #42' }) })
  }
  return requests
}

async function createKey (env: Record<string, string>): Promise<string> {
  const out: string[] = []
  const code = await runCli(['keys', 'create', '--name', uniqueName('load'), '--rate', '100000000/1m'], env, { out: (s) => out.push(...s.split('\n')), err: () => {}, interactive: false })
  if (code !== 0) throw new Error('could not create a key')
  return out.filter((l) => l).at(-1)!
}

function rows (label: string, results: LoadResult[], servers: ServerProcess[], kinds: string): BenchRow[] {
  const total = results.reduce((s, r) => s + r.requestsPerSec, 0)
  const p50 = Math.max(...results.map((r) => r.latencyP50))
  const p99 = Math.max(...results.map((r) => r.latencyP99))
  const errors = results.reduce((s, r) => s + r.errors, 0)
  const codes: Record<string, number> = {}
  for (const r of results) for (const [code, n] of Object.entries(r.statusCodes)) codes[code] = (codes[code] ?? 0) + n
  // Designed refusals: 429 (limits) and 503 (CPU work queue full, with Retry-After).
  const undesigned = Object.entries(codes).filter(([code]) => !code.startsWith('2') && code !== '429' && code !== '503').reduce((s, [, n]) => s + n, 0)
  const rss = servers.map((s) => peakRssMiB(s.child.pid!))
  return [
    { name: `${label}: throughput (${kinds})`, ours: total, unit: 'req/s', better: 'higher' },
    { name: `${label}: latency p50 / p99`, ours: p50, unit: `ms p50, ${p99} ms p99`, better: 'lower' },
    { name: `${label}: errors (socket errors, timeouts, answers other than 2xx/429/503)`, ours: errors + undesigned, unit: `errors; answers by status ${JSON.stringify(codes)}`, better: 'lower' },
    { name: `${label}: peak RSS per instance`, ours: Math.max(...rss), unit: `MiB (${rss.map((r) => r.toFixed(0)).join(' + ')})`, better: 'lower' }
  ]
}

const bench: Benchmark = {
  name: 'Mixed load (issue 8): one instance on SQLite, two on PostgreSQL + Redis',
  async run ({ duration }) {
    const out: BenchRow[] = []
    // One instance on SQLite.
    const dir = tempDir('uma-mixed-')
    const env = { DATA_DIR: dir, LOG_LEVEL: 'warn' }
    const server = await startServerProcess(env)
    try {
      const key = await createKey(env)
      const requests = await mix(server, key)
      const result = await load({ url: server.url, requests, connections: 32, duration })
      out.push(...rows('1 instance, SQLite', [result], [server], `${requests.length} kinds of request, 32 connections`))
    } finally {
      await server.stop()
      fs.rmSync(dir, { recursive: true, force: true })
    }

    // Two instances on PostgreSQL + Redis.
    const missing = (await postgresMissing()) ?? (await redisMissing())
    if (missing) {
      out.push({ name: `2 instances: skipped (${missing})`, ours: 0, unit: '', better: 'higher' })
      return out
    }
    const schema = uniqueName('mixed')
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await client.connect()
    await client.query(`CREATE SCHEMA ${schema}`)
    await client.end()
    const dirs = [tempDir('uma-mixed-a-'), tempDir('uma-mixed-b-')]
    const envOf = (d: string) => ({ DATA_DIR: d, LOG_LEVEL: 'warn', DATABASE_URL: urlWithSchema(schema), REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `${schema}:` })
    // The first starts alone: it applies the migrations and generates the starter gifs.
    const first = await startServerProcess(envOf(dirs[0]!))
    const second = await startServerProcess(envOf(dirs[1]!))
    try {
      const key = await createKey(envOf(dirs[0]!))
      const requests = await mix(first, key)
      const results = await Promise.all([first, second].map((s) => load({ url: s.url, requests, connections: 16, duration })))
      out.push(...rows('2 instances, PostgreSQL + Redis', results, [first, second], `${requests.length} kinds, 16 connections each`))
    } finally {
      await Promise.all([first.stop(), second.stop()])
      await dropSchema(schema)
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
    }
    return out
  }
}
export default bench
