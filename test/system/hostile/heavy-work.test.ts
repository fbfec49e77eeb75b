// Issue 14, items 2, 3, 4, 5, 6 and 9, over real sockets against the built server: heavy
// work runs in worker threads within budgets, so whatever one key sends, /healthz keeps
// answering within a second, the hostile request gets a clear envelope (or a correct,
// bounded answer), memory stays under 1 GB, and no work outlives its answer.
import assert from 'node:assert/strict'
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { assertHealthy, cpuLoadAfter, HEALTH_LIMITS, type HostileServer, startHostileServer, startProbe } from './harness.js'
import { assertErrorEnvelope } from '../../support/envelope.js'
import { type RawAnswer, requestBytes } from '../../support/raw-http.js'

/**
 * An answer read whole through Node's HTTP client, as the harness's raw answers are
 * shaped. A body above 1 MB is left as bytes (`json` undefined): parsing it here would
 * hold this process's event loop, and the probe, which runs in it, would count that
 * against the server.
 */
async function send (server: HostileServer, path: string, body: string | object, contentType = 'application/json'): Promise<RawAnswer & { bytes: Buffer }> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body)
  return await new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${path}`, { method: 'POST', agent: false, headers: { authorization: server.key, 'content-type': contentType, 'content-length': Buffer.byteLength(payload) } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks)
        let json: Record<string, unknown> | undefined
        if (text.length <= 1024 * 1024) {
          try { json = JSON.parse(text.toString('utf8')) as Record<string, unknown> } catch { json = undefined }
        }
        const headers: Record<string, string> = {}
        for (const [k, v] of Object.entries(res.headers)) headers[k] = String(v)
        resolve({ status: res.statusCode ?? 0, headers, body: text.length <= 1024 * 1024 ? text.toString('latin1') : '', bytes: text, json, noAnswer: false })
      })
    })
    req.on('error', reject)
    req.end(payload)
  })
}

/** Runs `attack` with the /healthz probe going, then checks the server's health and that its CPU falls idle. */
async function underProbe<T> (server: HostileServer, attack: () => Promise<T>): Promise<T> {
  const probe = startProbe(server)
  let result: T
  try {
    result = await attack()
  } finally {
    await assertHealthy(server, await probe.stop())
  }
  const load = await cpuLoadAfter(server)
  assert.ok(load < HEALTH_LIMITS.maxIdleLoad, `CPU load ${load.toFixed(2)} cores 2 s after the last answer: work outlived its request`)
  return result
}

function assertImage (answer: RawAnswer): void {
  assert.equal(answer.status, 200, answer.body.slice(0, 300))
  assert.match(answer.headers['content-type'] ?? '', /^image\//)
}

describe('hostile heavy work (issue 14)', () => {
  let server: HostileServer
  let images: http.Server
  let imageBase: string

  before(async () => {
    // A 5000×5000 PNG, the largest an image URL may declare (MAX_IMAGE_PIXELS): a few KB on the wire.
    const huge = await sharp({ create: { width: 5000, height: 5000, channels: 3, background: '#3366cc' } }).png().toBuffer()
    images = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'image/png' }); res.end(huge) })
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve))
    imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`
    // A generous job limit: the machine running the suite may be shared; freezes show in the probe, not here.
    server = await startHostileServer({ REMOTE_FETCH_ALLOW: '127.0.0.1', WORKER_THREADS: '2', WORK_TIMEOUT_MS: '60000' })
  })
  after(async () => {
    await server?.stop()
    images?.closeAllConnections()
    images?.close()
  })

  it('item 2: one text of "a " × 2500 at width 1e9 and size 1 draws without freezing (23 s of event loop before)', async () => {
    const answer = await underProbe(server, async () => await send(server, '/gen/custom', { texts: [{ text: 'a '.repeat(2500), width: 1e9, size: 1 }] }))
    assertImage(answer)
  })

  it('item 2: 5000 "漢" at width 3000 draws without freezing (45 s before)', async () => {
    const answer = await underProbe(server, async () => await send(server, '/gen/custom', { base: { width: 3000, height: 3000 }, texts: [{ text: '漢'.repeat(5000), width: 3000 }] }))
    assertImage(answer)
  })

  it('item 2: 50 layers blurred by 5000px are refused before drawing (60 s before), and so are 50 blurred by 100px', async () => {
    const layers = (blur: number) => Array.from({ length: 50 }, (_, i) => ({ type: 'bitmap', width: 3000, height: 3000, color: 'red', rotate: i, filter: `blur(${blur}px)` }))
    await underProbe(server, async () => {
      assertErrorEnvelope(await send(server, '/gen/custom', { base: { width: 3000, height: 3000 }, images: layers(5000) }), 400, 'GEN_LIMIT_EXCEEDED')
      assertErrorEnvelope(await send(server, '/gen/custom', { base: { width: 3000, height: 3000 }, images: layers(100) }), 400, 'GEN_LIMIT_EXCEEDED')
    })
  })

  it('item 3: 32,000 task list items convert in a worker (11 s of event loop before); 400,000 are refused', async () => {
    const converted = await underProbe(server, async () => {
      const answer = await send(server, '/convert/markdown-html', '- [ ] a\n'.repeat(32_000), 'text/plain')
      assertErrorEnvelope(await send(server, '/convert/markdown-html', '- [ ] a\n'.repeat(400_000), 'text/plain'), 413, 'TEXT_BUDGET_EXCEEDED')
      return answer
    })
    assert.equal(converted.status, 200)
    const html = (JSON.parse(converted.bytes.toString('utf8')) as { html: string }).html
    assert.equal(html.split('task-list-item-checkbox').length - 1, 32_000)
  })

  it('item 4: 30 nested block quotes around a <pre> of 0.8 MB are refused at the output budget (a 50 MB answer before)', async () => {
    const html = '<blockquote>'.repeat(30) + '<pre>' + 'x\n'.repeat(400_000) + '</pre>' + '</blockquote>'.repeat(30)
    const answer = await underProbe(server, async () => await send(server, '/convert/html-markdown', html, 'text/html'))
    assertErrorEnvelope(answer, 413, 'TEXT_OUTPUT_TOO_LARGE')
  })

  it('item 4: 3.8 MB of setext headings with headingIds and autolinks are refused (53 MB and 2 GB RSS before)', async () => {
    const answer = await underProbe(server, async () => await send(server, '/convert/markdown-html?headingIds=true&autolinks=true', 'a\n=\n'.repeat(950_000), 'text/plain'))
    assertErrorEnvelope(answer, 413, 'TEXT_BUDGET_EXCEEDED')
  })

  it('item 5: ten 5000×5000 PNGs drawn at 100×100 are refused from their headers (1.3 GB RSS before)', async () => {
    const images = Array.from({ length: 10 }, (_, i) => ({ url: `${imageBase}/ten-${i}.png`, width: 100, height: 100, x: (i % 5) * 100, y: Math.floor(i / 5) * 100 }))
    const answer = await underProbe(server, async () => await send(server, '/gen/custom', { base: { width: 500, height: 200 }, images }))
    assertErrorEnvelope(answer, 413, 'GEN_BUDGET_EXCEEDED')
  })

  it('item 5: four requests at once, each with four 5000×5000 PNGs drawn at 100×100, are drawn from shrunk decodes (4.3 GB RSS before)', async () => {
    const answers = await underProbe(server, async () => await Promise.all(Array.from({ length: 4 }, async (_, r) => {
      const images = Array.from({ length: 4 }, (_, i) => ({ url: `${imageBase}/four-${r}-${i}.png`, width: 100, height: 100, x: i * 100 }))
      return await send(server, '/gen/custom', { output: 'png', base: { width: 400, height: 100 }, images })
    })))
    for (const answer of answers) assertImage(answer)
  })

  it('item 9: negative radius, size and width, 40 × 4999 newlines and global.textSize out of range answer 400, never 500', async () => {
    await underProbe(server, async () => {
      for (const body of [
        { images: [{ type: 'circle', radius: -100 }] },
        { images: [{ color: 'red', size: -10 }] },
        { images: [{ color: 'red', width: -10 }] },
        { texts: [{ texts: Array.from({ length: 40 }, () => '\n'.repeat(4999)) }] },
        { global: { textSize: 1e9 }, texts: [{ text: 'a' }] },
        { global: { textSize: -50 }, texts: [{ text: 'a' }] }
      ]) assertErrorEnvelope(await send(server, '/gen/custom', body), 400, 'GEN_LIMIT_EXCEEDED')
    })
  })
})

