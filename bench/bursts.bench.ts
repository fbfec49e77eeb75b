// Bursts against the built server with default admission settings (issue 24;
// docs/admission.md): what each burst is answered, how long its answers take (p50, p99)
// and the server's peak RSS meanwhile. The counts are asserted by
// test/system/process/bursts.test.ts; the times and memory are printed here, never asserted.
//
// 1. one key, 3 concurrent 800×600 JPEG → WebP;
// 2. one key, 20 concurrent of the same;
// 3. one key, 60 concurrent /gen/welcome;
// 4. one key, 60 concurrent 10 KB Markdown → HTML;
// 5. key A's 40 concurrent 1600×1200 JPEG → WebP, and key B's one sent once A's are under
//    way (after A's first answer): B's latency against B's alone on the same idle server,
//    target max(4 × alone, 1.5 s);
// 6. 16 keys each upload a 14.5 MB PNG for WebP at once: every answer 200 or 503 with
//    Retry-After, peak RSS ≤ 400 MB, RSS at rest 20 s later ≤ 150 MB (issue 16's targets;
//    --quick waits 5 s instead).
//
// The server is started as `npm start` starts it (jemalloc when installed, the same V8
// flags), with the rate limit raised: it is not what is measured. Its RSS is read from
// /proc/<pid>/status: VmHWM, reset before each scenario (clear_refs), and VmRSS sampled
// every 10 ms, whichever is higher. Run: npm run bench -- bursts
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { allocatorEnv, serverNodeFlags } from '../scripts/allocator.mjs'
import { threadPoolEnv } from '../scripts/thread-pool.mjs'
import type { Benchmark, BenchRow } from './harness.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const KEY_A = 'bursts-bench-key-a-0123456789'
const KEY_B = 'bursts-bench-key-b-0123456789'
const UPLOADERS = 16
const UPLOAD_KEYS = Array.from({ length: UPLOADERS }, (_, i) => `bursts-bench-upload-${String(i).padStart(2, '0')}-0123456789`)
/** A request unanswered after this is given up (the server's own deadline is 30 s). */
const REQUEST_TIMEOUT_MS = 60_000
/** Quiet time between scenarios, so that one's tail does not count in the next. */
const SETTLE_MS = 2000
const REST_AFTER_MS = 20_000
const REST_AFTER_QUICK_MS = 5000
/** A trickle's documents, and the wait before each: longer than the quiet spell after which the worker threads collect (QUIET_COLLECT_MS). */
const TRICKLE_DOCUMENTS = 12
const TRICKLE_GAP_MS = 700
const TARGET_PEAK_MB = 400
const TARGET_REST_MB = 150
const TARGET_B_FACTOR = 4
const TARGET_B_FLOOR_MS = 1500
/** 2400 × 2110 RGB without compression: 14.5 MB (MiB, as MAX_IMAGE_BYTES counts), under the 15 MB limit. */
const BIG_PNG = { width: 2400, height: 2110 }

/** A photo-like JPEG: gaussian grain converts like a photograph (the costly case), as test/system/process/bursts.test.ts makes it. */
async function photo (width: number, height: number): Promise<Buffer> {
  return await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg({ quality: 85 }).toBuffer()
}

function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })
}

interface Answer { status: number, error: string, retryAfter: string | undefined, ms: number }

