// Rank cards one at a time: our /gen/rank over loopback HTTP against canvacord 6's
// RankCardBuilder (HTML and CSS through satori, the leading Node.js card library),
// issue 27's target: ≥ 3 times its cards per second (issue 40: ≥ 5). Then leaderboards:
// our /gen/leaderboard against its LeaderboardBuilder, issue 40's target ≥ 3 times: the
// same 10 players (canvacord draws 10 at most), each with the avatar, and a header with
// a title, a subtitle and the avatar as its image; ours 720×958, canvacord's 500×1074
// (it sizes the card itself).
//
// canvacord lives in an install of its own (bench/canvacord: package.json, its lock and
// render.mjs, copied to a folder outside the project and installed there with `npm ci`
// from the npm registry when missing: see canvacordDir) and runs in a process of its
// own, so nothing of it reaches the project's tree and nothing of the project's changes
// what it loads. Both draw the same card:
// a name, an avatar (a 256×256 PNG, from a buffer there; from a loopback server here,
// fetched once and then from the fetcher's cache), level 12, rank 3, 8420 of 12000 XP
// and a background colour, as PNG. One card at a time on both sides, measured in
// alternating rounds (the host's load drifts and hits both alike), medians printed.
//
// The profile of ours splits a card's time into the hand-off to the drawing thread and
// back, the drawing (the avatar decoded, the template laid out and rasterised), the PNG
// encoding and the rest (HTTP, the key, collecting the job, admission), each measured
// on its own in this process, one at a time, in the same rounds:
// - drawing and encoding: in a thread of the bench's own running the drawing thread's
//   code (bench/cards-profile-worker.ts): the card's job drawn and encoded, and the
//   encoding alone;
// - hand-off: a task that does next to nothing (a one-character Markdown conversion)
//   through a worker pool of one thread (src/work/pool.ts), there and back: the job's
//   wake-ups and messages, without its bytes (the avatar in, the card out);
// - HTTP and the rest: what is left of the card over HTTP.
// Only the last is a difference of times taken on threads of different priority (the
// drawing threads run at a lower one, src/work/worker.ts): the hand-off as the job
// through the pool less the job drawn in a thread came out negative on the loaded host.
// The PNG encoder is also swapped alone: ours against Skia's, on this thread.
import { createHash } from 'node:crypto'
import { execFile, spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { Worker } from 'node:worker_threads'
import { createCanvas, type Image, loadImage } from '@napi-rs/canvas'
import sharp from 'sharp'
import { createAssetCatalog } from '../src/generation/assets/asset-catalog.js'
import { drawn } from '../src/generation/drawable.js'
import { encodeSync } from '../src/generation/canvas/draw.js'
import { createDrawingFonts } from '../src/generation/text/font-loading.js'
import { createFontRegistry } from '../src/generation/text/fonts.js'
import type { ImageSource } from '../src/generation/assets/image-source.js'
import { collectJob, type DrawJob } from '../src/generation/pipeline/render-job.js'
import { templateByName } from '../src/generation/template-registry.js'
import { parseAllowList } from '../src/remote-fetch/address.js'
import { createRemoteFetcher } from '../src/remote-fetch/fetcher.js'
import { createImageFetcher } from '../src/remote-fetch/image-fetcher.js'
import { createWorkPool } from '../src/work/pool.js'
import { threadCode } from '../src/work/work.js'
import { nextTurn } from '../src/work/thread.js'
import type * as textThread from '../src/conversion/text/thread.js'
import { type Benchmark, type BenchRow, median, opsPerSec, perRoundRatios, requestLoop } from './harness.js'
import { startOurServer } from './shared-path.bench.js'

const ROUNDS = 5
/** The smallest task a drawing thread can be handed: the hand-off's cost alone. */
const MARKDOWN_TO_HTML = threadCode<typeof textThread.markdownToHtml>(new URL('../src/conversion/text/thread.js', import.meta.url), 'markdownToHtml')
/** canvacord's package.json, lock and render.mjs, kept in the project. */
const CANVACORD_SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'canvacord')
/**
 * Where canvacord is installed and run: outside the project, so that Node's module
 * resolution, which walks up from the importing file, cannot reach the project's own
 * node_modules. From bench/canvacord it did: canvacord loads sharp when it can
 * (`import("sharp")`, for SVG rasterising and image decoding; sharp is only a
 * devDependency of canvacord, so its users' installs do not have it) and found ours,
 * which made its cards about three times as slow (palette PNGs through libvips instead of
 * resvg). Named by the lock's hash, so a changed lock is a fresh install.
 */
