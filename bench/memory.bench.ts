// Memory of the built server process, sampled from outside (/proc/<pid>/status), as an
// operator's container sees it. Started as `npm start` starts it (jemalloc preloaded
// when Debian's libjemalloc2 is installed; BENCH_MALLOC=system to compare without).
// Same V8 flags as npm start too.
// Three figures against the targets of issue 16 (containers of 512 MB to 1 GB):
// - at rest, after one request of each kind: ≤ 150 MB (VmRSS);
// - peak while 16 clients upload a 14.5 MB PNG to /convert/image-webp at once: ≤ 400 MB (VmHWM);
// - 20 s after that load: ≤ rest + 100 MB (VmRSS).
// And, for operators of small containers, at rest once the worker thread that drew and
// converted text has exited (idle for DEFAULT_IDLE_TIMEOUT_MS, src/work/pool.ts).
// Prints, never asserts. Run: npm run bench -- memory (--quick leaves out the idle
// figure, which waits a minute).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp, { type Create } from 'sharp'
import { allocatorEnv, serverNodeFlags } from '../scripts/allocator.mjs'
import { threadPoolEnv } from '../scripts/thread-pool.mjs'
import { DEFAULT_IDLE_TIMEOUT_MS } from '../src/work/pool.js'
import type { Benchmark, BenchRow } from './harness.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const KEY = 'memory-bench-key-0123456789'
const UPLOADS = 16
/**
 * One key per uploading client: 16 clients, as the target describes, sharing the upload
 * memory (IMAGE_UPLOAD_MEMORY) fairly, so that the peak is the admitted load's.
 */
const CLIENT_KEYS = Array.from({ length: UPLOADS }, (_, i) => `memory-bench-client-${String(i).padStart(2, '0')}-0123456789`)
const AFTER_MS = 20_000
const TARGET_REST_MB = 150
const TARGET_PEAK_MB = 400
const TARGET_AFTER_ABOVE_REST_MB = 100

function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })
}

function statusMb (pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(field + ':'))!
  return Number(/(\d+) kB/.exec(line)![1]) / 1024
}

function send (url: string, options: { method?: string, headers?: Record<string, string | number>, body?: string | Buffer } = {}): Promise<{ status: number, body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: { authorization: KEY, ...options.headers } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (d: Buffer) => chunks.push(d))
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

async function startServer (dataDir: string, extraEnv: Record<string, string>): Promise<{ child: ChildProcess, url: string, allocator: string }> {
  const port = await freePort()
  const base = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', API_KEYS: [KEY, ...CLIENT_KEYS].join(','), RATE_LIMIT_MAX: '1000000000', ...extraEnv }
  const { env, line } = process.env.BENCH_MALLOC === 'system' ? { env: base, line: 'allocator: glibc malloc (BENCH_MALLOC=system)' } : allocatorEnv(base)
  const child = spawn(process.execPath, [...serverNodeFlags(env), path.join(root, 'dist', 'server.js')], { cwd: root, env: threadPoolEnv(env, root).env, stdio: ['ignore', 'ignore', 'inherit'] })
  const url = `http://127.0.0.1:${port}`
  for (const end = Date.now() + 60_000; ;) {
    if (child.exitCode !== null) throw new Error('the server exited')
    if (Date.now() > end) throw new Error('the server did not start')
    if (await send(`${url}/healthz`).then((r) => r.status === 200, () => false)) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { child, url, allocator: line }
}

/** One request of each kind the API serves, so that what each loads is loaded. */
async function oneOfEach (url: string): Promise<void> {
  const small = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 80, b: 40 } } }).jpeg().toBuffer()
  const json = { 'content-type': 'application/json' }
  const gif = JSON.parse((await send(`${url}/sfw/gif/hug`)).body.toString())
  const icon = JSON.parse((await send(`${url}/list/icons`)).body.toString()).list[0] as string
  const banner = JSON.parse((await send(`${url}/list/banners`)).body.toString()).list[0] as string
  const requests: Array<[string, Parameters<typeof send>[1]]> = [
    ['/color/random', {}],
    ['/color/info?name=teal', {}],
    ['/color/info?hex=1e90ff', {}],
    [new URL(gif.file).pathname, {}],
    ['/list/icons', {}],
    [`/assets/icons/${icon}`, {}],
    ['/me', {}],
    ['/convert/html-markdown', { method: 'POST', headers: json, body: JSON.stringify({ html: '<h1>Hi</h1><p>A <b>b</b> <a href="https://e.example">link</a></p><ul><li>x</li></ul>' }) }],
    ['/convert/markdown-html', { method: 'POST', headers: json, body: JSON.stringify({ markdown: '# Hi\n\n- [x] done\n\n| a | b |\n|---|---|\n| 1 | 2 |' }) }],
    ['/convert/image-png', { method: 'POST', headers: { 'content-type': 'image/jpeg' }, body: small }],
    ['/convert/image-jpg', { method: 'POST', headers: { 'content-type': 'image/jpeg' }, body: small }],
    ['/convert/image-webp', { method: 'POST', headers: { 'content-type': 'image/jpeg' }, body: small }],
    ['/gen/welcome', { method: 'POST', headers: json, body: JSON.stringify({ username: 'Bench', members: 'Member #1', banner, icon }) }],
    ['/gen/custom', { method: 'POST', headers: json, body: JSON.stringify({ output: 'png', base: { type: 'bitmap', width: 600, height: 300, color: '20,20,40' }, texts: [{ text: 'Hello 世界 🎉', size: 40, x: 20, y: 40, font: 'Lobster' }], images: [{ type: 'circle', radius: 60, x: 400, y: 100, color: 'tomato' }] }) }]
  ]
  for (const [p, o] of requests) {
    const res = await send(`${url}${p}`, o)
    if (res.status !== 200) throw new Error(`${p} answered ${res.status}: ${res.body.toString().slice(0, 200)}`)
  }
}

