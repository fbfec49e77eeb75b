// Normal traffic with and without a hostile mix beside it (issue 14): the same server
// process, the same normal load (random colours, gif picks, a small welcome banner, a
// small image conversion), measured alone and then while one attacker key sends the
// issue's hostile inputs: slow uploads holding conversion places, the drawing and text
// conversion freezes (items 2 to 4), truncated multipart forms, and idle connections.
// Prints throughput and p99 of the normal traffic both ways and their ratios; what the
// hostile requests were answered; the server's peak RSS. Never asserts.
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import { renderStarterGif } from '../src/gifs/starter-art.js'
import { tempDir } from '../test/support/helpers.js'
import { type ServerProcess, startServerProcess } from '../test/support/processes.js'
import { type Benchmark, load, type LoadResult } from './harness.js'

const NORMAL_KEY = 'bench-normal-key-0123456789abcdef'
const HOSTILE_KEY = 'bench-hostile-key-0123456789abcdef'
/** A hostile request still unanswered after this is given up (the socket destroyed). */
const HOSTILE_REQUEST_TIMEOUT_MS = 30_000

type Req = { method?: 'GET' | 'POST', path: string, headers?: Record<string, string>, body?: string | Buffer }

function normalMix (): Req[] {
  const auth = { authorization: NORMAL_KEY }
  const json = { ...auth, 'content-type': 'application/json' }
  return [
    { path: '/color/random', headers: auth },
    { path: '/sfw/gif/hug', headers: auth },
    { method: 'POST', path: '/gen/welcome', headers: json, body: JSON.stringify({ username: 'Newcomer', members: 'Member #42' }) },
    { method: 'POST', path: '/convert/image-webp?quality=80', headers: { ...auth, 'content-type': 'image/gif' }, body: renderStarterGif('wave', 0) }
  ]
}

/** The freezes, each a JSON body (items 2, 3 and 4). */
function freezes (): Array<{ name: string, path: string, body: string }> {
  return [
    { name: 'wrapping (gen/custom, 2,500 words at width 1e9)', path: '/gen/custom', body: JSON.stringify({ output: 'png', base: { type: 'bitmap', width: 300, height: 300, color: 'white' }, texts: [{ text: 'a '.repeat(2500), width: 1e9, size: 1 }] }) },
    { name: 'blur (gen/custom, 50 layers blur(5000px))', path: '/gen/custom', body: JSON.stringify({ output: 'png', base: { type: 'bitmap', width: 3000, height: 3000, color: 'white' }, images: Array.from({ length: 50 }, () => ({ type: 'bitmap', width: 3000, height: 3000, color: 'red', filter: 'blur(5000px)', rotate: 45 })) }) },
    { name: 'task list (markdown-html, 32,000 items)', path: '/convert/markdown-html', body: JSON.stringify({ markdown: '- [ ] a\n'.repeat(32_000) }) },
    { name: 'nested quotes (html-markdown, 30 levels around 20,000 lines)', path: '/convert/html-markdown', body: JSON.stringify({ html: '<blockquote>'.repeat(30) + '<pre>' + 'line of code\n'.repeat(20_000) + '</pre>' + '</blockquote>'.repeat(30) }) }
  ]
}

interface Hostile {
  stop (): void
  /** Answers to hostile requests by kind and status ("408", "503", "none" for no answer). */
  answers: Record<string, Record<string, number>>
}

/** One request, its status (or "none"), destroyed after the timeout. */
function send (port: number, method: string, path: string, headers: Record<string, string>, body: string | Buffer, sockets: Set<net.Socket>): Promise<string> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false }, (res) => {
      res.resume()
      res.on('end', () => { clearTimeout(timer); resolve(String(res.statusCode)) })
      res.on('error', () => { clearTimeout(timer); resolve('none') })
    })
    const timer = setTimeout(() => req.destroy(), HOSTILE_REQUEST_TIMEOUT_MS)
    req.on('socket', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)) })
    req.on('error', () => { clearTimeout(timer); resolve('none') })
    req.end(body)
  })
}

/** Reads one raw exchange: the status of the answer, or "none". */
function raw (port: number, chunks: Array<Buffer | number>, sockets: Set<net.Socket>, isStopped: () => boolean): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    sockets.add(socket)
    let data = ''
    const done = (): void => {
      sockets.delete(socket)
      socket.destroy()
      resolve(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 'none')
    }
    socket.on('data', (d) => { data += d.toString('latin1') })
    socket.on('error', done)
    socket.on('close', done)
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (isStopped() || socket.destroyed) return
        if (typeof chunk === 'number') await new Promise((resolve) => setTimeout(resolve, chunk))
        else socket.write(chunk)
      }
    })
  })
}

