// The hostile test suite's harness: the built server started as a process, a probe that
// asks /healthz every 100 ms and records the longest wait (a frozen event loop shows
// here), the process's resident memory and CPU time read from /proc, and raw sockets
// for sending exactly the bytes an attacker would.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import { allocatorEnv, serverNodeFlags } from '../../scripts/allocator.mjs'
import { tempDir } from '../helpers.js'
import { startServerProcess, type ServerProcess } from '../processes.js'

export const HOSTILE_KEY = 'hostile-suite-key-0123456789abcdef'

export interface HostileServer extends ServerProcess {
  key: string
  dataDir: string
  /** Resident set size now, in bytes (VmRSS). */
  rss (): number
  /** CPU time the process has used so far (user + system), in milliseconds. */
  cpuMs (): number
}

/** Starts dist/server.js with one key and a fresh data directory. */
export async function startHostileServer (env: Record<string, string> = {}, options: { asNpmStart?: boolean } = {}): Promise<HostileServer> {
  const dataDir = tempDir('uma-hostile-')
  const settings = { DATA_DIR: dataDir, API_KEYS: HOSTILE_KEY, LOG_LEVEL: 'warn', GIF_STARTER_CATALOG: 'false', ...env }
  // asNpmStart: on the allocator and V8 flags `npm start` gives the server (jemalloc when
  // installed), for tests of how much memory the server hands back.
  const server = options.asNpmStart === true
    ? await startServerProcess(allocatorEnv(settings).env as Record<string, string>, { nodeFlags: serverNodeFlags(settings) })
    : await startServerProcess(settings)
  const pid = server.child.pid!
  return {
    ...server,
    key: HOSTILE_KEY,
    dataDir,
    rss: () => readRss(pid),
    cpuMs: () => readCpuMs(pid)
  }
}

function readRss (pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)
  return kb ? Number(kb[1]) * 1024 : 0
}

/** utime + stime of /proc/<pid>/stat (fields 14 and 15), in clock ticks of 10 ms. */
function readCpuMs (pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

export interface ProbeReport {
  /** Longest time a /healthz request waited for its answer, in ms (or until stop, for one never answered). */
  maxWaitMs: number
  /** Probes that failed (connection refused or reset): the process is down or refusing. */
  failures: number
  probes: number
  /** Highest RSS seen while probing, in bytes. */
  peakRss: number
}

/**
 * Asks /healthz every 100 ms on a fresh connection, each probe independent of the
 * previous one (a frozen server accumulates waiting probes, and each one's wait counts),
 * and samples the RSS at the same rhythm.
 */
export function startProbe (server: HostileServer, everyMs = 100): { stop: () => Promise<ProbeReport> } {
  let maxWaitMs = 0
  let failures = 0
  let probes = 0
  let peakRss = server.rss()
  const pending = new Set<{ startedAt: number, req: http.ClientRequest }>()
  const tick = (): void => {
    try { peakRss = Math.max(peakRss, server.rss()) } catch { /* exited: the probes count failures */ }
    const entry = { startedAt: performance.now(), req: undefined as unknown as http.ClientRequest }
    probes++
    entry.req = http.get(`${server.url}/healthz`, { agent: false }, (res) => {
      res.resume()
      res.on('end', () => {
        pending.delete(entry)
        maxWaitMs = Math.max(maxWaitMs, performance.now() - entry.startedAt)
        if (res.statusCode !== 200) failures++
      })
    })
    entry.req.on('error', () => {
      pending.delete(entry)
      failures++
    })
    pending.add(entry)
  }
  const timer = setInterval(tick, everyMs)
  return {
    async stop () {
      clearInterval(timer)
      // Probes still waiting count with the time they have waited so far.
      const now = performance.now()
      for (const entry of pending) {
        maxWaitMs = Math.max(maxWaitMs, now - entry.startedAt)
        entry.req.destroy()
      }
      return { maxWaitMs, failures, probes, peakRss }
    }
  }
}

/**
 * CPU the process burns in the window [from + delayMs, from + delayMs + windowMs]:
 * after the last answer, work that outlived its request shows as CPU time here.
 * Returns the CPU milliseconds used per wall-clock millisecond in that window (1 = one
 * core busy).
 */
export async function cpuLoadAfter (server: HostileServer, delayMs = 2000, windowMs = 1000): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, delayMs))
  const before = server.cpuMs()
  const startedAt = performance.now()
  await new Promise((resolve) => setTimeout(resolve, windowMs))
  return (server.cpuMs() - before) / (performance.now() - startedAt)
}

export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
  /** The body parsed as JSON, when it is JSON. */
  json: Record<string, unknown> | undefined
  /** The server closed the connection without an answer. */
  noAnswer: boolean
}

