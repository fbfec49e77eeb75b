// Issue 35, item 2, over real sockets against the built server: the images /gen/custom
// fetches are held under one byte budget shared by every request (REMOTE_FETCH_MEMORY,
// src/work/byte-budget.ts). Six pictures at once from one key, each fetching ten 8 MB
// PNGs (half with Content-Length, half chunked without) and twenty 8 MB emoji from a
// loopback host, took the server from 381 MB to 1,922 MB before: now each answer is the picture or 503 with
// Retry-After, /healthz answers throughout, and the peak stays within the budget and a
// stated margin.
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { tempDir } from '../../support/helpers.js'
import { assertHealthy, type HostileServer, startHostileServer, startProbe } from './harness.js'
import { assertErrorEnvelope } from '../../support/envelope.js'
import { rawAnswer, type RawAnswer } from '../../support/raw-http.js'

const MB = 1024 * 1024
/** REMOTE_FETCH_MEMORY for this test (the default is 256mb): six pictures of 80 MB cannot all fit. */
const BUDGET = 64 * MB
/** The images a picture may fetch (docs/generation.md, "Custom images"). */
const IMAGES_PER_PICTURE = 10
/** The custom emoji a picture may fetch (MAX_EMOJI_PER_PICTURE). */
const EMOJI_PER_PICTURE = 20
const PICTURES = 6
/**
 * What the server may hold beside the fetched images' budget at the peak: the oldest
 * picture past the budget (byte-budget.ts: its own ten images, 80 MB; its 8 MB emoji are
 * refused unread, above MAX_EMOJI_BYTES), the image cache (image-fetcher.ts, 64 MB),
 * sharp shrinking a picture's images on two lanes, and the drawing threads.
 */
const MARGIN = 260 * MB

/**
 * The remote host: every path answers the PNG in argv[1]; half the answers declare their
 * length, the others (a path with "chunked") are chunked, so the server reserves the
 * largest answer it takes and gives back what did not come. Prints its port.
 */
const IMAGE_HOST = `
const http = require('node:http')
const png = require('node:fs').readFileSync(process.argv[1])
const server = http.createServer((req, res) => {
  if (req.url.includes('chunked')) {
    res.writeHead(200, { 'content-type': 'image/png' })
    res.write(png.subarray(0, 1024 * 1024))
    res.end(png.subarray(1024 * 1024))
  } else {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) })
    res.end(png)
  }
})
server.listen(0, '127.0.0.1', () => console.log(server.address().port))
`

