// The result cache over real sockets against the built server (issue 38, item 4), with
// default settings: 30 concurrent first requests of one picture draw it once; a restart
// serves what was kept; a damaged entry is drawn again, never served; and, with a small
// RESULT_CACHE_MAX_BYTES, the folder stays within it. Counts, statuses and bytes only:
// the speed of a hit is the bench's (npm run bench -- links).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { freePort, request, type ServerProcess, type SimpleResponse, startServerProcess } from '../../support/processes.js'

const KEY = 'result-cache-key-0123456789'

/** A Prometheus counter or gauge without labels, read from /metrics. */
async function metric (metricsUrl: string, name: string): Promise<number> {
  const text = (await request(`${metricsUrl}/metrics`)).body.toString()
  const line = text.split('\n').find((l) => l.startsWith(`${name} `))
  assert.ok(line !== undefined, `${name} in /metrics`)
  return Number(line.split(' ')[1])
}

/** The files of the cache's folder (entries, and a temporary file being renamed into one): their count and bytes. */
function entries (dataDir: string): { count: number, bytes: number } {
  const dir = path.join(dataDir, 'result-cache')
  let count = 0
  let bytes = 0
  for (const shard of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    for (const name of fs.readdirSync(path.join(dir, shard))) {
      // Renamed or deleted between the listing and the stat: counted where it went, or gone.
      const stat = fs.statSync(path.join(dir, shard, name), { throwIfNoEntry: false })
      if (stat === undefined) continue
      count++
      bytes += stat.size
    }
  }
  return { count, bytes }
}

const entryFile = (dataDir: string, answer: SimpleResponse): string => {
  const address = String(answer.headers.etag).replaceAll('"', '')
  return path.join(dataDir, 'result-cache', address.slice(0, 2), address)
}

describe('the result cache of the built server (default settings)', () => {
  let server: ServerProcess
  let dataDir: string
  let metricsUrl: string
  let env: Record<string, string>
  const welcome = { username: 'Cached Once', members: 'Member #30' }
  const post = async (body: unknown): Promise<SimpleResponse> =>
    await request(`${server.url}/gen/welcome`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  let original: Buffer

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-result-cache-'))
    const metricsPort = await freePort()
    metricsUrl = `http://127.0.0.1:${metricsPort}`
    env = { DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn', METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' }
    server = await startServerProcess(env)
  })
  after(async () => {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('answers 30 concurrent first requests of one new picture with 30 × 200 and identical bytes, drawn once: one X-Cache: miss', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, async () => await post(welcome)))
    assert.deepEqual(answers.map((a) => a.status), Array(30).fill(200), answers.map((a) => a.body.toString().slice(0, 200)).join('\n'))
    original = answers[0]!.body
    assert.equal(original.subarray(1, 4).toString(), 'PNG')
    for (const a of answers) assert.ok(a.body.equals(original))
    const outcomes = answers.map((a) => String(a.headers['x-cache']))
    assert.deepEqual([outcomes.filter((o) => o === 'miss').length, outcomes.filter((o) => o === 'hit').length], [1, 29])
    assert.equal(new Set(answers.map((a) => a.headers.etag)).size, 1)
    assert.equal(await metric(metricsUrl, 'result_cache_misses_total'), 1)
    assert.equal(await metric(metricsUrl, 'result_cache_hits_total'), 29)
    // Written once the drawing ended: one entry, counted as held.
    for (let i = 0; i < 200 && entries(dataDir).count === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10))
    assert.equal(entries(dataDir).count, 1)
    assert.equal(await metric(metricsUrl, 'result_cache_bytes'), entries(dataDir).bytes)
  })

  it('serves the kept entries after a restart', async () => {
    await server.stop()
    server = await startServerProcess(env)
    const again = await post(welcome)
    assert.equal(again.status, 200)
    assert.equal(again.headers['x-cache'], 'hit')
    assert.ok(again.body.equals(original))
    assert.equal(await metric(metricsUrl, 'result_cache_misses_total'), 0)
    assert.equal(await metric(metricsUrl, 'result_cache_hits_total'), 1)
  })

  it('draws a damaged entry again and never serves it', async () => {
    // A picture drawn and not asked again since: its entry is on disk only (one served
    // from the disk is kept in memory too, and would be served from there).
    const card = { username: 'Damaged Later', members: 'Member #31' }
    const first = await post(card)
    assert.deepEqual([first.status, first.headers['x-cache']], [200, 'miss'])
    const file = entryFile(dataDir, first)
    for (let i = 0; i < 200 && !fs.existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 10))
    const bytes = fs.readFileSync(file)
    // A byte of the picture changed on disk: the entry's SHA-256 no longer matches.
    bytes[bytes.length - 100]! ^= 0xff
    fs.writeFileSync(file, bytes)
    const drawn = await post(card)
    assert.equal(drawn.status, 200)
    assert.equal(drawn.headers['x-cache'], 'miss')
    assert.ok(drawn.body.equals(first.body), 'drawn again: the same bytes as the first drawing, not the damaged ones')
    // Cut short (a torn write): drawn again too.
    for (let i = 0; i < 200 && !fs.existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 10))
    fs.truncateSync(file, 200)
    const again = await post(card)
    assert.deepEqual([again.status, again.headers['x-cache']], [200, 'miss'])
    assert.ok(again.body.equals(first.body))
    for (let i = 0; i < 200 && fs.statSync(file, { throwIfNoEntry: false })?.size === 200; i++) await new Promise((resolve) => setTimeout(resolve, 10))
    const hit = await post(card)
    assert.deepEqual([hit.status, hit.headers['x-cache']], [200, 'hit'])
    assert.ok(hit.body.equals(first.body))
  })
})