/**
 * Writes `chunks` to a fresh TCP connection (a number in the list waits that many ms),
 * then half-closes unless `keepOpen`, and reads until the server closes or answers a
 * whole response. Resolves with the parsed answer.
 */
export function sendRaw (port: number, chunks: Array<string | Buffer | number>, options: { keepOpen?: boolean, timeoutMs?: number, host?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: options.host ?? '127.0.0.1' })
    const received: Buffer[] = []
    let done = false
    const finish = (): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resolve(parseAnswer(Buffer.concat(received)))
    }
    const timer = setTimeout(() => {
      if (done) return
      done = true
      socket.destroy()
      reject(new Error(`no answer within ${options.timeoutMs ?? 15_000} ms; received: ${Buffer.concat(received).toString('latin1').slice(0, 200)}`))
    }, options.timeoutMs ?? 15_000)
    socket.on('data', (d: Buffer) => {
      received.push(d)
      if (completeResponse(Buffer.concat(received))) finish()
    })
    socket.on('end', finish)
    socket.on('close', finish)
    socket.on('error', () => finish())
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (done) return
        if (typeof chunk === 'number') await new Promise((resolve) => setTimeout(resolve, chunk))
        else socket.write(chunk)
      }
      if (!options.keepOpen && !done) socket.end()
    })
  })
}

function completeResponse (bytes: Buffer): boolean {
  const text = bytes.toString('latin1')
  const headEnd = text.indexOf('\r\n\r\n')
  if (headEnd < 0) return false
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, headEnd))
  if (length) return bytes.length >= headEnd + 4 + Number(length[1])
  if (/\r\ntransfer-encoding:\s*chunked/i.test(text.slice(0, headEnd))) return text.endsWith('0\r\n\r\n')
  return false
}

function parseAnswer (bytes: Buffer): RawAnswer {
  const text = bytes.toString('utf8')
  const headEnd = text.indexOf('\r\n\r\n')
  if (headEnd < 0) return { status: 0, headers: {}, body: text, json: undefined, noAnswer: true }
  const [statusLine, ...headerLines] = text.slice(0, headEnd).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of headerLines) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  let body = text.slice(headEnd + 4)
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = unchunk(body)
  let json: Record<string, unknown> | undefined
  try { json = JSON.parse(body) as Record<string, unknown> } catch { json = undefined }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, body, json, noAnswer: false }
}

function unchunk (body: string): string {
  let out = ''
  let rest = body
  for (;;) {
    const lineEnd = rest.indexOf('\r\n')
    if (lineEnd < 0) return out
    const size = parseInt(rest.slice(0, lineEnd), 16)
    if (!Number.isFinite(size) || size === 0) return out
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size)
    rest = rest.slice(lineEnd + 2 + size + 2)
  }
}

/** A request as bytes: request line, Host, the given headers, Content-Length for a body. */
export function rawRequest (method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close']
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`)
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) lines.push(`Content-Length: ${Buffer.byteLength(body)}`)
  const head = Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1')
  return body === undefined ? head : Buffer.concat([head, Buffer.from(body)])
}

/** The error envelope every failure must be: status, code equal to it, a message, a stable error code. */
export function assertEnvelope (answer: RawAnswer, status: number, error?: string): void {
  assert.equal(answer.noAnswer, false, 'the server answered')
  assert.equal(answer.status, status, `status ${answer.status}, body ${answer.body.slice(0, 300)}`)
  assert.ok(answer.json, `a JSON body, got ${answer.body.slice(0, 200)}`)
  assert.equal(answer.json.success, false)
  assert.equal(answer.json.code, status)
  assert.equal(typeof answer.json.message, 'string')
  assert.ok((answer.json.message as string).length > 0)
  if (error !== undefined) assert.equal(answer.json.error, error, `error code; message: ${String(answer.json.message)}`)
}

/** What every hostile case checks after its attack: healthy, no freeze, bounded memory, idle CPU. */
export const HEALTH_LIMITS = {
  /** The probe never waits this long for /healthz. */
  maxProbeWaitMs: 1000,
  /** Peak RSS of the server process. */
  maxRssBytes: 1024 * 1024 * 1024,
  /** CPU load (cores) allowed 2 s after the last answer: timers and GC, not a conversion still running. */
  maxIdleLoad: 0.1
}

export async function assertHealthy (server: HostileServer, report: ProbeReport): Promise<void> {
  assert.equal(report.failures, 0, `${report.failures} of ${report.probes} /healthz probes failed: ${server.output().slice(-500)}`)
  assert.ok(report.maxWaitMs < HEALTH_LIMITS.maxProbeWaitMs, `a /healthz probe waited ${Math.round(report.maxWaitMs)} ms`)
  assert.ok(report.peakRss < HEALTH_LIMITS.maxRssBytes, `peak RSS ${Math.round(report.peakRss / 1024 / 1024)} MB`)
  assert.equal(server.child.exitCode, null, 'the server is still running')
}
