// Issue 35, item 3, over sockets to the built server: a frame delay above what sharp's GIF
// and WebP writers take (65,535 ms a frame) answered 500 INTERNAL wherever frames are
// made or merged: an avatar's long frame, the server's own merging of many long frames,
// halving them for max_bytes, a huge animation of short frames, an animated custom
// emoji. Each answers 200 now with an animation that lasts as long as its image (or, for
// one longer than the frame budget can hold, as long as it can), and image conversion and
// a catalog gif's WebP keep a 70 s frame, and a GIF's longest, as they are.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import gifenc from 'gifenc'
import sharp from 'sharp'
import { MAX_ANIMATION_FRAMES, MAX_CENTISECOND_PIECE_MS, MAX_FRAME_DELAY_MS, playedDelays } from '../../../src/generation/pipeline/timeline.js'
import { tempDir } from '../../support/helpers.js'
import { type HostileServer, startHostileServer } from './harness.js'

const { GIFEncoder } = gifenc

/** 256 colours, all different. */
const PALETTE = Array.from({ length: 256 }, (_, i) => [i, 255 - i, (i * 91) % 256])

/**
 * An animated GIF of `delays.length` frames of w×h, each a different picture: one colour
 * each, or noise of 64 colours when `noisy` (hard to compress).
 */
function animatedGif (delays: readonly number[], width = 8, height = 8, noisy = false): Buffer {
  const gif = GIFEncoder()
  delays.forEach((delay, i) => {
    const pixels = new Uint8Array(width * height).map(() => noisy ? Math.floor(Math.random() * 64) : (i * 37) % 256)
    gif.writeFrame(pixels, width, height, { delay, ...(i === 0 ? { palette: PALETTE, repeat: 0 } : {}) })
  })
  gif.finish()
  return Buffer.from(gif.bytes())
}

/** 100,000 frames of 10 ms (played at 100 ms, as browsers do), 1×1: 2.5 MB. */
function hundredThousandFrames (): Buffer {
  const gif = GIFEncoder()
  const palette = [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]]
  for (let i = 0; i < 100_000; i++) gif.writeFrame(new Uint8Array([i % 4]), 1, 1, i === 0 ? { palette, delay: 10, repeat: 0 } : { delay: 10 })
  gif.finish()
  return Buffer.from(gif.bytes())
}

const sum = (delays: readonly number[]): number => delays.reduce((a, b) => a + b, 0)

interface Answer { status: number, headers: http.IncomingHttpHeaders, bytes: Buffer, text: string }

async function request (server: HostileServer, method: string, path: string, body?: Buffer | object, contentType = 'application/json'): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body))
  return await new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: server.key }
    if (payload !== undefined) Object.assign(headers, { 'content-type': contentType, 'content-length': payload.length })
    const req = http.request(`${server.url}${path}`, { method, agent: false, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const bytes = Buffer.concat(chunks)
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, text: bytes.subarray(0, 500).toString('utf8') })
      })
    })
    req.on('error', reject)
    req.end(payload)
  })
}

/** 200 with an animation of `format`: its frames' delays as the file says them. */
async function animationOf (answer: Answer, format: 'gif' | 'webp'): Promise<number[]> {
  assert.equal(answer.status, 200, answer.text)
  assert.equal(answer.headers['content-type'], `image/${format}`)
  const meta = await sharp(answer.bytes, { animated: true }).metadata()
  assert.equal(meta.format, format)
  assert.ok((meta.pages ?? 1) > 1, `an animation, got ${meta.pages ?? 1} frame`)
  return meta.delay ?? []
}

/**
 * A GIF keeps hundredths of a second: libvips rounds each frame's delay to them (65,535
 * ms is written 65,540), so a total is exact within 5 ms a frame.
 */
function assertLasts (delays: readonly number[], ms: number): void {
  assert.ok(Math.abs(sum(delays) - ms) <= 5 * delays.length, `the animation lasts ${sum(delays)} ms (${delays.join(', ')}), expected ${ms}`)
}

