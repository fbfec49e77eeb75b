// Bursts are served, not refused (the built server over real sockets, default admission
// settings): a lone bot's burst of conversions, welcome cards or Markdown documents is
// queued and answered, and another key's request is served in fair order meanwhile.
// Counts and order are asserted here; times and ratios are the bench's
// (npm run bench -- bursts). The rate limit is raised: it is not what is measured.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { request, type ServerProcess, type SimpleResponse, startServerProcess } from '../../support/processes.js'

const KEY_A = 'bursts-key-a-0123456789'
const KEY_B = 'bursts-key-b-0123456789'

/** A photo-like JPEG (noise compresses and converts like a photograph, the costly case). */
async function photo (width: number, height: number): Promise<Buffer> {
  return await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg({ quality: 85 }).toBuffer()
}

describe('bursts from one key are served, not refused', () => {
  let server: ServerProcess
  let dataDir: string
  const send = async (key: string, url: string, body: Buffer | string, type: string): Promise<SimpleResponse> =>
    await request(`${server.url}${url}`, { method: 'POST', headers: { authorization: key, 'content-type': type }, body })
  const statuses = (answers: SimpleResponse[]): string[] => answers.map((a) => a.status === 200 ? '200' : `${a.status} ${a.body.toString().slice(0, 160)}`)

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bursts-'))
    server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: `${KEY_A},${KEY_B}`, LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '1000000' })
  })
  after(async () => {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('answers 20 concurrent 800×600 JPEG → WebP conversions of one key, all 200 (2 then 18 × 429 before)', async () => {
    const input = await photo(800, 600)
    const answers = await Promise.all(Array.from({ length: 20 }, async () => await send(KEY_A, '/convert/image-webp', input, 'image/jpeg')))
    assert.deepEqual(statuses(answers), Array(20).fill('200'))
    for (const a of answers) assert.equal(a.headers['content-type'], 'image/webp')
  })

  it('answers 60 concurrent welcome cards of one key, all 200 (26 × 503 before)', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, async (_, i) => await send(KEY_A, '/gen/welcome', JSON.stringify({ username: `member ${i}`, members: `Member #${i}` }), 'application/json')))
    assert.deepEqual(statuses(answers), Array(60).fill('200'))
    for (const a of answers) assert.equal(a.headers['content-type'], 'image/png')
  })

  it('answers 60 concurrent 10 KB Markdown documents of one key, all 200 (26 × 503 before)', async () => {
    const markdown = Array.from({ length: 120 }, (_, i) => `## Part ${i}\n\nSome *text* with a [link](https://example.com/${i}) and \`code\`.\n`).join('\n').slice(0, 10 * 1024)
    const answers = await Promise.all(Array.from({ length: 60 }, async () => await send(KEY_A, '/convert/markdown-html', JSON.stringify({ markdown }), 'application/json')))
    assert.deepEqual(statuses(answers), Array(60).fill('200'))
    for (const a of answers) assert.match(String(JSON.parse(a.body.toString()).html), /<h2[^>]*>Part 0<\/h2>/)
  })

  it('serves key A\'s 40 concurrent 1600×1200 conversions, all 200, and key B\'s one among A\'s first answers (2 × 200 and 38 × 429 for A before)', async () => {
    const big = await photo(1600, 1200)
    const small = await photo(800, 600)
    const order: string[] = []
    const burst = Array.from({ length: 40 }, async (_, i) => {
      const answer = await send(KEY_A, '/convert/image-jpg', big, 'image/jpeg')
      order.push(`A${i}`)
      return answer
    })
    // B comes once A's burst is under way: after A's first answer, the rest of A's queued.
    await Promise.race(burst)
    const b = send(KEY_B, '/convert/image-jpg', small, 'image/jpeg').then((answer) => { order.push('B'); return answer })
    const answers = await Promise.all(burst)
    assert.deepEqual(statuses(answers), Array(40).fill('200'))
    assert.equal((await b).status, 200)
    // Fair order: B waits for about one of A's jobs per lane, not for A's burst.
    const place = order.indexOf('B')
    assert.ok(place >= 0 && place < 10, `B was answered after ${place} of A's 40: ${order.join(' ')}`)
  })
})

describe('the first key is the operator\'s: limited by the machine, not by RATE_LIMIT_MAX', () => {
  let server: ServerProcess
  let dataDir: string

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-operator-key-'))
    // Default limits: keys handed out get 100 units a minute, a picture costs 5.
    server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' })
  })
  after(async () => {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('prints the key once, says what limits it and other keys have, and serves 30 welcome cards at once (150 units) with it', async () => {
    const printed = server.output()
    const key = /Authorization: (um_[A-Za-z0-9_-]+)/.exec(printed)?.[1]
    assert.ok(key, printed)
    assert.match(printed, /operator's key: the machine's capacity is its only limit/)
    assert.match(printed, /Keys you\s+create get 100 units per 60 s \(RATE_LIMIT_MAX, RATE_LIMIT_WINDOW; a picture costs 5\)/)
    const answers = await Promise.all(Array.from({ length: 30 }, async (_, i) =>
      await request(`${server.url}/gen/welcome`, { method: 'POST', headers: { authorization: key, 'content-type': 'application/json' }, body: JSON.stringify({ username: `guest ${i}` }) })))
    assert.deepEqual(answers.map((a) => a.status), Array(30).fill(200))
  })
})