describe('a result cache filled past RESULT_CACHE_MAX_BYTES', () => {
  const MAX = 128 * 1024
  let server: ServerProcess
  let dataDir: string
  let metricsUrl: string

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-result-cache-full-'))
    const metricsPort = await freePort()
    metricsUrl = `http://127.0.0.1:${metricsPort}`
    server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '1000000', RESULT_CACHE_MAX_BYTES: String(MAX), METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' })
  })
  after(async () => {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('keeps the folder within it, the least recently used going first', async () => {
    const picture = (i: number) => ({ output: 'png', base: { width: 160, height: 120, color: `rgb(${i * 5}, 40, 90)` }, texts: [{ text: `picture ${i} ${'▓'.repeat(i % 7)}`, x: 4, y: 60, size: 18 }] })
    const draw = async (i: number): Promise<SimpleResponse> => await request(`${server.url}/gen/custom`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body: JSON.stringify(picture(i)) })
    let written = 0
    for (let i = 0; i < 60; i++) {
      const answer = await draw(i)
      assert.equal(answer.status, 200)
      assert.equal(answer.headers['x-cache'], 'miss')
      written += answer.body.length
      // Its entry is written after the answer: the next request's check sees the folder with it.
      const held = entries(dataDir)
      assert.ok(held.bytes <= MAX, `${held.bytes} bytes in ${held.count} entries after ${i + 1} pictures (max ${MAX})`)
    }
    assert.ok(written > 2 * MAX, `${written} bytes drawn: the test must overfill the cache`)
    for (let i = 0; i < 200 && (await metric(metricsUrl, 'result_cache_bytes')) !== entries(dataDir).bytes; i++) await new Promise((resolve) => setTimeout(resolve, 10))
    const held = entries(dataDir)
    assert.ok(held.bytes <= MAX && held.count > 0)
    assert.equal(await metric(metricsUrl, 'result_cache_bytes'), held.bytes)
    assert.equal(await metric(metricsUrl, 'result_cache_entries'), held.count)
    assert.ok(await metric(metricsUrl, 'result_cache_evictions_total') >= 60 - held.count - 1)
    // The last one is kept, the first is long gone.
    assert.equal((await draw(59)).headers['x-cache'], 'hit')
    assert.equal((await draw(0)).headers['x-cache'], 'miss')
  })
})

describe('a request that leaves while the picture it started is drawn', () => {
  let server: ServerProcess
  let dataDir: string
  let metricsUrl: string

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-result-cache-leave-'))
    const metricsPort = await freePort()
    metricsUrl = `http://127.0.0.1:${metricsPort}`
    // One drawing thread: a large picture holds it while the card waits in the queue.
    server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '1000000', WORKER_THREADS: '1', WORK_TIMEOUT_MS: '0', METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' })
  })
  after(async () => {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  /** Jobs of the drawing threads running and queued (work_running, work_queue_length). */
  async function drawingJobs (): Promise<[number, number]> {
    const text = (await request(`${metricsUrl}/metrics`)).body.toString()
    const read = (name: string): number => Number(text.split('\n').find((l) => l.startsWith(`${name}{queue="work"}`))?.split(' ')[1] ?? 0)
    return [read('work_running'), read('work_queue_length')]
  }

  it('does not stop the drawing for the request still waiting, which is answered its bytes (X-Cache: hit)', async () => {
    const send = (url: string, body: unknown) => request(`${server.url}${url}`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    // About a second of the only thread (50 rotated 3000×3000 layers).
    const large = send('/gen/custom', { output: 'png', base: { width: 3000, height: 3000, color: 'navy' }, images: Array.from({ length: 50 }, (_, i) => ({ type: 'triangle', width: 3000, height: 3000, color: `${i * 5},100,200`, rotate: i * 7 })) })
    const card = JSON.stringify({ username: 'Left Early', members: 'Member #7' })
    // The first request of the card, on a socket the test closes once it waits.
    const first = http.request(`${server.url}/gen/welcome`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, agent: false })
    const firstOutcome = new Promise<string>((resolve) => {
      first.on('response', (res) => resolve(`answered ${res.statusCode}`))
      first.on('error', () => resolve('left'))
    })
    first.end(card)
    for (let i = 0; i < 500 && (await drawingJobs()).join() !== '1,1'; i++) await new Promise((resolve) => setTimeout(resolve, 5))
    assert.deepEqual(await drawingJobs(), [1, 1], 'the large picture runs, the card waits for the thread')
    const second = send('/gen/welcome', JSON.parse(card))
    // The second request has joined the card's drawing: still one job queued.
    await new Promise((resolve) => setTimeout(resolve, 100))
    first.destroy()
    assert.equal(await firstOutcome, 'left')
    await new Promise((resolve) => setTimeout(resolve, 100))
    assert.deepEqual(await drawingJobs(), [1, 1], 'the card\'s drawing still waits: the other request wants it')
    const answer = await second
    assert.equal(answer.status, 200, answer.body.toString().slice(0, 200))
    assert.equal(answer.headers['x-cache'], 'hit')
    assert.equal(answer.body.subarray(1, 4).toString(), 'PNG')
    assert.equal((await large).status, 200)
    assert.equal(await metric(metricsUrl, 'result_cache_misses_total'), 2)
    assert.equal(await metric(metricsUrl, 'result_cache_hits_total'), 1)
  })
})