export interface MemoryFigures { allocator: string, restMb: number, peakMb: number, afterMb: number, idleMb: number, statuses: Record<string, number> }

export async function measureMemory (extraEnv: Record<string, string> = {}, options: { idle?: boolean } = {}): Promise<MemoryFigures> {
  const built = spawnSync(process.execPath, [path.join(root, 'scripts', 'prepare.mjs')], { cwd: root, stdio: 'inherit' })
  if (built.status !== 0) throw new Error('could not build dist/')
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bench-mem-'))
  const server = await startServer(dataDir, extraEnv)
  const pid = server.child.pid!
  try {
    await oneOfEach(server.url)
    const lastWorkerJobAt = Date.now()
    await new Promise((resolve) => setTimeout(resolve, 2000))
    const restMb = statusMb(pid, 'VmRSS')
    // ~14.5 MB of grain as PNG (4.8 megapixels): what a phone screenshot upload weighs at worst.
    const big = await sharp({ create: { width: 2400, height: 2000, channels: 3, background: 'black', noise: { type: 'gaussian', mean: 128, sigma: 60 } } as Create }).png({ compressionLevel: 0 }).toBuffer()
    const statuses: Record<string, number> = {}
    await Promise.all(CLIENT_KEYS.map((key) => send(`${server.url}/convert/image-webp`, { method: 'POST', headers: { authorization: key, 'content-type': 'image/png', 'content-length': big.length }, body: big })
      .then((r) => {
        const what = r.status === 200 ? '200' : `${r.status} ${(/"error":"(\w+)"/.exec(r.body.toString()) ?? [])[1] ?? ''}`.trim()
        statuses[what] = (statuses[what] ?? 0) + 1
      }, () => { statuses.error = (statuses.error ?? 0) + 1 })))
    const peakMb = statusMb(pid, 'VmHWM')
    await new Promise((resolve) => setTimeout(resolve, AFTER_MS))
    const afterMb = statusMb(pid, 'VmRSS')
    // The uploads ran in libvips, not in the worker thread: its idle time counts from the last drawing.
    if (options.idle === false) return { allocator: server.allocator, restMb, peakMb, afterMb, idleMb: NaN, statuses }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastWorkerJobAt + DEFAULT_IDLE_TIMEOUT_MS + 5000 - Date.now())))
    const idleMb = statusMb(pid, 'VmRSS')
    return { allocator: server.allocator, restMb, peakMb, afterMb, idleMb, statuses }
  } finally {
    server.child.kill('SIGTERM')
    await new Promise((resolve) => server.child.once('exit', resolve))
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

const round = (n: number): number => Math.round(n)

const bench: Benchmark = {
  name: 'Server memory (built server, RSS from /proc/<pid>/status)',
  async run ({ quick }) {
    // --quick leaves out the idle figure (a minute's wait).
    const m = await measureMemory({}, { idle: !quick })
    const answered = Object.entries(m.statuses).map(([s, n]) => `${n}× ${s}`).join(', ')
    const verdict = (ok: boolean): string => ok ? 'met' : 'NOT met'
    const rows: BenchRow[] = [
      { name: `at rest after one request of each kind (${m.allocator})`, ours: round(m.restMb), unit: 'MB', better: 'lower', note: `target ≤ ${TARGET_REST_MB} MB: ${verdict(m.restMb <= TARGET_REST_MB)}` },
      { name: `peak while ${UPLOADS} clients upload a 14.5 MB PNG to /convert/image-webp at once`, ours: round(m.peakMb), unit: 'MB', better: 'lower', note: `target ≤ ${TARGET_PEAK_MB} MB: ${verdict(m.peakMb <= TARGET_PEAK_MB)}; answers: ${answered}` },
      { name: `${AFTER_MS / 1000} s after that load`, ours: round(m.afterMb), unit: 'MB', better: 'lower', note: `target ≤ rest + ${TARGET_AFTER_ABOVE_REST_MB} = ${round(m.restMb + TARGET_AFTER_ABOVE_REST_MB)} MB: ${verdict(m.afterMb <= m.restMb + TARGET_AFTER_ABOVE_REST_MB)}` },
      ...(Number.isNaN(m.idleMb)
        ? []
        : [{ name: `idle: once the worker thread has exited (${DEFAULT_IDLE_TIMEOUT_MS / 1000} s after its last job)`, ours: round(m.idleMb), unit: 'MB', better: 'lower' as const, note: `against the at-rest target of ${TARGET_REST_MB} MB: ${verdict(m.idleMb <= TARGET_REST_MB)}` }])
    ]
    return rows
  }
}
export default bench