/** One request on its own connection; `status` 0 when no answer came (error or timeout). */
function send (url: string, key: string, type: string, body: string | Buffer): Promise<Answer> {
  const target = new URL(url)
  if (target.hostname !== '127.0.0.1') throw new Error('the bench sends only to 127.0.0.1')
  const started = performance.now()
  return new Promise((resolve) => {
    let settled = false
    const done = (a: Omit<Answer, 'ms'>): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ ...a, ms: performance.now() - started })
    }
    const req = http.request(url, { method: 'POST', agent: false, headers: { authorization: key, 'content-type': type, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (d: Buffer) => chunks.push(d))
      res.on('end', () => {
        let error = ''
        if (res.statusCode !== 200) {
          try { error = String((JSON.parse(Buffer.concat(chunks).toString()) as { error?: unknown }).error ?? '') } catch {}
        }
        const retryAfter = res.headers['retry-after']
        done({ status: res.statusCode!, error, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter })
      })
      res.on('error', () => done({ status: 0, error: 'no answer', retryAfter: undefined }))
    })
    const timer = setTimeout(() => req.destroy(new Error('timeout')), REQUEST_TIMEOUT_MS)
    req.on('error', () => done({ status: 0, error: 'no answer', retryAfter: undefined }))
    req.end(body)
  })
}

interface Server { child: ChildProcess, url: string, allocator: string, output: () => string }

