// Exact bytes on a socket, for the client replay tests (test/system/clients/): what each
// existing client sends (docs/compatibility.md), written by hand so that nothing (no
// HTTP library) adds, drops or reorders a header (test/support/raw-http.ts).
import fs from 'node:fs'
import { tempDir } from '../../support/helpers.js'
import { requestBytes, sendRaw } from '../../support/raw-http.js'
import { type ServerProcess, startServerProcess } from '../../support/processes.js'

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

/** Writes the request's bytes to a fresh connection, left open as clients leave it (a half-close reads as a client gone), and reads the whole answer. */
export async function send (port: number, req: WireRequest): Promise<WireAnswer> {
  const answer = await sendRaw(port, [requestBytes({ ...req, host: `127.0.0.1:${port}`, headers: req.headers ?? [] })], { keepOpen: true, timeoutMs: 60_000 })
  if (answer.noAnswer) throw new Error(`no complete answer: ${answer.body.slice(0, 200)}`)
  return { status: answer.status, headers: answer.headers, body: answer.bytes }
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
