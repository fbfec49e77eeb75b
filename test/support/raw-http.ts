// HTTP over a bare socket, for the tests that must control the bytes: what existing
// clients send exactly (test/system/clients/wire.ts), hostile requests written slowly, in pieces
// or left open (test/system/hostile/), several requests on one connection (raw UTF-8 targets).
// No HTTP library in between, so nothing adds, drops or reorders a header, and an
// answer the server never finishes is seen as such. The answers are read back raw and
// framed here: Content-Length, chunked, or until the server closes.
import net from 'node:net'

export interface RawAnswer {
  status: number
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>
  /** The body's bytes, de-chunked. */
  bytes: Buffer
  /** The body as UTF-8 text. */
  body: string
  /** The body parsed as JSON, when it is JSON. */
  json: any
  /** The server closed the connection without an answer. */
  noAnswer: boolean
}

/** A step of an exchange: bytes to write, a pause in ms, or a wait until `answers` answers are in. */
export type RawStep = string | Buffer | number | { answers: number }

export interface ExchangeOptions {
  /** Resolve once this many answers are in (default: when the server closes). */
  answers?: number
  /** Leave the connection open after the last step (default: half-close it). */
  keepOpen?: boolean
  /** Reject when neither happened by then (default 15 s). */
  timeoutMs?: number
  host?: string
}

/**
 * One connection: writes each step in order, and resolves with every answer read once
 * `answers` are in or the server has closed (`closed` says which).
 */
export function exchange (port: number, steps: RawStep[], options: ExchangeOptions = {}): Promise<{ answers: RawAnswer[], closed: boolean }> {
  const timeoutMs = options.timeoutMs ?? 15_000
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: options.host ?? '127.0.0.1' })
    const answers: RawAnswer[] = []
    const waiting: Array<{ count: number, go: () => void }> = []
    let buffer = Buffer.alloc(0)
    let done = false
    const finish = (closed: boolean): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      // What is left when the server closes is one last answer, framed or not (a body
      // until the close, a HEAD's headers), or nothing at all.
      if (closed && buffer.length > 0) answers.push(parseAnswer(buffer, true))
      for (const w of waiting) w.go()
      resolve({ answers, closed })
    }
    const timer = setTimeout(() => {
      if (done) return
      done = true
      socket.destroy()
      reject(new Error(`${answers.length} answer(s) within ${timeoutMs} ms; then received: ${buffer.toString('latin1').slice(0, 200)}`))
    }, timeoutMs)
    socket.on('data', (data: Buffer) => {
      buffer = Buffer.concat([buffer, data])
      for (let length = framedLength(buffer); length !== undefined; length = framedLength(buffer)) {
        answers.push(parseAnswer(buffer.subarray(0, length), false))
        buffer = buffer.subarray(length)
      }
      while (waiting.length > 0 && answers.length >= waiting[0]!.count) waiting.shift()!.go()
      if (options.answers !== undefined && answers.length >= options.answers) finish(false)
    })
    socket.on('end', () => finish(true))
    socket.on('close', () => finish(true))
    socket.on('error', () => finish(true))
    socket.once('connect', async () => {
      for (const step of steps) {
        if (done) return
        if (typeof step === 'number') await new Promise((resolve) => setTimeout(resolve, step))
        else if (typeof step === 'string' || Buffer.isBuffer(step)) socket.write(step)
        else if (answers.length < step.answers) await new Promise<void>((resolve) => waiting.push({ count: step.answers, go: resolve }))
      }
      if (!options.keepOpen && !done) socket.end()
    })
  })
}

/**
 * Writes `chunks` to a fresh connection (a number in the list waits that many ms), then
 * half-closes unless `keepOpen`, and resolves with the first answer (`noAnswer` when the
 * server closed without one).
 */
export async function sendRaw (port: number, chunks: Array<string | Buffer | number>, options: Omit<ExchangeOptions, 'answers'> = {}): Promise<RawAnswer> {
  const { answers } = await exchange(port, chunks, { ...options, answers: 1 })
  return answers[0] ?? { status: 0, headers: {}, bytes: Buffer.alloc(0), body: '', json: undefined, noAnswer: true }
}

/** A request's bytes: request line, Host, Connection: close, the headers in order, Content-Length when a body comes without one. */
export function requestBytes (req: { method: string, target: string, host?: string, headers?: Array<[string, string]> | Record<string, string>, body?: string | Buffer }): Buffer {
  const headers = Array.isArray(req.headers) ? req.headers : Object.entries(req.headers ?? {})
  const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8')
  const lines = [`${req.method} ${req.target} HTTP/1.1`, `Host: ${req.host ?? '127.0.0.1'}`, 'Connection: close']
  for (const [name, value] of headers) lines.push(`${name}: ${value}`)
  if (body !== undefined && !headers.some(([name]) => name.toLowerCase() === 'content-length')) lines.push(`Content-Length: ${body.length}`)
  const head = Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1')
  return body === undefined ? head : Buffer.concat([head, body])
}

/** The length of the first whole answer in `bytes`, or undefined while it is not all there. */
function framedLength (bytes: Buffer): number | undefined {
  const headEnd = bytes.indexOf('\r\n\r\n')
  if (headEnd < 0) return undefined
  const head = bytes.subarray(0, headEnd).toString('latin1')
  const bodyStart = headEnd + 4
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)
  if (length) return bytes.length >= bodyStart + Number(length[1]) ? bodyStart + Number(length[1]) : undefined
  if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) {
    let at = bodyStart
    for (;;) {
      const lineEnd = bytes.indexOf('\r\n', at)
      if (lineEnd < 0) return undefined
      const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16)
      if (!Number.isFinite(size)) return undefined
      if (size === 0) {
        const end = bytes.indexOf('\r\n\r\n', lineEnd)
        return end < 0 ? undefined : end + 4
      }
      at = lineEnd + 2 + size + 2
      if (at > bytes.length) return undefined
    }
  }
  // No framing: 1xx, 204 and 304 have no body; anything else runs until the close.
  return /^HTTP\/1\.[01] (1\d\d|204|304)/.test(head) ? bodyStart : undefined
}

/** An answer read some other way (Node's http client), in the same shape. */
export function rawAnswer (status: number, headers: Record<string, string | string[] | undefined>, bytes: Buffer): RawAnswer {
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  const body = bytes.toString('utf8')
  let json: any
  try { json = JSON.parse(body) } catch { json = undefined }
  return { status, headers: flat, bytes, body, json, noAnswer: false }
}

function parseAnswer (bytes: Buffer, untilClose: boolean): RawAnswer {
  const headEnd = bytes.indexOf('\r\n\r\n')
  if (headEnd < 0) return { status: 0, headers: {}, bytes, body: bytes.toString('utf8'), json: undefined, noAnswer: true }
  const [statusLine, ...headerLines] = bytes.subarray(0, headEnd).toString('latin1').split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of headerLines) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
  }
  let body = bytes.subarray(headEnd + 4)
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = unchunk(body)
  else if (!untilClose && headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']))
  return rawAnswer(Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, body)
}

function unchunk (body: Buffer): Buffer {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at)
    if (lineEnd < 0) break
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16)
    if (!(size > 0)) break
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
  return Buffer.concat(parts)
}