describe('item 6: work stops at its deadline, and holds its slot until it has', () => {
  let server: HostileServer

  before(async () => {
    // One thread, a 250 ms deadline and no job limit of its own: only the deadline stops
    // work. Each job below takes at least twice that on one core of the CI machine (the
    // drawing 0.51-0.53 s, the conversion 1.3-1.9 s); a 1 s deadline let a drawing finish
    // first there (regression: 200 instead of 503).
    server = await startHostileServer({ WORKER_THREADS: '1', REQUEST_TIMEOUT_MS: '250', WORK_TIMEOUT_MS: '0' })
  })
  after(async () => { await server?.stop() })

  it('answers 503 TIMEOUT at the deadline, runs at most one job at a time meanwhile, and leaves no work running', async () => {
    // Within every budget, and each more than twice the deadline of work: 59,000 task list
    // items, and 50 rotated full layers encoded as a 3000×3000 WebP, the top one blurred by
    // 100 px (the most a picture may blur): 510 to 530 ms a picture once the thread is warm
    // (28 November 2026, Nodes 20 and 26). Flat triangles as PNG drew and encoded in 80 ms
    // by then, within the 250 ms (regression on Node 26: 200 instead of 503).
    const conversion = '- [ ] a\n'.repeat(59_000)
    // Three different pictures: identical ones would share one drawing (the result cache's
    // single flight), and a request arriving late could then get it within its own deadline.
    const drawing = (k: number) => ({ output: 'webp', base: { width: 3000, height: 3000, color: 'navy' }, images: Array.from({ length: 50 }, (_, i) => ({ type: 'triangle', width: 3000, height: 3000, color: `${i * 5},100,${200 + k}`, rotate: i * 7, ...(i === 49 ? { filter: 'blur(100px)' } : {}) })) })
    const cpuBefore = server.cpuMs()
    const startedAt = performance.now()
    const answers = await underProbe(server, async () => {
      const sent = await Promise.all([
        ...Array.from({ length: 3 }, async () => await send(server, '/convert/markdown-html', conversion, 'text/plain')),
        ...Array.from({ length: 3 }, async (_, k) => await send(server, '/gen/custom', drawing(k)))
      ])
      const load = (server.cpuMs() - cpuBefore) / (performance.now() - startedAt)
      // One worker thread plus the event loop's own share: never two jobs at once.
      assert.ok(load < 1.6, `CPU load ${load.toFixed(2)} cores while the deadlines passed, with WORKER_THREADS=1`)
      return sent
    })
    // Stopped at the deadline (TIMEOUT), or refused at once because the work queued ahead
    // could not finish before it (WORK_BUSY, RENDER_BUSY: src/work/scheduler.ts).
    answers.forEach((answer, i) => assertErrorEnvelope(answer, 503, String(answer.json?.error) === 'TIMEOUT' ? 'TIMEOUT' : i < 3 ? 'WORK_BUSY' : 'RENDER_BUSY'))
    assert.ok(answers.some((answer) => answer.json?.error === 'TIMEOUT'), 'no job ran until its deadline')
    assert.doesNotMatch(server.output(), /Reply was already sent/)
  })
})