describe('hostile frame delays (issue 35, item 3)', () => {
  let server: HostileServer
  let images: http.Server
  let origin: string
  const files = new Map<string, Buffer>()
  const longFrame = [100, 66_000, 100]
  const emojiFrames = [70_000, 100]
  const fortySeconds = Array.from({ length: 61 }, () => 40_000)
  // A frame of 70 s and the longest a GIF can say (65,535 hundredths).
  const longGifFrames = [100, 70_000, 655_350]

  before(async () => {
    files.set('/long.gif', animatedGif(longFrame, 32, 32))
    files.set('/forty.gif', animatedGif(fortySeconds))
    files.set('/noise.gif', animatedGif([40_000, 40_000, 40_000, 40_000], 200, 200, true))
    files.set('/many.gif', hundredThousandFrames())
    files.set('/emojis/333333333333333333.gif', animatedGif(emojiFrames, 32, 32))
    images = http.createServer((req, res) => {
      const file = files.get(new URL(req.url ?? '/', 'http://x').pathname)
      if (file === undefined) { res.writeHead(404); res.end(); return }
      res.writeHead(200, { 'content-type': 'image/gif' })
      res.end(file)
    })
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`
    // A catalog gif with a 70 s frame and one of 655,350 ms, imported by the built CLI before the server starts.
    const dataDir = tempDir('uma-hostile-')
    const folder = tempDir('uma-frame-delays-')
    fs.writeFileSync(path.join(folder, 'long.gif'), animatedGif(longGifFrames, 32, 32))
    const imported = spawnSync(process.execPath, ['dist/cli/index.js', 'gifs', 'import', path.join(folder, 'long.gif'), '--category', 'hug', '--create-store'], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', GIF_STARTER_CATALOG: 'false' },
      encoding: 'utf8',
      timeout: 60_000
    })
    assert.equal(imported.status, 0, imported.stderr)
    // A generous job limit: the machine running the suite may be shared.
    server = await startHostileServer({ DATA_DIR: dataDir, REMOTE_FETCH_ALLOW: '127.0.0.1', DISCORD_CDN_URL: origin, WORKER_THREADS: '1', WORK_TIMEOUT_MS: '60000' })
  })
  after(async () => {
    await server?.stop()
    images?.closeAllConnections()
    images?.close()
  })

  for (const format of ['gif', 'webp'] as const) {
    it(`an avatar with one 66 s frame: 200 as ${format}, lasting as long as the avatar`, async () => {
      const answer = await request(server, 'POST', '/gen/welcome', { username: 'Alice', avatar: `${origin}/long.gif`, output: format })
      assertLasts(await animationOf(answer, format), sum(longFrame))
    })
  }

  it('61 frames of 40 s, merged by the server to fit 60: 200, lasting as long (frames merged, none cut)', async () => {
    const answer = await request(server, 'POST', '/gen/custom', { output: 'gif', base: { url: `${origin}/forty.gif`, width: 64, height: 64 } })
    const delays = await animationOf(answer, 'gif')
    assert.equal(answer.headers['x-image-reduced'], 'frames')
    assertLasts(delays, sum(fortySeconds))
  })

  it('frames of 40 s halved for max_bytes: 200 within the budget, lasting as long', async () => {
    const body = { output: 'gif', base: { url: `${origin}/noise.gif`, width: 200, height: 200 } }
    const full = await request(server, 'POST', '/gen/custom', body)
    assertLasts(await animationOf(full, 'gif'), 160_000)
    // Four frames of noise take about 0.6 of their 256-colour size at 64 colours (codes of
    // 6 bits instead of 8), two of them 0.3: only fewer frames fit this.
    const maxBytes = Math.floor(full.bytes.length * 0.45)
    const answer = await request(server, 'POST', '/gen/custom', { ...body, max_bytes: maxBytes })
    const delays = await animationOf(answer, 'gif')
    assert.ok(answer.bytes.length <= maxBytes, `${answer.bytes.length} bytes for max_bytes ${maxBytes}`)
    assert.match(String(answer.headers['x-image-reduced']), /^colours,frames/)
    assertLasts(delays, 160_000)
  })

  it('100,000 frames of 10 ms merged: 200, as long as 60 frames of the longest delay the writers take', async () => {
    const answer = await request(server, 'POST', '/gen/custom', { output: 'webp', base: { url: `${origin}/many.gif`, width: 64, height: 64 } })
    const delays = await animationOf(answer, 'webp')
    assert.equal(answer.headers['x-image-reduced'], 'frames')
    // Played at 100 ms a frame: 10,000 s, more than the frame budget can hold once every
    // frame is at most MAX_FRAME_DELAY_MS; each frame of the budget is as long as it may be.
    const played = sum(playedDelays(Array(100_000).fill(10), 100_000))
    assert.ok(played > MAX_ANIMATION_FRAMES * MAX_FRAME_DELAY_MS)
    assertLasts(delays, MAX_ANIMATION_FRAMES * MAX_CENTISECOND_PIECE_MS)
  })

  it('an animated custom emoji with a 70 s frame moves the picture, lasting as long as the emoji', async () => {
    for (const format of ['gif', 'webp'] as const) {
      const answer = await request(server, 'POST', '/gen/custom', { output: format, base: { width: 200, height: 80, color: 'white' }, texts: [{ text: 'hi <a:party:333333333333333333>', x: 10, y: 10, size: 40, color: 'black' }] })
      assertLasts(await animationOf(answer, format), sum(emojiFrames))
    }
  })

  it('/convert/image-webp of an animated GIF with a 70 s frame and one of 655,350 ms: 200, the delays kept', async () => {
    const answer = await request(server, 'POST', '/convert/image-webp', animatedGif(longGifFrames, 32, 32), 'image/gif')
    assert.deepEqual(await animationOf(answer, 'webp'), longGifFrames)
  })

  it('a catalog gif with a 70 s frame and one of 655,350 ms as WebP (/files/gifs/<hash>.webp): 200, the delays kept', async () => {
    const pick = await request(server, 'GET', '/sfw/gif/hug?format=webp')
    assert.equal(pick.status, 200, pick.text)
    const file = new URL((JSON.parse(pick.bytes.toString('utf8')) as { file: string }).file)
    assert.match(file.pathname, /\.webp$/)
    const answer = await request(server, 'GET', file.pathname)
    assert.deepEqual(await animationOf(answer, 'webp'), longGifFrames)
  })

  it('nothing was logged as a server error (a 500 is logged at level 50 with its stack)', () => {
    assert.doesNotMatch(server.output(), /"level":50/, server.output().slice(-1000))
  })
})
