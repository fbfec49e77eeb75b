// The built server on every supported Node (issue 36): the Node running this test, and
// Node 24 and 26 LTS from the npm registry when scripts/node-lts.mjs has installed them
// (npm test does). better-sqlite3 12 aborted on Node 24.19+ when a statement was collected after
// its environment had gone (`Assertion failed: (env) != nullptr`): at exit, and with
// worker threads during normal use. Thousands of requests that look keys up, write usage
// batches and keep the drawing and text worker threads busy, then a SIGTERM: the process
// must end by itself with code 0, not by a signal. The cards take their avatar from a
// local image server, still and animated: Node 21+ refused to hand sharp's decoded
// pixels to the drawing thread (DataCloneError, a 500 for every card with an avatar).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { EXTRA_NODE_VERSIONS, installedNode } from '../../../scripts/node-lts.mjs'
import { tempDir } from '../../support/helpers.js'
import { request, startServerProcess } from '../../support/processes.js'

const KEY = 'um_node-runtimes-test-key-0001'
const CONVERSIONS = 2400
const CARDS = 60
const CONCURRENCY = 8

const runtimes = new Map<string, string>([[process.versions.node, process.execPath]])
for (const version of Object.values(EXTRA_NODE_VERSIONS)) {
  const node = installedNode(version)
  if (node) runtimes.set(version, node)
}

const dirs: string[] = []
let images: http.Server
let origin: string
before(async () => {
  const still = await sharp({ create: { width: 128, height: 128, channels: 3, background: '#3366cc' } }).png().toBuffer()
  const frames = Buffer.alloc(64 * 64 * 4 * 4)
  for (let i = 0; i < frames.length; i += 4) frames.set([(i >> 12) * 60, 120, 200, 255], i)
  const animated = await sharp(frames, { raw: { width: 64, height: 64 * 4, channels: 4, pageHeight: 64 } }).gif({ delay: [80, 80, 80, 80], loop: 0 }).toBuffer()
  images = http.createServer((req, res) => {
    const file = (req.url ?? '').split('?')[0]
    const body = file === '/still.png' ? still : file === '/animated.gif' ? animated : undefined
    if (!body) { res.writeHead(404); res.end(); return }
    res.writeHead(200, { 'content-type': file === '/still.png' ? 'image/png' : 'image/gif' })
    res.end(body)
  })
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`
})
after(() => {
  images?.closeAllConnections()
  images?.close()
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

for (const [version, node] of runtimes) {
  describe(`the built server on Node ${version}`, () => {
    it('serves thousands of requests with worker threads and the SQLite store, then stops on SIGTERM with code 0', async (t) => {
      const dataDir = tempDir('uma-node-runtimes-')
      dirs.push(dataDir)
      const server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, GIF_STARTER_CATALOG: 'false', REMOTE_FETCH_ALLOW: '127.0.0.1', RATE_LIMIT_MAX: '1000000', USAGE_FLUSH_MS: '100', LOG_LEVEL: 'warn' }, { node })
      const ended = new Promise<{ code: number | null, signal: NodeJS.Signals | null }>((resolve) => server.child.once('exit', (code, signal) => resolve({ code, signal })))
      // A failed assertion before the SIGTERM below must not leave the server running.
      t.after(() => { if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL') })
      // A 503 is the server shedding load (the cores are shared with other test files):
      // retried after its Retry-After, as the clients do; anything else is the answer.
      let shed = 0
      const post = async (p: string, body: unknown): Promise<number> => {
        for (let attempt = 1; ; attempt++) {
          const res = await request(`${server.url}${p}`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) })
          if (res.status !== 503 || attempt === 5) return res.status
          shed++
          await new Promise((resolve) => setTimeout(resolve, 1000 * Number(res.headers['retry-after'] ?? 1)))
        }
      }

      const jobs: Array<() => Promise<number>> = []
      for (let i = 0; i < CONVERSIONS; i++) {
        jobs.push(i % 2 === 0
          ? async () => await post('/convert/markdown-html', { markdown: `# Note ${i}\n\n- [x] **done** ${'text '.repeat(i % 50)}` })
          : async () => await post('/convert/html-markdown', { html: `<h1>Note ${i}</h1><p>${'<em>text</em> '.repeat(i % 50)}</p>` }))
      }
      // A third with no avatar, a third a still one, a third an animated one drawn as a GIF.
      const card = (i: number): Record<string, string> => i % 3 === 0
        ? {}
        : i % 3 === 1 ? { avatar: `${origin}/still.png?${i}` } : { avatar: `${origin}/animated.gif?${i}`, animated: 'true', output: 'gif' }
      for (let i = 0; i < CARDS; i++) jobs.splice(i * 40, 0, async () => await post('/gen/welcome', { username: `member ${i}`, members: `Member #${i}`, ...card(i) }))
      const statuses = new Map<number, number>()
      let next = 0
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        while (next < jobs.length) {
          const status = await jobs[next++]!()
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
        }
      }))
      assert.deepEqual([...statuses], [[200, CONVERSIONS + CARDS]], `every request answered 200 on Node ${version} (${shed} shed with 503 and retried)`)
      t.diagnostic(`${shed} answers of 503 (load shed) retried`)
      const usage = await request(`${server.url}/me`, { headers: { authorization: KEY } })
      assert.equal(usage.status, 200, usage.body.toString())
      const counted = (JSON.parse(usage.body.toString()) as { usage: { today: Record<string, { requests: number }> } }).usage.today
      assert.deepEqual({ conversion: counted.conversion?.requests, generation: counted.generation?.requests }, { conversion: CONVERSIONS, generation: CARDS }, 'usage written in batches to SQLite')

      server.child.kill('SIGTERM')
      const { code, signal } = await ended
      const output = server.output()
      assert.equal(signal, null, `ended by ${String(signal)}: ${output.slice(-2000)}`)
      assert.equal(code, 0, `exit code ${String(code)}: ${output.slice(-2000)}`)
      assert.doesNotMatch(output, /Assertion failed|FATAL ERROR/, 'no abort on the way out')
    })
  })
}
