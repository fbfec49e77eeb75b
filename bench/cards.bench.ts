// Rank cards one at a time: our /gen/rank over loopback HTTP against canvacord 6's
// RankCardBuilder (HTML and CSS through satori, the leading Node.js card library),
// issue 27's target: ≥ 3 times its cards per second.
//
// canvacord lives in an install of its own (bench/canvacord: package.json and its lock,
// installed here with `npm ci` from the npm registry when its node_modules is missing)
// and runs in a process of its own (bench/canvacord/render.mjs), so nothing of it
// reaches the project's tree or changes what our server loads. Both draw the same card:
// a name, an avatar (a 256×256 PNG, from a buffer there; from a loopback server here,
// fetched once and then from the fetcher's cache), level 12, rank 3, 8420 of 12000 XP
// and a background colour, as PNG. One card at a time on both sides, measured in
// alternating rounds (the host's load drifts and hits both alike), medians printed.
//
// The profile of ours splits a card's time into the hand-off to the drawing thread and
// back, the drawing (the avatar decoded, the template laid out and rasterised), the PNG
// encoding and the rest (HTTP, the key, collecting the job, admission), each measured
// on its own in this process, one at a time, in the same rounds:
// - encoding: encodeSync of the drawn card's canvas;
// - drawing: the thread's own draw of the job (drawer.ts: decode, lay out, draw, encode),
//   on this thread, less the encoding;
// - hand-off: the same job through a worker pool of one thread (src/work/pool.ts), less
//   the thread's own draw;
// - HTTP and the rest: the card over HTTP, less the job through the pool.
import { execFile, spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { createCanvas, type Image, loadImage } from '@napi-rs/canvas'
import sharp from 'sharp'
import { createAssetCatalog } from '../src/generation/asset-catalog.js'
import { encodeSync } from '../src/generation/draw.js'
import { createDrawer } from '../src/generation/drawer.js'
import { createDrawingFonts } from '../src/generation/font-loading.js'
import { createFontRegistry } from '../src/generation/fonts.js'
import type { ImageSource } from '../src/generation/image-source.js'
import { collectJob } from '../src/generation/render-job.js'
import { templateByName } from '../src/generation/templates.js'
import { parseAllowList } from '../src/remote-fetch/address.js'
import { createRemoteFetcher } from '../src/remote-fetch/fetcher.js'
import { createImageFetcher } from '../src/remote-fetch/image-fetcher.js'
import { createWorkPool } from '../src/work/pool.js'
import { type Benchmark, type BenchRow, median, opsPerSec, perRoundRatios, requestLoop } from './harness.js'
import { startOurServer } from './shared-path.bench.js'

const ROUNDS = 5
const CANVACORD_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'canvacord')

/** The card's content, as /gen/rank fields; render.mjs sets the same on canvacord's builder. */
const RANK_FIELDS = { username: 'Benchmark User', level: '12', rank: '3', xp: '8420', max_xp: '12000', background: '#23272a', output: 'png' }

/** canvacord's own install, made from its lock when missing: the npm registry only. */
async function installCanvacord (): Promise<void> {
  if (fs.existsSync(path.join(CANVACORD_DIR, 'node_modules', 'canvacord', 'package.json'))) return
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  await promisify(execFile)(npm, ['ci', '--prefix', CANVACORD_DIR, '--no-audit', '--no-fund', '--registry=https://registry.npmjs.org/'], { cwd: CANVACORD_DIR })
}

interface Reference {
  /** Renders cards one at a time for `seconds`: cards a second and the last card's bytes. */
  renderFor (seconds: number): Promise<{ cardsPerSec: number, bytes: number }>
  close (): void
}