function canvacordDir (): string {
  const lock = fs.readFileSync(path.join(CANVACORD_SOURCE, 'package-lock.json'))
  const hash = createHash('sha256').update(lock).digest('hex').slice(0, 12)
  return path.join(os.tmpdir(), `uma-bench-canvacord-${hash}`)
}
const CANVACORD_DIR = canvacordDir()

/** The card's content, as /gen/rank fields; render.mjs sets the same on canvacord's builder. */
const RANK_FIELDS = { username: 'Benchmark User', level: '12', rank: '3', xp: '8420', max_xp: '12000', background: '#23272a', output: 'png' }

/** The leaderboard's content as /gen/leaderboard fields; render.mjs sets the same on canvacord's builder. */
function leaderboardFields (avatar: string): Record<string, unknown> {
  const players = Array.from({ length: 10 }, (_, i) => ({ display_name: `Player ${i + 1}`, username: `player${i + 1}`, level: 50 - i * 4, xp: 125_000 - i * 11_111, rank: i + 1, avatar }))
  return { title: 'Benchmark Server', subtitle: '1,234 members', image: avatar, players, background: '#23272a', output: 'png' }
}

/** canvacord's own install, made from its lock when missing: the npm registry only. */
export async function installCanvacord (): Promise<void> {
  fs.mkdirSync(CANVACORD_DIR, { recursive: true })
  for (const file of ['package.json', 'package-lock.json', 'render.mjs']) fs.copyFileSync(path.join(CANVACORD_SOURCE, file), path.join(CANVACORD_DIR, file))
  if (fs.existsSync(path.join(CANVACORD_DIR, 'node_modules', 'canvacord', 'package.json'))) return
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  await promisify(execFile)(npm, ['ci', '--prefix', CANVACORD_DIR, '--no-audit', '--no-fund', '--registry=https://registry.npmjs.org/'], { cwd: CANVACORD_DIR })
}

export interface Reference {
  /** Renders cards (rank cards, or leaderboards) one at a time for `seconds`: cards a second and the last card's bytes. */
  renderFor (seconds: number, kind?: 'leaderboard'): Promise<{ cardsPerSec: number, cpuMsPerCard: number, bytes: number }>
  close (): void
}

