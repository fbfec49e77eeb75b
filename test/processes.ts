// Starting the real server as a child process, for tests of the process itself and of
// several instances together.
import { type ChildProcess, spawn } from 'node:child_process'
import http from 'node:http'

export interface ServerProcess {
  child: ChildProcess
  port: number
  url: string
  output: () => string
  exited: Promise<number | null>
  stop: () => Promise<number | null>
}

export async function startServerProcess (env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout!.on('data', (d) => { output += d })
  child.stderr!.on('data', (d) => { output += d })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 60_000)
    const check = (): void => {
      const m = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output)
      if (m) { clearTimeout(timer); resolve(Number(m[1])) }
    }
    child.stdout!.on('data', check)
    child.once('exit', () => { clearTimeout(timer); reject(new Error(`server exited: ${output}`)) })
  })
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
export async function until (condition: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

export interface SimpleResponse { status: number, headers: http.IncomingHttpHeaders, body: Buffer }

export function request (url: string, options: { method?: string, headers?: Record<string, string>, body?: string | Buffer } = {}): Promise<SimpleResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (d: Buffer) => chunks.push(d))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}