async function post (server: HostileServer, path: string, body: object): Promise<RawAnswer> {
  const payload = JSON.stringify(body)
  return await new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${path}`, { method: 'POST', agent: false, headers: { authorization: server.key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        resolve(rawAnswer(res.statusCode ?? 0, res.headers, Buffer.concat(chunks)))
      })
    })
    req.on('error', reject)
    req.end(payload)
  })
}

describe('hostile: fetched images under one byte budget (issue 35, item 2)', () => {
  let server: HostileServer
  let images: ChildProcess
  let imageBase: string
  let png: Buffer

  before(async () => {
    // Noise does not compress: a PNG of just under 8 MB (REMOTE_FETCH_MAX_BYTES), 2.5 MP.
    const width = 1600
    const height = 1600
    png = await sharp(crypto.randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer()
    assert.ok(png.length > 7 * MB && png.length <= 8 * MB, `the PNG is ${png.length} bytes`)
    // The remote host is a process of its own: sending 1.4 GB must not delay the /healthz
    // probe, which runs in this one.
    const file = path.join(tempDir('uma-fetch-budget-'), 'noise.png')
    fs.writeFileSync(file, png)
    images = spawn(process.execPath, ['-e', IMAGE_HOST, file], { stdio: ['ignore', 'pipe', 'inherit'] })
    const port = await new Promise<string>((resolve, reject) => {
      images.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()))
      images.once('exit', (code) => reject(new Error(`the image host exited (${code})`)))
    })
    imageBase = `http://127.0.0.1:${port}`
    server = await startHostileServer({ REMOTE_FETCH_ALLOW: '127.0.0.1', DISCORD_CDN_URL: imageBase, REMOTE_FETCH_TIMEOUT_MS: '20000', REMOTE_FETCH_MEMORY: String(BUDGET), WORKER_THREADS: '2', WORK_TIMEOUT_MS: '60000' }, { asNpmStart: true })
  })
  after(async () => {
    await server?.stop()
    images?.kill()
  })

  it('six pictures of ten 8 MB images at once: each 200 or 503 with Retry-After, /healthz answered, the peak within the budget', async (t) => {
    const rest = server.rss()
    const probe = startProbe(server)
    let answers: RawAnswer[] = []
    try {
      answers = await Promise.all(Array.from({ length: PICTURES }, async (_, p) => await post(server, '/gen/custom', {
        base: { type: 'bitmap', width: 400, height: 300, color: '#223344' },
        // Every URL its own: no picture shares another's download or the cache.
        images: Array.from({ length: IMAGES_PER_PICTURE }, (_, i) => ({ url: `${imageBase}/${i % 2 === 0 ? 'sized' : 'chunked'}/${p}-${i}.png`, x: (i % 5) * 80, y: Math.floor(i / 5) * 80, width: 64, height: 64 })),
        // And the 20 custom emoji a picture may fetch, each 8 MB too (DISCORD_CDN_URL is the same host).
        texts: [{ text: Array.from({ length: EMOJI_PER_PICTURE }, (_, i) => `<:e${i}:${p}00${i}>`).join(' '), x: 10, y: 200, size: 20, width: 380 }],
        output: 'png'
      })))
    } finally {
      const report = await probe.stop()
      t.diagnostic(`RSS at rest ${Math.round(rest / MB)} MB, peak ${Math.round(report.peakRss / MB)} MB (+${Math.round((report.peakRss - rest) / MB)} MB), longest /healthz wait ${Math.round(report.maxWaitMs)} ms; answers ${answers.map((a) => a.status).join(', ')} ${answers.find((a) => a.status !== 200 && a.status !== 503)?.body.slice(0, 300) ?? ''}`)
      await assertHealthy(server, report)
      assert.ok(report.peakRss - rest <= BUDGET + MARGIN, `the peak is ${Math.round((report.peakRss - rest) / MB)} MB above rest, more than REMOTE_FETCH_MEMORY (${BUDGET / MB} MB) and ${MARGIN / MB} MB`)
    }
    const served = answers.filter((a) => a.status === 200)
    for (const answer of answers) {
      if (answer.status === 200) {
        assert.equal(answer.headers['content-type'], 'image/png')
        continue
      }
      assertErrorEnvelope(answer, 503, 'RENDER_BUSY')
      assert.match(answer.headers['retry-after'] ?? '', /^[1-9][0-9]*$/, 'an honest Retry-After: whole seconds, at least 1')
      assert.equal(answer.json?.fetchMemoryBytes, BUDGET, `the budget is named: ${answer.body}`)
      assert.equal(answer.json?.retryAfter, Number(answer.headers['retry-after']))
      assert.match(String(answer.json?.message), /REMOTE_FETCH_MEMORY/)
    }
    assert.ok(served.length >= 1, 'at least one picture is drawn')
    assert.ok(served.length < PICTURES, 'six pictures of 80 MB each do not all fit a 64 MB budget at once')

    // The fetched bytes are let go: pictures fetching ten more each are drawn one after the
    // other (the budget would refuse them if the bytes were still held), and the RSS does not
    // ratchet up with the bytes they fetch (80 MB a picture, 480 MB over the six): after
    // each it stays within the burst's bound and one picture's own images more. (It moves by tens of MB
    // between pictures and does not fall back to rest: the remote image cache keeps up to
    // 64 MB, and the drawing threads their own memory.)
    const settled: number[] = []
    for (let round = 0; round < 6; round++) {
      const again = await post(server, '/gen/custom', {
        base: { type: 'bitmap', width: 400, height: 300, color: '#223344' },
        images: Array.from({ length: IMAGES_PER_PICTURE }, (_, i) => ({ url: `${imageBase}/sized/again-${round}-${i}.png`, x: (i % 5) * 80, y: Math.floor(i / 5) * 80, width: 64, height: 64 })),
        output: 'png'
      })
      assert.equal(again.status, 200, again.body.slice(0, 300))
      // jemalloc (npm start's allocator) hands freed pages back within a second.
      await new Promise((resolve) => setTimeout(resolve, 1500))
      settled.push(server.rss())
    }
    t.diagnostic(`RSS after each further picture: ${settled.map((r) => `+${Math.round((r - rest) / MB)}`).join(', ')} MB`)
    const bound = BUDGET + MARGIN + IMAGES_PER_PICTURE * 8 * MB
    for (const rss of settled) assert.ok(rss - rest <= bound, `the RSS reached +${Math.round((rss - rest) / MB)} MB after further pictures, more than ${bound / MB} MB: fetched bytes are kept`)
  })
})