/** canvacord's rank card in its own process; `status`: its presence mark (none: the rank card of this bench). */
export async function startCanvacord (avatarFile: string, status = 'none'): Promise<Reference> {
  const child = spawn(process.execPath, [path.join(CANVACORD_DIR, 'render.mjs'), avatarFile, status], { cwd: CANVACORD_DIR, stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const next = async (): Promise<Record<string, number>> => {
    const line = await lines.next()
    if (line.done === true) throw new Error(`canvacord's process ended (exit code ${child.exitCode})`)
    return JSON.parse(line.value) as Record<string, number>
  }
  await next()
  return {
    async renderFor (seconds, kind) {
      child.stdin.write(kind === undefined ? `${seconds}\n` : `${kind} ${seconds}\n`)
      const { cardsPerSec, cpuMsPerCard, bytes } = await next()
      return { cardsPerSec: cardsPerSec!, cpuMsPerCard: cpuMsPerCard!, bytes: bytes! }
    },
    close: () => { child.stdin.end(); child.kill() }
  }
}

interface ProfileThread {
  /** Milliseconds a card takes in the drawing thread's code, and its encoding alone. */
  measure (seconds: number): Promise<{ drawMs: number, encodeMs: number }>
  close (): Promise<void>
}

async function startProfileThread (job: DrawJob, dataDir: string): Promise<ProfileThread> {
  // The TypeScript is required through tsx's CommonJS hook, registered in the thread
  // first: neither an --import of tsx nor its ESM loader reach a worker's entry here.
  const entry = fileURLToPath(new URL('./cards-profile-worker.ts', import.meta.url))
  const worker = new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(entry)})`, { eval: true, workerData: { job, dataDir } })
  const next = async <T>(): Promise<T> => await new Promise<T>((resolve, reject) => {
    const failed = (err: Error): void => reject(err)
    worker.once('message', (message: T) => {
      worker.off('error', failed)
      resolve(message)
    })
    worker.once('error', failed)
  })
  await next()
  return {
    async measure (seconds) {
      worker.postMessage({ seconds })
      return await next()
    },
    async close () { await worker.terminate() }
  }
}

/** CPU time of this whole process (every thread) per call of `fn`, called `n` times one after the other. */
async function cpuMsPerCard (fn: () => Promise<unknown>, n: number): Promise<number> {
  const start = process.cpuUsage()
  for (let i = 0; i < n; i++) await fn()
  const { user, system } = process.cpuUsage(start)
  return (user + system) / 1000 / n
}

/** One POST from this thread, its answer read whole; fails on any status but 200. */
async function post (agent: http.Agent, url: string, headers: Record<string, string>, body: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      res.resume()
      res.on('end', () => res.statusCode === 200 ? resolve() : reject(new Error(`${url} answered ${res.statusCode}`)))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** Milliseconds a call of `fn` takes, one at a time, over `seconds`. */
async function msPer (fn: () => unknown, seconds: number): Promise<number> {
  return 1000 / await opsPerSec(fn, seconds)
}

const bench: Benchmark = {
  name: 'Cards one at a time (/gen/rank and /gen/leaderboard against canvacord 6 RankCardBuilder and LeaderboardBuilder)',
  async run ({ duration, quick }) {
    await installCanvacord()
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bench-cards-'))
    const avatar = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#3366cc' } }).png().toBuffer()
    const avatarFile = path.join(tmp, 'avatar.png')
    fs.writeFileSync(avatarFile, avatar)
    const avatarServer = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'image/png' }); res.end(avatar) })
    await new Promise<void>((resolve) => avatarServer.listen(0, '127.0.0.1', resolve))
    const avatarUrl = `http://127.0.0.1:${(avatarServer.address() as AddressInfo).port}/avatar.png`
    const fields = { ...RANK_FIELDS, avatar: avatarUrl }
    const allow = parseAllowList(['127.0.0.1'])

    const canvacord = await startCanvacord(avatarFile)
    const ours = await startOurServer(undefined, { remoteFetchAllow: allow })
    // The pieces of ours: the job as the route collects it, the drawing thread's code on
    // this thread, and a pool of one thread.
    const dataDir = path.join(tmp, 'data')
    fs.mkdirSync(dataDir)
    const images = createImageFetcher({ fetcher: createRemoteFetcher({ allow }) })
    const collected = await collectJob({ fonts: createFontRegistry(), assets: createAssetCatalog({ dataDir }), images, discordCdn: 'http://127.0.0.1:9' }, { format: 'png', template: 'rank', fields })
    const job = await collected.decode(30_000)
    const profile = await startProfileThread(job, dataDir)
    const pool = createWorkPool({ threads: 1, dataDir, timeoutMs: 0 })
    const decoded = new Map<string, Promise<Image>>()
    const source: ImageSource = {
      url: async (url) => await (decoded.get(url) ?? decoded.set(url, images.fetchImage(url, 'avatar').then(async (f) => await loadImage(f.bytes))).get(url)!),
      assetOrUrl: async (_kind, value, role) => await source.url(value, role),
      image: async (value, role) => await source.url(value, role),
      emoji: async () => undefined
    }
    const draw = await templateByName('rank')!.prepare({ fonts: createDrawingFonts(), images: source }, fields)
    const canvas = draw(createCanvas, drawn)
    const ourBytes = encodeSync(canvas, 'png').length
    const skiaBytes = canvas.encodeSync('png').length

    const seconds = quick ? 0.5 : Math.max(0.5, duration / ROUNDS)
    const headers = { authorization: ours.key, 'content-type': 'application/json' }
    const body = JSON.stringify(fields)
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const boardBody = JSON.stringify(leaderboardFields(avatarUrl))
    const board = { ours: [] as number[], canvacord: [] as number[], oursCpu: [] as number[], canvacordCpu: [] as number[], oursBytes: 0, canvacordBytes: 0 }
    const results = { ours: [] as number[], canvacord: [] as number[], handoff: [] as number[], draw: [] as number[], encode: [] as number[], skia: [] as number[], oursEncode: [] as number[], oursCpu: [] as number[], canvacordCpu: [] as number[] }
    let canvacordBytes = 0
    try {
      for (let round = 0; round < (quick ? 1 : ROUNDS); round++) {
        const sides = [
          async () => results.ours.push(await requestLoop({ url: `${ours.url}/gen/rank`, headers, body, parallel: 1, seconds })),
          async () => {
            const r = await canvacord.renderFor(seconds)
            results.canvacord.push(r.cardsPerSec)
            results.canvacordCpu.push(r.cpuMsPerCard)
            canvacordBytes = r.bytes
          }
        ]
        for (const side of round % 2 === 1 ? sides.reverse() : sides) await side()
        results.oursCpu.push(await cpuMsPerCard(async () => await post(agent, `${ours.url}/gen/rank`, headers, body), quick ? 5 : 20))
        results.handoff.push(await msPer(async () => await pool.run(MARKDOWN_TO_HTML, { markdown: 'x', options: {} }), seconds / 4))
        const own = await profile.measure(seconds)
        results.draw.push(own.drawMs)
        results.encode.push(own.encodeMs)
        // Each encoding followed by a turn of the loop, as in a drawing thread (src/work/thread.ts): native memory freed in between.
        results.oursEncode.push(await msPer(async () => { encodeSync(canvas, 'png'); await nextTurn() }, seconds / 4))
        results.skia.push(await msPer(async () => { canvas.encodeSync('png'); await nextTurn() }, seconds / 4))
      }
      const boardAnswer = await fetch(`${ours.url}/gen/leaderboard`, { method: 'POST', headers, body: boardBody })
      if (boardAnswer.status !== 200) throw new Error(`/gen/leaderboard answered ${boardAnswer.status}: ${await boardAnswer.text()}`)
      board.oursBytes = (await boardAnswer.arrayBuffer()).byteLength
      for (let round = 0; round < (quick ? 1 : ROUNDS); round++) {
        const sides = [
          async () => board.ours.push(await requestLoop({ url: `${ours.url}/gen/leaderboard`, headers, body: boardBody, parallel: 1, seconds })),
          async () => {
            const r = await canvacord.renderFor(seconds, 'leaderboard')
            board.canvacord.push(r.cardsPerSec)
            board.canvacordCpu.push(r.cpuMsPerCard)
            board.canvacordBytes = r.bytes
          }
        ]
        for (const side of round % 2 === 1 ? sides.reverse() : sides) await side()
        board.oursCpu.push(await cpuMsPerCard(async () => await post(agent, `${ours.url}/gen/leaderboard`, headers, boardBody), quick ? 3 : 10))
      }
    } finally {
      agent.destroy()
      canvacord.close()
      await pool.close()
      await profile.close()
      await ours.close()
      avatarServer.closeAllConnections()
      avatarServer.close()
      fs.rmSync(tmp, { recursive: true, force: true })
    }
    const httpMs = 1000 / median(results.ours)
    const handoffMs = median(results.handoff)
    const drawMs = median(results.draw)
    const encodeMs = median(results.encode)
    const rows: BenchRow[] = [{
      name: 'rank card 934×282 PNG, one at a time (POST /gen/rank over loopback HTTP, avatar from the fetcher\'s cache, decoded once per drawing thread; canvacord, decoding its buffer each card, 930×280 PNG in a process of its own)',
      ours: median(results.ours),
      reference: median(results.canvacord),
      referenceName: 'canvacord 6 RankCardBuilder',
      unit: 'cards/s',
      better: 'higher',
      target: 5,
      note: `per round: ${perRoundRatios(results.ours, results.canvacord)}; bytes a card: ours ${ourBytes}, canvacord ${canvacordBytes}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`
    }, {
      name: 'CPU time per card, ms (ours: this process, server, client and avatar server; canvacord: its process), one at a time',
      ours: median(results.oursCpu),
      reference: median(results.canvacordCpu),
      referenceName: 'canvacord 6 RankCardBuilder',
      unit: 'ms',
      better: 'lower',
      note: 'less sensitive to the host\'s load than cards a second; the target is set on cards a second'
    }, {
      name: 'where a card of ours goes, ms (one at a time, each piece measured alone in this process)',
      ours: httpMs,
      unit: 'ms',
      better: 'lower',
      // The pieces measured alone are not subtracted from one another: each 1 MB buffer a
      // card reads its pixels into can cost a fresh page's zeroing or none, from one run
      // to the next (docs/performance.md, "Profile and now-playing cards"), and the
      // encoding alone came out longer than the whole job on some runs.
      note: `hand-off to the drawing thread and back ${handoffMs.toFixed(2)}, the job in the thread (layout, raster, PNG encoding) ${drawMs.toFixed(2)}, of which the PNG encoding of the same pixels alone ${encodeMs.toFixed(2)}; HTTP and the rest (key, job collection, admission, answer) ${(httpMs - handoffMs - drawMs).toFixed(2)}`
    }, {
      name: 'PNG encoding of the card alone, on the bench\'s thread, each followed by a turn of the loop as in a drawing thread: ours (the png crate as /gen uses it: a filter chosen per row, the fast deflate for a flat picture such as this card) against Skia\'s encoder (every filter tried on every row, level 6)',
      ours: median(results.oursEncode),
      reference: median(results.skia),
      referenceName: 'Skia\'s PNG encoder',
      unit: 'ms',
      better: 'lower',
      note: `bytes: ours ${ourBytes}, Skia ${skiaBytes}; the same pixels (test/unit/generation/canvas/encode.test.ts)`
    }, {
      name: 'leaderboard of 10 players PNG, one at a time (POST /gen/leaderboard over loopback HTTP, 720×958, avatars from the fetcher\'s cache, decoded once per drawing thread; canvacord LeaderboardBuilder 500×1074 PNG in a process of its own)',
      ours: median(board.ours),
      reference: median(board.canvacord),
      referenceName: 'canvacord 6 LeaderboardBuilder',
      unit: 'cards/s',
      better: 'higher',
      target: 3,
      note: `per round: ${perRoundRatios(board.ours, board.canvacord)}; bytes a card: ours ${board.oursBytes}, canvacord ${board.canvacordBytes}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`
    }, {
      name: 'CPU time per leaderboard, ms (ours: this process, server, client and avatar server; canvacord: its process), one at a time',
      ours: median(board.oursCpu),
      reference: median(board.canvacordCpu),
      referenceName: 'canvacord 6 LeaderboardBuilder',
      unit: 'ms',
      better: 'lower'
    }]
    return rows
  }
}
export default bench