async function startServer (dataDir: string): Promise<Server> {
  const port = await freePort()
  const base = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn', API_KEYS: [KEY_A, KEY_B, ...UPLOAD_KEYS].join(','), RATE_LIMIT_MAX: '1000000000' }
  const { env, line } = allocatorEnv(base)
  const child = spawn(process.execPath, [...serverNodeFlags(env), path.join(root, 'dist', 'server.js')], { cwd: root, env: threadPoolEnv(env, root).env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const keep = (d: Buffer): void => { output = (output + d.toString()).slice(-200_000) }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  const url = `http://127.0.0.1:${port}`
  for (const end = Date.now() + 60_000; ;) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${output.slice(-2000)}`)
    if (Date.now() > end) {
      child.kill('SIGKILL')
      throw new Error(`the server did not start: ${output.slice(-2000)}`)
    }
    const up = await new Promise<boolean>((resolve) => {
      http.get(`${url}/healthz`, { agent: false }, (res) => { res.resume(); resolve(res.statusCode === 200) }).on('error', () => resolve(false))
    })
    if (up) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { child, url, allocator: line, output: () => output }
}

function statusMb (pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(field + ':'))!
  return Number(/(\d+) kB/.exec(line)![1]) / 1024
}

/** Peak RSS of `pid` while `fn` runs: VmHWM reset first (Linux clear_refs 5) and VmRSS sampled, the higher. */
async function withPeakRss<T> (pid: number, fn: () => Promise<T>): Promise<{ result: T, peakMb: number }> {
  let hwmReset = true
  try { fs.writeFileSync(`/proc/${pid}/clear_refs`, '5') } catch { hwmReset = false }
  let sampled = statusMb(pid, 'VmRSS')
  const timer = setInterval(() => { sampled = Math.max(sampled, statusMb(pid, 'VmRSS')) }, 10)
  try {
    const result = await fn()
    sampled = Math.max(sampled, statusMb(pid, 'VmRSS'))
    return { result, peakMb: hwmReset ? Math.max(sampled, statusMb(pid, 'VmHWM')) : sampled }
  } finally {
    clearInterval(timer)
  }
}

/** Nearest-rank percentile. */
function percentile (xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!
}

const ms = (n: number): string => `${Math.round(n).toLocaleString('en-US')} ms`
const mb = (n: number): string => `${Math.round(n)} MB`
const verdict = (ok: boolean): string => ok ? 'met' : 'NOT met'

interface Tally { answered: string, refused: number, refusals: number, withRetryAfter: number, p50: number, p99: number }

/** Answers by status (and error code), refusals (anything but 200, no answer included), latency of all answers. */
function tally (answers: Answer[]): Tally {
  const byStatus: Record<string, number> = {}
  for (const a of answers) {
    const what = a.status === 200 ? '200' : a.status === 0 ? 'no answer' : `${a.status} ${a.error}`.trim()
    byStatus[what] = (byStatus[what] ?? 0) + 1
  }
  const refused = answers.filter((a) => a.status !== 200)
  const refusals = refused.filter((a) => a.status === 503)
  const times = answers.filter((a) => a.status !== 0).map((a) => a.ms)
  return {
    answered: Object.entries(byStatus).sort(([x], [y]) => x.localeCompare(y)).map(([s, n]) => `${n}× ${s}`).join(', '),
    refused: refused.length,
    refusals: refusals.length,
    withRetryAfter: refusals.filter((a) => a.retryAfter !== undefined && a.retryAfter !== '').length,
    p50: times.length > 0 ? percentile(times, 0.5) : NaN,
    p99: times.length > 0 ? percentile(times, 0.99) : NaN
  }
}

/** A scenario's row: p99 as the figure; answers, refusals, p50 and peak RSS beside it. */
function burstRow (name: string, answers: Answer[], peakMb: number, extra: string[] = []): BenchRow {
  const t = tally(answers)
  return {
    name,
    ours: Math.round(t.p99),
    unit: 'ms (p99 latency)',
    better: 'lower',
    note: [
      `answered: ${t.answered}; refused: ${t.refused}${t.refusals > 0 ? ` (503s with Retry-After: ${t.withRetryAfter} of ${t.refusals})` : ''}`,
      `latency p50 ${ms(t.p50)}, p99 ${ms(t.p99)}; server peak RSS ${mb(peakMb)}`,
      ...extra
    ].join('\n    ')
  }
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, SETTLE_MS))

const bench: Benchmark = {
  name: 'Bursts (built server, default admission settings)',
  async run ({ quick }) {
    const built = spawnSync(process.execPath, [path.join(root, 'scripts', 'prepare.mjs')], { cwd: root, stdio: 'inherit' })
    if (built.status !== 0) throw new Error('could not build dist/')
    const small = await photo(800, 600)
    const large = await photo(1600, 1200)
    // 10 KB of headings, emphasis, links and code (the process test's document, made longer).
    const markdown = Array.from({ length: 160 }, (_, i) => `## Part ${i}\n\nSome *text* with a [link](https://example.com/${i}) and \`code\`.\n`).join('\n').slice(0, 10 * 1024)
    const markdownBody = JSON.stringify({ markdown })
    // The same document as HTML, for HTML → Markdown.
    const htmlBody = JSON.stringify({ html: Array.from({ length: 160 }, (_, i) => `<h2>Part ${i}</h2>\n<p>Some <em>text</em> with a <a href="https://example.com/${i}">link</a> and <code>code</code>.</p>\n`).join('').slice(0, 10 * 1024) })
    const big = await sharp({ create: { width: BIG_PNG.width, height: BIG_PNG.height, channels: 3, background: 'black', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png({ compressionLevel: 0 }).toBuffer()

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bench-bursts-'))
    const server = await startServer(dataDir)
    const pid = server.child.pid!
    const rows: BenchRow[] = []
    try {
      const webp = (key: string, body: Buffer): Promise<Answer> => send(`${server.url}/convert/image-webp`, key, 'image/jpeg', body)
      const welcome = (i: number): Promise<Answer> => send(`${server.url}/gen/welcome`, KEY_A, 'application/json', JSON.stringify({ username: `member ${i}` }))
      const md = (): Promise<Answer> => send(`${server.url}/convert/markdown-html`, KEY_A, 'application/json', markdownBody)
      const htmlMd = (): Promise<Answer> => send(`${server.url}/convert/html-markdown`, KEY_A, 'application/json', htmlBody)
      const burst = (n: number, fn: (i: number) => Promise<Answer>): Promise<Answer[]> => Promise.all(Array.from({ length: n }, (_, i) => fn(i)))

      // One of each kind first, so that start-up work (libvips, the worker thread, fonts)
      // is not counted as a burst's latency.
      for (const a of [await webp(KEY_A, small), await welcome(0), await md()]) {
        if (a.status !== 200) throw new Error(`warm-up request answered ${a.status} ${a.error}`)
      }
      // What each scenario leaves once it is over: the server's RSS after the quiet time
      // between scenarios, beside its row, so memory that stays can be told to a scenario.
      const settleNoting = async (): Promise<void> => {
        await settle()
        const last = rows.at(-1)!
        last.note = `${last.note === undefined ? '' : `${last.note}\n    `}server RSS ${SETTLE_MS / 1000} s after: ${mb(statusMb(pid, 'VmRSS'))}`
      }
      await settle()
      rows.push({ name: `server at rest after one request of each kind (${server.allocator})`, ours: Math.round(statusMb(pid, 'VmRSS')), unit: 'MB', better: 'lower' })

      const s1 = await withPeakRss(pid, () => burst(3, () => webp(KEY_A, small)))
      rows.push(burstRow(`1. one key, 3 concurrent 800×600 JPEG (${small.length.toLocaleString('en-US')} bytes) → WebP`, s1.result, s1.peakMb))
      await settleNoting()

      const s2 = await withPeakRss(pid, () => burst(20, () => webp(KEY_A, small)))
      rows.push(burstRow('2. one key, 20 concurrent 800×600 JPEG → WebP', s2.result, s2.peakMb))
      await settleNoting()

      const s3 = await withPeakRss(pid, () => burst(60, (i) => welcome(i)))
      rows.push(burstRow('3. one key, 60 concurrent /gen/welcome', s3.result, s3.peakMb))
      await settleNoting()

      const s4 = await withPeakRss(pid, () => burst(60, () => md()))
      rows.push(burstRow(`4. one key, 60 concurrent ${(markdown.length / 1024).toFixed(0)} KB Markdown → HTML`, s4.result, s4.peakMb))
      await settleNoting()

      // 5. B alone first (idle server): one request to warm up, then the median of three.
      await webp(KEY_B, large)
      const alone: number[] = []
      for (let i = 0; i < 3; i++) {
        const a = await webp(KEY_B, large)
        if (a.status !== 200) throw new Error(`key B alone answered ${a.status} ${a.error}`)
        alone.push(a.ms)
      }
      const aloneMs = percentile(alone, 0.5)
      await settle()
      const s5 = await withPeakRss(pid, async () => {
        let firstOfA = 0
        const aAnswers = Array.from({ length: 40 }, () => webp(KEY_A, large).then((a) => { firstOfA = firstOfA || a.ms; return a }))
        // B comes once A's burst is under way: after A's first answer, the rest of A's queued.
        await Promise.race(aAnswers)
        const sentAt = firstOfA
        let aAnsweredBeforeB = 0
        const b = webp(KEY_B, large)
        let bDone = false
        void b.then(() => { bDone = true })
        for (const p of aAnswers) void p.then(() => { if (!bDone) aAnsweredBeforeB++ })
        return { a: await Promise.all(aAnswers), b: await b, sentAt, aAnsweredBeforeB: () => aAnsweredBeforeB }
      })
      rows.push(burstRow(`5a. key A, 40 concurrent 1600×1200 JPEG (${large.length.toLocaleString('en-US')} bytes) → WebP`, s5.result.a, s5.peakMb))
      const b = s5.result.b
      const limit = Math.max(TARGET_B_FACTOR * aloneMs, TARGET_B_FLOOR_MS)
      rows.push({
        name: `5b. key B, one 1600×1200 JPEG → WebP sent ${ms(s5.result.sentAt)} into A's burst (at A's first answer)`,
        ours: Math.round(b.ms),
        unit: 'ms',
        better: 'lower',
        note: [
          `answered: ${b.status === 200 ? '200' : b.status === 0 ? 'no answer' : `${b.status} ${b.error}`}; A's answers before B's: ${s5.result.aAnsweredBeforeB()} of 40`,
          `B alone (idle server, median of 3): ${ms(aloneMs)}; during A's burst: ${ms(b.ms)}; ratio ${(b.ms / aloneMs).toFixed(2)} × alone`,
          `target ≤ max(${TARGET_B_FACTOR} × alone, ${TARGET_B_FLOOR_MS / 1000} s) = ${ms(limit)}: ${verdict(b.status === 200 && b.ms <= limit)}`
        ].join('\n    ')
      })
      await settleNoting()

      // 6. 16 keys, one 14.5 MB PNG each, at once.
      const s6 = await withPeakRss(pid, () => Promise.all(UPLOAD_KEYS.map((key) => send(`${server.url}/convert/image-webp`, key, 'image/png', big))))
      const t6 = tally(s6.result)
      const only200or503 = s6.result.every((a) => a.status === 200 || a.status === 503)
      rows.push(burstRow(`6. ${UPLOADERS} keys each upload a ${(big.length / 1024 / 1024).toFixed(1)} MB PNG (${big.length.toLocaleString('en-US')} bytes, ${BIG_PNG.width}×${BIG_PNG.height}) → WebP at once`, s6.result, s6.peakMb, [
        `every answer 200 or 503: ${only200or503 ? 'yes' : 'no'}; every 503 with Retry-After: ${t6.withRetryAfter === t6.refusals ? 'yes' : 'no'} (${t6.withRetryAfter} of ${t6.refusals})`,
        `target every answer 200 or 503 with Retry-After: ${verdict(only200or503 && t6.withRetryAfter === t6.refusals)}`,
        `target peak RSS ≤ ${TARGET_PEAK_MB} MB: ${verdict(s6.peakMb <= TARGET_PEAK_MB)}`
      ]))
      const restAfterMs = quick ? REST_AFTER_QUICK_MS : REST_AFTER_MS
      await new Promise((resolve) => setTimeout(resolve, restAfterMs))
      const restMb = statusMb(pid, 'VmRSS')
      rows.push({
        name: `6. server RSS at rest ${restAfterMs / 1000} s after the uploads${quick ? ` (--quick: ${REST_AFTER_MS / 1000} s in a full run)` : ''}`,
        ours: Math.round(restMb),
        unit: 'MB',
        better: 'lower',
        note: `target ≤ ${TARGET_REST_MB} MB: ${verdict(restMb <= TARGET_REST_MB)}`
      })
      // 7. A trickle: each document after a quiet spell, in which the worker threads collect
      // (src/work/pool.ts), against the same documents back to back (docs/memory.md).
      for (const [name, convert] of [['Markdown → HTML', md], ['HTML → Markdown', htmlMd]] as const) {
        const spaced: number[] = []
        for (let i = 0; i < TRICKLE_DOCUMENTS; i++) {
          await new Promise((resolve) => setTimeout(resolve, TRICKLE_GAP_MS))
          spaced.push((await convert()).ms)
        }
        const backToBack: number[] = []
        for (let i = 0; i < TRICKLE_DOCUMENTS; i++) backToBack.push((await convert()).ms)
        rows.push({
          name: `7. a trickle: ${TRICKLE_DOCUMENTS} ${(markdown.length / 1024).toFixed(0)} KB ${name} one at a time, each ${TRICKLE_GAP_MS} ms after the last answer (the worker threads collect in between): median latency`,
          ours: percentile(spaced, 0.5),
          reference: percentile(backToBack, 0.5),
          referenceName: 'the same documents back to back',
          unit: 'ms',
          better: 'lower',
          note: `each: ${spaced.map((x) => x.toFixed(0)).join(', ')} ms`
        })
      }
      const errors = server.output().split('\n').filter((l) => /"level":(50|60)/.test(l)).length
      if (errors > 0) rows.push({ name: 'server log lines at error or fatal level', ours: errors, unit: 'lines', better: 'lower' })
    } finally {
      server.child.kill('SIGTERM')
      if (server.child.exitCode === null) await new Promise((resolve) => server.child.once('exit', resolve))
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
    return rows
  }
}
export default bench