async function startCanvacord (avatarFile: string): Promise<Reference> {
  const child = spawn(process.execPath, [path.join(CANVACORD_DIR, 'render.mjs'), avatarFile], { cwd: CANVACORD_DIR, stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const next = async (): Promise<Record<string, number>> => {
    const line = await lines.next()
    if (line.done === true) throw new Error(`canvacord's process ended (exit code ${child.exitCode})`)
    return JSON.parse(line.value) as Record<string, number>
  }
  await next()
  return {
    async renderFor (seconds) {
      child.stdin.write(`${seconds}\n`)
      const { cardsPerSec, bytes } = await next()
      return { cardsPerSec: cardsPerSec!, bytes: bytes! }
    },
    close: () => { child.stdin.end(); child.kill() }
  }
}

/** Milliseconds a call of `fn` takes, one at a time, over `seconds`. */
async function msPer (fn: () => unknown, seconds: number): Promise<number> {
  return 1000 / await opsPerSec(fn, seconds)
}

const bench: Benchmark = {
  name: 'Rank cards one at a time (/gen/rank against canvacord 6 RankCardBuilder)',
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
    const drawer = createDrawer({ dataDir })
    const pool = createWorkPool({ threads: 1, dataDir, timeoutMs: 0 })
    const decoded = new Map<string, Promise<Image>>()
    const source: ImageSource = {
      url: async (url) => await (decoded.get(url) ?? decoded.set(url, images.fetchImage(url, 'avatar').then(async (f) => await loadImage(f.bytes))).get(url)!),
      assetOrUrl: async (_kind, value, role) => await source.url(value, role),
      image: async (value, role) => await source.url(value, role),
      emoji: async () => undefined
    }
    const draw = await templateByName('rank')!.prepare({ fonts: createDrawingFonts(), images: source }, fields)
    const canvas = draw(createCanvas)
    const ourBytes = encodeSync(canvas, 'png').length

    const seconds = quick ? 0.5 : Math.max(0.5, duration / ROUNDS)
    const headers = { authorization: ours.key, 'content-type': 'application/json' }
    const body = JSON.stringify(fields)
    const results = { ours: [] as number[], canvacord: [] as number[], pool: [] as number[], drawer: [] as number[], encode: [] as number[] }
    let canvacordBytes = 0
    try {
      for (let round = 0; round < (quick ? 1 : ROUNDS); round++) {
        const sides = [
          async () => results.ours.push(await requestLoop({ url: `${ours.url}/gen/rank`, headers, body, parallel: 1, seconds })),
          async () => {
            const r = await canvacord.renderFor(seconds)
            results.canvacord.push(r.cardsPerSec)
            canvacordBytes = r.bytes
          }
        ]
        for (const side of round % 2 === 1 ? sides.reverse() : sides) await side()
        results.pool.push(await msPer(async () => await pool.run({ kind: 'draw', job }), seconds / 2))
        results.drawer.push(await msPer(async () => await drawer.draw(job), seconds / 2))
        results.encode.push(await msPer(() => encodeSync(canvas, 'png'), seconds / 2))
      }
    } finally {
      canvacord.close()
      await pool.close()
      await ours.close()
      avatarServer.closeAllConnections()
      avatarServer.close()
      fs.rmSync(tmp, { recursive: true, force: true })
    }
    const httpMs = 1000 / median(results.ours)
    const poolMs = median(results.pool)
    const drawerMs = median(results.drawer)
    const encodeMs = median(results.encode)
    const rows: BenchRow[] = [{
      name: 'rank card 934×282 PNG, one at a time (POST /gen/rank over loopback HTTP, avatar from the fetcher\'s cache; canvacord 930×280 PNG in a process of its own)',
      ours: median(results.ours),
      reference: median(results.canvacord),
      referenceName: 'canvacord 6 RankCardBuilder',
      unit: 'cards/s',
      better: 'higher',
      target: 3,
      note: `per round: ${perRoundRatios(results.ours, results.canvacord)}; bytes a card: ours ${ourBytes}, canvacord ${canvacordBytes}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`
    }, {
      name: 'where a card of ours goes, ms (one at a time, each piece measured alone in this process)',
      ours: httpMs,
      unit: 'ms',
      better: 'lower',
      note: `hand-off to the drawing thread and back ${(poolMs - drawerMs).toFixed(2)}, drawing (avatar decode, layout, raster) ${(drawerMs - encodeMs).toFixed(2)}, PNG encoding ${encodeMs.toFixed(2)}, HTTP and the rest (key, job collection, admission, answer) ${(httpMs - poolMs).toFixed(2)}`
    }]
    return rows
  }
}
export default bench