/** `freezing`: also the drawing and text conversion freezes (items 2 to 4). */
function startHostile (port: number, freezing: boolean): Hostile {
  let stopped = false
  const sockets = new Set<net.Socket>()
  const answers: Record<string, Record<string, number>> = {}
  const count = (kind: string, status: string): void => {
    answers[kind] ??= {}
    answers[kind][status] = (answers[kind][status] ?? 0) + 1
  }
  const loop = async (kind: string, once: () => Promise<string>, pauseMs = 0): Promise<void> => {
    // eslint-disable-next-line no-unmodified-loop-condition -- set by the timer that ends the run
    while (!stopped) {
      const status = await once()
      if (!stopped) count(kind, status)
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs))
    }
  }
  const head = (path: string, headers: Record<string, string>): Buffer => Buffer.from([`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n') + '\r\n\r\n', 'latin1')
  // Ten slow uploads, reopened as soon as one is cut off (issue 14, item 7).
  const trickle: Array<Buffer | number> = [head('/convert/image-png', { authorization: HOSTILE_KEY, 'content-length': '1000000' })]
  for (let i = 0; i < 15; i++) trickle.push(Buffer.alloc(100, 1), 2000)
  for (let i = 0; i < 10; i++) void loop('slow upload', () => raw(port, trickle, sockets, () => stopped))
  // The freezes, one of each at a time.
  for (const freeze of freezing ? freezes() : []) {
    void loop(freeze.name, () => send(port, 'POST', freeze.path, { authorization: HOSTILE_KEY, 'content-type': 'application/json' }, freeze.body, sockets))
  }
  // A multipart form cut off inside its file part (item 1), five a second.
  const partHead = '--B\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n'
  const cut = Buffer.concat([Buffer.from(partHead, 'latin1'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])])
  void loop('truncated multipart', () => send(port, 'POST', '/convert/image-png', { authorization: HOSTILE_KEY, 'content-type': 'multipart/form-data; boundary=B' }, cut, sockets), 200)
  // 200 idle connections that never send a byte, reopened when closed (item 8).
  for (let i = 0; i < 200; i++) void loop('idle connection', () => raw(port, [], sockets, () => stopped), 100)
  return {
    answers,
    stop () {
      stopped = true
      for (const socket of sockets) socket.destroy()
    }
  }
}

/** Peak resident set size of a process (VmHWM), in MiB. */
function peakRssMiB (pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024
  } catch {
    return 0
  }
}

async function stopHard (server: ServerProcess): Promise<void> {
  const killer = setTimeout(() => server.child.kill('SIGKILL'), 10_000)
  await server.stop()
  clearTimeout(killer)
}

const bench: Benchmark = {
  name: 'Hostile mix (issue 14): normal traffic alone and beside an attacker',
  async run ({ duration }) {
    const dir = tempDir('uma-hostile-bench-')
    const server = await startServerProcess({ DATA_DIR: dir, LOG_LEVEL: 'warn', API_KEYS: `${NORMAL_KEY},${HOSTILE_KEY}`, RATE_LIMIT_MAX: '1000000000' })
    const requests = normalMix()
    const connections = 8
    let alone: LoadResult
    let besideEdge: LoadResult
    let beside: LoadResult
    let edge: Hostile | undefined
    let hostile: Hostile | undefined
    try {
      alone = await load({ url: server.url, requests, connections, duration })
      // First the connection-level attacks alone, then everything (the freezes last: a
      // server that freezes may not come back within the run).
      edge = startHostile(server.port, false)
      await new Promise((resolve) => setTimeout(resolve, 2000))
      besideEdge = await load({ url: server.url, requests, connections, duration })
      edge.stop()
      hostile = startHostile(server.port, true)
      // The attack settles in first (slow uploads admitted, freezes under way).
      await new Promise((resolve) => setTimeout(resolve, 2000))
      beside = await load({ url: server.url, requests, connections, duration })
    } finally {
      edge?.stop()
      hostile?.stop()
    }
    const alive = server.child.exitCode === null
    const rss = peakRssMiB(server.child.pid!)
    await stopHard(server)
    fs.rmSync(dir, { recursive: true, force: true })
    const kinds = `${requests.length} kinds of request, ${connections} connections`
    const codes = (r: LoadResult) => JSON.stringify(r.statusCodes)
    return [
      { name: `normal traffic: throughput beside slow uploads, truncated forms and idle connections (${kinds})`, ours: besideEdge.requestsPerSec, reference: alone.requestsPerSec, referenceName: 'alone', unit: 'req/s', better: 'higher', note: `answers beside ${codes(besideEdge)}; socket errors/timeouts ${besideEdge.errors}` },
      { name: 'normal traffic: latency p99 beside slow uploads, truncated forms and idle connections', ours: besideEdge.latencyP99, reference: alone.latencyP99, referenceName: 'alone', unit: 'ms', better: 'lower', note: `p50 alone ${alone.latencyP50} ms, beside ${besideEdge.latencyP50} ms` },
      { name: 'connection-level hostile requests answered, by kind and status', ours: Object.values(edge!.answers).reduce((s, a) => s + Object.values(a).reduce((x, y) => x + y, 0), 0), unit: 'answers', better: 'higher', note: JSON.stringify(edge!.answers) },
      { name: `normal traffic: throughput with the whole hostile mix beside it, freezes included (${kinds})`, ours: beside.requestsPerSec, reference: alone.requestsPerSec, referenceName: 'alone', unit: 'req/s', better: 'higher', note: `answers alone ${codes(alone)}; beside ${codes(beside)}; socket errors/timeouts ${alone.errors} / ${beside.errors}` },
      { name: 'normal traffic: latency p99 with the hostile mix beside it', ours: beside.latencyP99, reference: alone.latencyP99, referenceName: 'alone', unit: 'ms', better: 'lower', note: `p50 alone ${alone.latencyP50} ms, beside ${beside.latencyP50} ms` },
      { name: 'hostile requests answered, by kind and status', ours: Object.values(hostile!.answers).reduce((s, a) => s + Object.values(a).reduce((x, y) => x + y, 0), 0), unit: 'answers', better: 'higher', note: JSON.stringify(hostile!.answers) },
      { name: `server peak RSS; process ${alive ? 'still running' : 'EXITED'} after the attack`, ours: rss, unit: 'MiB', better: 'lower' }
    ]
  }
}
export default bench
