// Image conversion: HTTP endpoint throughput against sharp converting the same photos
// in-process with the same settings; JPEG → JPEG also three ways in processes of their
// own (the built server, the same sharp call behind a bare node:http route, sharp alone),
// where the 0.9 target is checked against the bare route (docs/performance.md says why);
// against jimp (pure JavaScript; expect > 10×); output sizes beside reference encoder
// settings; and the server's peak memory while 16 clients upload 15 MB images at once.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { Jimp } from 'jimp'
import sharp, { type Create, type Sharp } from 'sharp'
import { allocatorEnv, serverNodeFlags } from '../scripts/allocator.mjs'
import { threadPoolEnv } from '../scripts/thread-pool.mjs'
import { losslessPngOptions } from '../src/conversion/image/formats.js'
import { type Benchmark, type BenchRow, median, opsPerSec, perRoundRatios, requestLoop } from './harness.js'
import { startOurServer } from './shared-path.bench.js'
import { freePort } from '../test/support/processes.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** A photo-like JPEG: smooth gradients plus grain (pure noise or flat colour would flatter one encoder). */
export async function photo (width: number, height: number): Promise<Buffer> {
  const grain = await sharp({ create: { width, height, channels: 3, background: 'black', noise: { type: 'gaussian', mean: 128, sigma: 40 } } as Create }).blur(1.2).raw().toBuffer()
  const px = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3
      px[i] = Math.min(255, Math.max(0, (x * 255) / width * 0.7 + (grain[i]! - 128) * 0.6 + 30))
      px[i + 1] = Math.min(255, Math.max(0, (y * 255) / height * 0.7 + (grain[i + 1]! - 128) * 0.6 + 30))
      px[i + 2] = Math.min(255, Math.max(0, 128 + Math.sin(x / 40) * 60 + (grain[i + 2]! - 128) * 0.6))
    }
  }
  return sharp(px, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer()
}

/** Operations per second of `fn` run by `parallel` loops at once for `seconds`. */
async function parallelOps (fn: () => Promise<unknown>, parallel: number, seconds: number): Promise<number> {
  await fn()
  let n = 0
  const end = performance.now() + seconds * 1000
  const start = performance.now()
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (performance.now() < end) { await fn(); n++ }
  }))
  return n / ((performance.now() - start) / 1000)
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const agent = new http.Agent({ keepAlive: true })

