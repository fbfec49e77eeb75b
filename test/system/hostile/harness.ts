// The hostile test suite's harness: the built server started as a process, a probe that
// asks /healthz every 100 ms and records the longest wait (a frozen event loop shows
// here), the process's resident memory and CPU time read from /proc, and raw sockets
// for sending exactly the bytes an attacker would.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import { allocatorEnv, serverNodeFlags } from '../../../scripts/allocator.mjs'
import { tempDir } from '../../support/helpers.js'
import { startServerProcess, type ServerProcess } from '../../support/processes.js'

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