describe('heavy work follows its client, not the end of its request body', () => {
  let server: HostileServer

  before(async () => {
    // One thread, no deadline within reach and no job limit: only the client's leaving
    // can stop the work.
    server = await startHostileServer({ WORKER_THREADS: '1', REQUEST_TIMEOUT_MS: '60000', WORK_TIMEOUT_MS: '0' })
  })
  after(async () => { await server?.stop() })

  // 59,000 task list items: about a second of one core (1.3 to 1.9 s on the CI machine).
  const conversion = '- [ ] a\n'.repeat(59_000)

  // Reading the whole body ends the request's stream (Node emits 'close' on it): a signal
  // tied to that event (Fastify 5.12's request.signal) stops every POST's work at once.
  it('answers a POST whose work runs long after its body was read', async () => {
    const answer = await send(server, '/convert/markdown-html', conversion, 'text/plain')
    assert.equal(answer.status, 200, answer.body.slice(0, 300))
    // Over 1 MB, so left as bytes by send(); no probe runs here to mind the parsing.
    const { html } = JSON.parse(answer.bytes.toString('utf8')) as { html: string }
    assert.equal(html.split('<input').length - 1, 59_000)
  })

  it('stops the work of a POST whose client leaves before its answer', async () => {
    const socket = net.connect({ port: server.port, host: '127.0.0.1' })
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.on('error', () => {})
    const cpuBefore = server.cpuMs()
    socket.write(requestBytes({ method: 'POST', target: '/convert/markdown-html', headers: { authorization: server.key, 'content-type': 'text/plain' }, body: conversion }))
    // The job has started once the process has spent a tenth of a second on it.
    const waitStarted = performance.now()
    while (server.cpuMs() - cpuBefore < 100) {
      assert.ok(performance.now() - waitStarted < 10_000, 'the conversion never started')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    socket.destroy()
    // Left running, the job would keep a core busy for most of a second more.
    const load = await cpuLoadAfter(server, 150, 600)
    assert.ok(load < HEALTH_LIMITS.maxIdleLoad, `CPU load ${load.toFixed(2)} cores after the client left: the work went on`)
    // And the server serves the next one.
    assert.equal((await send(server, '/convert/markdown-html', '# ok', 'text/plain')).status, 200)
  })
})
