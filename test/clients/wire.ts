// Exact bytes on a socket, for the client replay tests (test/clients/): what each
// existing client sends (docs/compatibility.md), written by hand so that nothing (no
// HTTP library) adds, drops or reorders a header. The answer is read back raw and
// parsed here: status line, headers, body (Content-Length, chunked, or until close).
import fs from 'node:fs'
import net from 'node:net'
import { tempDir } from '../helpers.js'
import { type ServerProcess, startServerProcess } from '../processes.js'

/** A key in the hosted service's style (`FP-...`); its prefix means nothing to us. */
export const KEY = 'FP-replay0123456789abcdef'

export interface WireAnswer {
  status: number
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>
  body: Buffer
}

export interface WireRequest {
  method: string
  /** The request target exactly as sent (`//gen/welcome`, `/color/info?hex=`). */
  target: string
  /** Header lines in order, exactly as sent, after Host and Connection: close. */
  headers?: Array<[string, string]>
  /** Sent after the headers; Content-Length is added when a body is given. */
  body?: string | Buffer
}

/** Writes the request's bytes to a fresh connection and reads the whole answer. */
export async function send (port: number, req: WireRequest): Promise<WireAnswer> {
  const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8')
  const lines = [`${req.method} ${req.target} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close']
  for (const [name, value] of req.headers ?? []) lines.push(`${name}: ${value}`)
  if (body !== undefined) lines.push(`Content-Length: ${body.length}`)
  const head = Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1')
  const raw = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.write(body === undefined ? head : Buffer.concat([head, body]))
    })
    socket.on('data', (d: Buffer) => chunks.push(d))
    socket.on('end', () => resolve(Buffer.concat(chunks)))
    socket.on('error', reject)
  })
  return parseAnswer(raw)
}

function parseAnswer (raw: Buffer): WireAnswer {
  const end = raw.indexOf('\r\n\r\n')
  if (end < 0) throw new Error(`no complete answer: ${raw.toString('latin1').slice(0, 200)}`)
  const [statusLine, ...headerLines] = raw.subarray(0, end).toString('latin1').split('\r\n')
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1])
  const headers: Record<string, string> = {}
  for (const line of headerLines) {
    const colon = line.indexOf(':')
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
  }
  let body = raw.subarray(end + 4)
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const parts: Buffer[] = []
    let at = 0
    for (;;) {
      const lineEnd = body.indexOf('\r\n', at)
      const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16)
      if (!(size > 0)) break
      parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size))
      at = lineEnd + 2 + size + 2
    }
    body = Buffer.concat(parts)
  } else if (headers['content-length'] !== undefined) {
    body = body.subarray(0, Number(headers['content-length']))
  }
  return { status, headers, body }
}

/**
 * How the clients tell an error from an image (docs/compatibility.md, "Errors"): an
 * answer whose first byte is `{` is JSON, parsed; anything else is the image.
 */
export function asClientReads (answer: WireAnswer): { json: any } | { image: Buffer } {
  if (answer.body[0] === 0x7b) return { json: JSON.parse(answer.body.toString('utf8')) }
  return { image: answer.body }
}

/** Parses the answer as JSON, failing with the start of the body when it is not. */
export function jsonOf (answer: WireAnswer): any {
  const read = asClientReads(answer)
  if (!('json' in read)) throw new Error(`expected JSON, got ${answer.status} ${answer.headers['content-type']}: ${answer.body.subarray(0, 16).toString('hex')}`)
  return read.json
}

/** The image bytes, failing with the JSON error when the answer is one. */
export function imageOf (answer: WireAnswer): Buffer {
  const read = asClientReads(answer)
  if ('json' in read) throw new Error(`expected an image, got ${answer.status}: ${JSON.stringify(read.json)}`)
  return read.image
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
export const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff])

export interface ReplayServer {
  server: ServerProcess
  port: number
  close (): Promise<void>
}

/** The built server (dist/server.js) as a process, knowing the replay key; one per test file. */
export async function startReplayServer (env: Record<string, string> = {}): Promise<ReplayServer> {
  const dataDir = tempDir('uma-clients-')
  const server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, GIF_STARTER_CATALOG: 'false', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '1000000', RATE_LIMIT_IP_MAX: '1000000', ...env })
  return {
    server,
    port: server.port,
    async close () {
      const code = await server.stop()
      fs.rmSync(dataDir, { recursive: true, force: true })
      if (code !== 0) throw new Error(`the server exited with ${code}: ${server.output().slice(-2000)}`)
    }
  }
}
