// Starting the real server as a child process, for tests of the process itself and of
// several instances together.
import { type ChildProcess, spawn } from 'node:child_process'
import http from 'node:http'
import net from 'node:net'
import path from 'node:path'

/** A port that was free a moment ago (the server binds it right after). */
export function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port
      server.close(() => resolve(port))
    })
  })
}

export interface ServerProcess {
  child: ChildProcess
  port: number
  url: string
  output: () => string
  exited: Promise<number | null>
  stop: () => Promise<number | null>
}

/**
 * Starts the built server (dist/server.js, compiled by scripts/test.mjs before the tests
 * run) and resolves once /healthz answers (whatever LOG_LEVEL says).
 */
export async function startServerProcess (env: Record<string, string>, options: { cwd?: string, nodeFlags?: string[], node?: string } = {}): Promise<ServerProcess> {
  const chosen = await freePort()
  // Absolute: a test may start the server in another working directory (.env lookup).
  // `node`: another Node binary than the one running the test (scripts/node-lts.mjs).
  const child = spawn(options.node ?? process.execPath, [...options.nodeFlags ?? [], path.resolve('dist/server.js')], {
    cwd: options.cwd,
    env: { ...process.env, PORT: String(chosen), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${chosen}`, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout!.on('data', (d) => { output += d })
  child.stderr!.on('data', (d) => { output += d })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const port = chosen
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`)
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`server did not start: ${output}`)
    }
    const up = await request(`http://127.0.0.1:${port}/healthz`).then((r) => r.status === 200, () => false)
    if (up) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
    async stop () {
      if (child.exitCode === null) child.kill('SIGTERM')
      return exited
    }
  }
}

/** Waits for a condition on process output (logs are written asynchronously). */
export async function until (condition: () => boolean | Promise<boolean>, ms = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`${what}: not met within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

export interface SimpleResponse { status: number, headers: http.IncomingHttpHeaders, body: Buffer }

/**
 * One request on a connection of its own. Not through Node's global agent: its kept-alive
 * sockets outlive the server's keep-alive timeout (5 s) whenever a test blocks its event loop
 * (a spawnSync of the CLI on a loaded machine), and the next request then meets a socket
 * the server has closed ("socket hang up").
 */
export function request (url: string, options: { method?: string, headers?: Record<string, string>, body?: string | Buffer } = {}): Promise<SimpleResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (d: Buffer) => chunks.push(d))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}
