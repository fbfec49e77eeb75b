// The event loop's heap after requests, read from outside: the built server started as
// `npm start` starts it (--expose-gc, the same young generation) compacts its heap once
// requests have stopped for QUIET_COLLECT_MS after they grew it, instead of holding it
// until V8's memory reducer runs, 8 s after its last full collection at the earliest
// (src/runtime/garbage.ts, createQuietCollector; docs/memory.md). The heap's size is the
// one Prometheus reads (METRICS_PORT, Node's default nodejs_heap_size_total_bytes).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { serverNodeFlags } from '../../../scripts/allocator.mjs'
import { freePort, request, type ServerProcess, startServerProcess } from '../../support/processes.js'

const KEY = 'quiet-collection-key-0123456789'
const MB = 1024 * 1024
/** What the collection must give back of the heap the requests grew (one request of each kind leaves about 8 MB). */
const GIVEN_BACK_BYTES = 3 * MB
/** Well within V8's own memory reducer's 8 s, well above the quiet second and a collection. */
const WITHIN_MS = 4000

describe('the event loop\'s heap after requests', () => {
  let server: ServerProcess
  let dataDir: string
  let metricsUrl: string
  const heapTotal = async (): Promise<number> => {
    const text = (await request(`${metricsUrl}/metrics`)).body.toString()
    return Number(/^nodejs_heap_size_total_bytes (\d+)/m.exec(text)![1])
  }

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-quiet-collection-'))
    const metricsPort = await freePort()
    metricsUrl = `http://127.0.0.1:${metricsPort}`
    const env = { DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '1000000', METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' }
    server = await startServerProcess(env, { nodeFlags: serverNodeFlags(env) })
  })
  after(async () => {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('gives back what a run of requests grew it by within seconds of the last one', async () => {
    const headers = { authorization: KEY, 'content-type': 'application/json' }
    const document = (i: number): string => Array.from({ length: 120 }, (_, j) => `## Part ${i}.${j}\n\nSome *text* with a [link](https://example.com/${i}/${j}) and \`code\`.\n`).join('\n')
    const round = async (i: number): Promise<void> => {
      const answers = await Promise.all([
        request(`${server.url}/convert/markdown-html`, { method: 'POST', headers, body: JSON.stringify({ markdown: document(i) }) }),
        request(`${server.url}/color/info?hex=${(i * 40503).toString(16).padStart(6, '0').slice(-6)}`, { headers: { authorization: KEY } }),
        request(`${server.url}/sfw/gif/hug`, { headers: { authorization: KEY } })
      ])
      assert.deepEqual(answers.map((a) => a.status), [200, 200, 200])
    }
    // The heap with every route's code loaded, once a first quiet spell has passed.
    await round(0)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const before = await heapTotal()
    for (let i = 1; i <= 60; i++) await round(i)
    const grown = await heapTotal()
    // Back near where it was (within the collector's 4 MB threshold: the event loop's share
    // of a request shrank when the text threads began writing their own answers), or at
    // least GIVEN_BACK_BYTES given back: a server that kept what the run grew fails both.
    const target = Math.max(before + 4 * MB, grown - GIVEN_BACK_BYTES)
    const end = Date.now() + WITHIN_MS
    let now = grown
    while (now > target && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      now = await heapTotal()
    }
    assert.ok(now <= target, `the heap is ${(now / MB).toFixed(1)} MB ${WITHIN_MS / 1000} s after the requests, ${(grown / MB).toFixed(1)} MB right after them, ${(before / MB).toFixed(1)} MB before them`)
  })
})