/** POSTs the image and reads the whole answer; fails on anything but 200. */
function post (url: string, key: string, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { authorization: key, 'content-type': 'image/jpeg', 'content-length': body.length } })
    req.on('response', (res) => {
      let size = 0
      res.on('data', (d: Buffer) => { size += d.length })
      res.on('end', () => res.statusCode === 200 ? resolve(size) : reject(new Error(`${url} answered ${res.statusCode}`)))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const OUTPUTS = [
  { url: '/convert/image-jpg', name: 'JPEG', encode: (s: Sharp) => s.jpeg({ quality: 80 }) },
  // The inputs are JPEG photos: the server's lossless PNG settings for a JPEG.
  { url: '/convert/image-png', name: 'PNG', encode: (s: Sharp) => s.png(losslessPngOptions('JPEG')) },
  { url: '/convert/image-webp', name: 'WebP', encode: (s: Sharp) => s.webp({ quality: 80 }) }
] as const

/** Peak RSS of a server process while 16 clients upload ~15 MB images at once. */
async function peakRssUnderUploads (clients: number): Promise<{ peakMb: number, baselineMb: number, statuses: Record<string, number> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bench-rss-'))
  const code = `
    import { createApp } from ${JSON.stringify(path.join(root, 'src/app.ts'))}
    import { testConfig } from ${JSON.stringify(path.join(root, 'test/support/config.ts'))}
    import { createKeyService } from ${JSON.stringify(path.join(root, 'src/access/keys.ts'))}
    import { openSqliteStore } from ${JSON.stringify(path.join(root, 'src/store/sqlite/index.ts'))}
    import { createMemoryCounterStore } from ${JSON.stringify(path.join(root, 'src/store/counters/memory.ts'))}
    const store = openSqliteStore(${JSON.stringify(dataDir)})
    const { key } = await createKeyService(store.keys).create('bench')
    const app = await createApp({ config: testConfig(${JSON.stringify(dataDir)}), store, counters: createMemoryCounterStore(), logger: false })
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    process.stdout.write(JSON.stringify({ url, key }) + '\\n')
  `
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    const { url, key } = await new Promise<{ url: string, key: string }>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(JSON.parse(d.toString())))
      child.once('exit', (c) => reject(new Error(`server exited ${c}`)))
    })
    const vm = (field: string) => Number(/(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(field))!)![1]) / 1024
    const baselineMb = vm('VmRSS:')
    // ~14.4 MB of grain as PNG: under the 15 MB limit, 4.8 megapixels.
    const big = await sharp({ create: { width: 2400, height: 2000, channels: 3, background: 'black', noise: { type: 'gaussian', mean: 128, sigma: 60 } } as Create }).png({ compressionLevel: 0 }).toBuffer()
    if (big.length > 15 * 1024 * 1024) throw new Error(`fixture too big: ${big.length}`)
    const statuses: Record<string, number> = {}
    await Promise.all(Array.from({ length: clients }, () => new Promise<void>((resolve) => {
      const req = http.request(`${url}/convert/image-webp`, { method: 'POST', headers: { authorization: key, 'content-type': 'image/png', 'content-length': big.length } })
      req.on('response', (res) => { res.resume(); res.on('end', () => { statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1; resolve() }) })
      req.on('error', () => { statuses.error = (statuses.error ?? 0) + 1; resolve() })
      req.end(big)
    })))
    return { peakMb: vm('VmHWM:'), baselineMb, statuses }
  } finally {
    child.kill('SIGTERM')
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

/** CPU time (user + system, every thread) a process has used, in ms, from /proc/<pid>/stat. */
function processCpuMs (pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 1000 / 100
}

/** sharp alone, `parallel` conversions at a time for `seconds`, in a process of its own: prints its rate and its CPU a conversion. */
const SHARP_ALONE = `
  import fs from 'node:fs'
  import { performance } from 'node:perf_hooks'
  const [sharpPath, file, parallel, seconds] = process.argv.slice(1)
  const sharp = (await import(sharpPath)).default
  sharp.cache(false)
  const bytes = fs.readFileSync(file)
  const once = () => sharp(bytes, { failOn: 'error' }).rotate().jpeg({ quality: 80 }).toBuffer()
  await once()
  const cpu0 = process.cpuUsage()
  let n = 0
  const start = performance.now()
  const end = start + Number(seconds) * 1000
  await Promise.all(Array.from({ length: Number(parallel) }, async () => { while (performance.now() < end) { await once(); n++ } }))
  const cpu = process.cpuUsage(cpu0)
  process.stdout.write(JSON.stringify({ rate: n / ((performance.now() - start) / 1000), cpuMs: (cpu.user + cpu.system) / 1000 / n }))
`

/**
 * The same conversion behind a bare node:http route, in a process of its own: the body
 * read whole, sharp called as SHARP_ALONE calls it, the bytes answered. What any Node
 * server pays to take a conversion over HTTP, with nothing of ours in it.
 */
const BARE_ROUTE = `
  import http from 'node:http'
  const [sharpPath, port] = process.argv.slice(1)
  const sharp = (await import(sharpPath)).default
  sharp.cache(false)
  http.createServer((req, res) => {
    if (req.url === '/healthz') { res.end('ok'); return }
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      sharp(Buffer.concat(chunks), { failOn: 'error' }).rotate().jpeg({ quality: 80 }).toBuffer().then((out) => {
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': out.length })
        res.end(out)
      }, (err) => { res.writeHead(500); res.end(String(err)) })
    })
  }).listen(Number(port), '127.0.0.1')
`

interface Measured { rate: number, cpuMs: number }

/** Waits for `url`/healthz to answer 200 from `child`. */
async function waitUp (url: string, child: { exitCode: number | null }, what: string): Promise<void> {
  for (const end = Date.now() + 60_000; ;) {
    if (child.exitCode !== null || Date.now() > end) throw new Error(`${what} did not start`)
    const up = await new Promise<boolean>((resolve) => { http.get(`${url}/healthz`, (res) => { res.resume(); resolve(res.statusCode === 200) }).on('error', () => resolve(false)) })
    if (up) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * JPEG → JPEG as users run it, three ways in processes of their own, in rotating rounds
 * on the same cores: the built server started as `npm start` starts it (jemalloc, its V8
 * flags, its libuv pool, its log line per request); the same sharp call behind a bare
 * node:http route, with the same allocator, flags and pool; and sharp alone, converting
 * in a loop with no HTTP at all. The client is a worker thread of this process. The rows
 * above host the server in this process, under tsx and this process's heap, where V8 ran
 * a full collection about every 250 ms that the built server does not run
 * (docs/performance.md, "JPEG → JPEG").
 *
 * Two rows: the server against the bare route (what our request path costs: the 0.9
 * target), and the server against sharp alone, with the bare route's own ratio beside it
 * (what HTTP on the same two cores costs any server; docs/performance.md says why the
 * target moved from it).
 */
async function jpegOverHttp (bytes: Buffer, parallel: number, seconds: number, rounds: number): Promise<BenchRow[]> {
  const built = spawnSync(process.execPath, [path.join(root, 'scripts', 'prepare.mjs')], { cwd: root, stdio: 'inherit' })
  if (built.status !== 0) throw new Error('could not build dist/')
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bench-jpeg-'))
  const file = path.join(dataDir, 'photo.jpg')
  fs.writeFileSync(file, bytes)
  const key = 'image-bench-key-0123456789abcdef'
  const sharpPath = path.join(root, 'node_modules', 'sharp', 'lib', 'index.js')
  const { env } = allocatorEnv({ ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', API_KEYS: key, RATE_LIMIT_MAX: '1000000000' })
  const flags = serverNodeFlags(env)
  // The pool npm start gives the server, given to the bare route and sharp alone too.
  const pooled = threadPoolEnv(env, root).env
  const serverPort = await freePort()
  const barePort = await freePort()
  const server = spawn(process.execPath, [...flags, path.join(root, 'dist', 'server.js')], { cwd: root, env: { ...pooled, PORT: String(serverPort) }, stdio: 'ignore' })
  const bare = spawn(process.execPath, [...flags, '--input-type=module', '-e', BARE_ROUTE, sharpPath, String(barePort)], { cwd: root, env: pooled, stdio: ['ignore', 'ignore', 'inherit'] })
  const serverUrl = `http://127.0.0.1:${serverPort}`
  const bareUrl = `http://127.0.0.1:${barePort}`
  try {
    await waitUp(serverUrl, server, 'the built server')
    await waitUp(bareUrl, bare, 'the bare route')
    const sharpAlone = (): Promise<Measured> => new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [...flags, '--input-type=module', '-e', SHARP_ALONE, sharpPath, file, String(parallel), String(seconds)], { env: pooled, stdio: ['ignore', 'pipe', 'inherit'] })
      let out = ''
      child.stdout.on('data', (d: Buffer) => { out += d.toString() })
      child.once('exit', (code) => code === 0 ? resolve(JSON.parse(out) as Measured) : reject(new Error(`sharp alone exited ${code}`)))
    })
    const overHttp = (pid: number, url: string) => async (): Promise<Measured> => {
      const cpu0 = processCpuMs(pid)
      const rate = await requestLoop({ url, headers: { authorization: key, 'content-type': 'image/jpeg' }, body: bytes, parallel, seconds })
      return { rate, cpuMs: (processCpuMs(pid) - cpu0) / (rate * seconds) }
    }
    const ways = {
      ours: overHttp(server.pid!, `${serverUrl}/convert/image-jpg`),
      bare: overHttp(bare.pid!, `${bareUrl}/convert`),
      alone: sharpAlone
    }
    await ways.ours()
    await ways.bare()
    const got: Record<keyof typeof ways, Measured[]> = { ours: [], bare: [], alone: [] }
    const names = Object.keys(ways) as Array<keyof typeof ways>
    for (let round = 0; round < rounds; round++) {
      // Each way goes first, second and third in turn, so drift in the host's load hits all alike.
      for (let i = 0; i < names.length; i++) {
        const name = names[(round + i) % names.length]!
        got[name].push(await ways[name]())
      }
    }
    const rate = (name: keyof typeof ways) => median(got[name].map((x) => x.rate))
    const cpu = (name: keyof typeof ways) => got[name].map((x) => x.cpuMs.toFixed(1)).join(', ')
    const what = `${(bytes.length / 1000).toFixed(0)} KB photo → JPEG, ${parallel} at once, each in its own process`
    return [
      {
        name: `${what}: the built server (npm start's allocator, flags and pool)`,
        ours: rate('ours'),
        reference: rate('bare'),
        referenceName: 'the same sharp call behind a bare node:http route',
        unit: 'conv/s',
        better: 'higher',
        target: 0.9,
        note: `per round ${perRoundRatios(got.ours.map((x) => x.rate), got.bare.map((x) => x.rate))}; CPU a conversion (ms, every thread): server ${cpu('ours')}, bare route ${cpu('bare')}`
      },
      {
        name: `${what}: the built server against no HTTP at all`,
        ours: rate('ours'),
        reference: rate('alone'),
        referenceName: 'sharp alone, converting in a loop',
        unit: 'conv/s',
        better: 'higher',
        note: `the bare route: ${(rate('bare') / rate('alone')).toFixed(3)} of sharp alone (per round ${perRoundRatios(got.bare.map((x) => x.rate), got.alone.map((x) => x.rate))}); CPU a conversion, sharp alone ${cpu('alone')}`
      }
    ]
  } finally {
    for (const child of [server, bare]) {
      child.kill('SIGTERM')
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve))
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

const bench: Benchmark = {
  name: 'Image conversion (sharp behind HTTP)',
  async run ({ duration, quick }) {
    const rows: BenchRow[] = []
    const photos = quick ? [{ name: '2 MP', bytes: await photo(1600, 1200) }] : [{ name: '2 MP', bytes: await photo(1600, 1200) }, { name: '6 MP', bytes: await photo(3000, 2000) }]
    const parallel = Math.max(1, os.availableParallelism())
    const server = await startOurServer()
    try {
      for (const p of photos) {
        for (const out of OUTPUTS) {
          const inProcess = () => out.encode(sharp(p.bytes, { failOn: 'error' }).rotate()).toBuffer()
          const seconds = Math.max(1, duration / 2)
          // Alternating rounds, both timed the same way, so drift in machine load hits both alike.
          const ours: number[] = []
          const reference: number[] = []
          for (let round = 0; round < 2; round++) {
            reference.push(await parallelOps(inProcess, parallel, seconds / 2))
            ours.push(await requestLoop({ url: `${server.url}${out.url}`, headers: { authorization: server.key, 'content-type': 'image/jpeg' }, body: p.bytes, parallel, seconds: seconds / 2 }))
          }
          rows.push({
            name: `${p.name} photo (JPEG, ${p.bytes.length} bytes) → ${out.name}, ${parallel} at once (HTTP keep-alive, loopback, client on its own thread)`,
            ours: mean(ours),
            reference: mean(reference),
            referenceName: 'sharp in-process, same settings',
            unit: 'conv/s',
            better: 'higher',
            target: 0.9
          })
        }
      }
      // jimp: the same conversion in pure JavaScript, one at a time against sharp one at a time.
      const small = photos[0]!
      for (const [name, mime, sharpEncode] of [['JPEG', 'image/jpeg', (s: Sharp) => s.jpeg({ quality: 80 })], ['PNG', 'image/png', (s: Sharp) => s.png(losslessPngOptions('JPEG'))]] as const) {
        const jimpOps = await opsPerSec(async () => {
          const img = await Jimp.read(small.bytes)
          return mime === 'image/jpeg' ? img.getBuffer('image/jpeg', { quality: 80 }) : img.getBuffer('image/png')
        }, quick ? 2 : 4)
        const sharpOps = await opsPerSec(() => sharpEncode(sharp(small.bytes).rotate()).toBuffer(), quick ? 1 : 2)
        rows.push({ name: `${small.name} photo → ${name}, one at a time`, ours: sharpOps, reference: jimpOps, referenceName: 'jimp 1.x', unit: 'conv/s', better: 'higher', note: 'expect > 10×' })
      }
      // Output sizes beside reference settings (same quality).
      const answer = (url: string) => post(`${server.url}${url}`, server.key, small.bytes)
      const jimpImg = await Jimp.read(small.bytes)
      rows.push({ name: `${small.name} photo → JPEG q80 size`, ours: await answer('/convert/image-jpg'), reference: (await sharp(small.bytes).jpeg({ quality: 80, mozjpeg: true }).toBuffer()).length, referenceName: 'mozjpeg q80 (trellis, progressive)', unit: 'bytes', better: 'lower' })
      rows.push({ name: `${small.name} photo → JPEG q80 size`, ours: await answer('/convert/image-jpg'), reference: (await jimpImg.getBuffer('image/jpeg', { quality: 80 })).length, referenceName: 'jimp q80', unit: 'bytes', better: 'lower' })
      rows.push({ name: `${small.name} photo → WebP q80 size`, ours: await answer('/convert/image-webp'), reference: (await sharp(small.bytes).webp({ quality: 80, effort: 6 }).toBuffer()).length, referenceName: 'libwebp q80 effort 6 (slowest)', unit: 'bytes', better: 'lower' })
      rows.push({ name: `${small.name} photo → PNG size`, ours: await answer('/convert/image-png'), reference: (await jimpImg.getBuffer('image/png')).length, referenceName: 'jimp PNG', unit: 'bytes', better: 'lower' })
    } finally {
      agent.destroy()
      await server.close()
    }
    rows.push(...await jpegOverHttp(photos[0]!.bytes, parallel, Math.max(1, duration / 4), quick ? 3 : 6))
    const rss = await peakRssUnderUploads(16)
    rows.push({
      name: '16 clients upload a 14.4 MB PNG (4.8 MP) to /convert/image-webp at once: server peak RSS',
      ours: rss.peakMb,
      unit: 'MB',
      better: 'lower',
      note: `baseline RSS ${rss.baselineMb.toFixed(0)} MB; answers ${JSON.stringify(rss.statuses)} (default IMAGE_CONCURRENCY=${os.availableParallelism()}, IMAGE_UPLOAD_MEMORY 64mb: uploads past it get 503 + Retry-After)`
    })
    return rows
  }
}
export default bench
