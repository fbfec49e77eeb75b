// Raw UTF-8 in the request target. curl and many hand-written clients send
// `/color/info?name=é` as the bytes C3 A9 where a browser sends %C3%A9. RFC 9112 (3.2)
// allows only ASCII there, and Node's HTTP parser (llhttp) refuses any byte above 0x7F in
// the URL, "Invalid char in url query", with no option to accept it (nodejs/llhttp#259;
// insecureHTTPParser does not either): the request fails before Fastify sees it. Here such
// a request is read as the same URL percent-encoded, what a browser would have sent, when
// its target is UTF-8 text:
//
// - Nothing runs until the parser has refused a request (Node's `clientError`): other
//   requests pay nothing.
// - The connection is then taken from Node's parser and handed back to the server as a new
//   connection (`server.emit('connection', stream)`, documented for any Duplex), through a
//   stream that percent-encodes the bytes above 0x7F of the refused request line's target
//   and passes every later byte through. A later request line the new parser refuses the
//   same way is taken over again, from the same socket.
// - A target that is not UTF-8, or any other character the parser refuses, is answered
//   400 MALFORMED_URL naming the byte and where it is, never echoing the URL.
//
// Taking a socket from Node's parser relies on what Node's HTTP server does with its
// sockets (lib/_http_server.js): its 'data' and 'timeout' listeners are its own (removed
// here); adding a 'data' listener makes it stop feeding its parser natively; the parser has
// `remove()`, which takes it out of the list closeIdleConnections() and the header timeout
// walk. test/system/process/raw-utf8-url.test.ts holds all of it against the built server.
import type { EventEmitter } from 'node:events'
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import { Duplex } from 'node:stream'

/**
 * Longest request line held while its end is awaited. The parser's own limit on a
 * request's head is 16 KB (docs/operations.md, "Connections"): a longer line is refused either way.
 */
const MAX_REQUEST_LINE = 16 * 1024

const TOO_LONG = `The request line is longer than ${MAX_REQUEST_LINE} bytes: send a shorter URL`

const SP = 0x20
const LF = 0x0a
const CR = 0x0d
const HEX = '0123456789ABCDEF'

/** The parser's refusal, as Node hands it to `clientError`. */
export interface ParserError extends Error {
  code?: string
  reason?: string
  bytesParsed?: number
  rawPacket?: Buffer
}

/**
 * The offset of the first byte that does not start or continue a well-formed UTF-8
 * character (Unicode 15, table 3-7: no overlong forms, no surrogates, nothing past
 * U+10FFFF), or -1 when every byte does.
 */
export function invalidUtf8At (bytes: Uint8Array): number {
  let i = 0
  while (i < bytes.length) {
    const b = bytes[i]!
    if (b < 0x80) { i++; continue }
    let more: number
    let low = 0x80
    let high = 0xbf
    if (b >= 0xc2 && b <= 0xdf) more = 1
    else if (b === 0xe0) { more = 2; low = 0xa0 } else if (b === 0xed) { more = 2; high = 0x9f } else if (b >= 0xe1 && b <= 0xef) more = 2
    else if (b === 0xf0) { more = 3; low = 0x90 } else if (b === 0xf4) { more = 3; high = 0x8f } else if (b >= 0xf1 && b <= 0xf3) more = 3
    else return i
    for (let k = 1; k <= more; k++) {
      const c = bytes[i + k]
      // Only the second byte has a narrowed range.
      if (c === undefined || c < (k === 1 ? low : 0x80) || c > (k === 1 ? high : 0xbf)) return i
    }
    i += more + 1
  }
  return -1
}

/** "0xFF". */
const hexByte = (b: number): string => `0x${HEX[b >> 4]}${HEX[b & 15]}`

/**
 * A request line ("GET /a?b=é HTTP/1.1\r\n") with the bytes above 0x7F of its target
 * percent-encoded, or why it cannot be: its target is not UTF-8, or it has no target
 * between two spaces.
 */
export function encodeRequestLine (line: Buffer): { line: Buffer } | { refused: string } {
  let end = line.length
  if (line[end - 1] === LF) end--
  if (line[end - 1] === CR) end--
  const first = line.indexOf(SP)
  const last = line.lastIndexOf(SP, end - 1)
  // Refused rather than passed on: the parser would refuse it again, and again.
  if (first === -1 || last <= first) return { refused: 'The request line is not a method, a URL and the HTTP version separated by spaces: send "GET /path?query HTTP/1.1"' }
  const target = line.subarray(first + 1, last)
  const bad = invalidUtf8At(target)
  if (bad !== -1) {
    return { refused: `The request URL is not UTF-8 text: byte ${bad + 1} of it, ${hexByte(target[bad]!)}, does not start or continue a UTF-8 character. Send the URL's text as UTF-8, percent-encoded (é as %C3%A9)` }
  }
  const parts: Buffer[] = [line.subarray(0, first + 1)]
  let from = 0
  for (let i = 0; i < target.length; i++) {
    if (target[i]! < 0x80) continue
    parts.push(target.subarray(from, i), Buffer.from(`%${HEX[target[i]! >> 4]}${HEX[target[i]! & 15]}`, 'latin1'))
    from = i + 1
  }
  parts.push(target.subarray(from), line.subarray(last))
  return { line: Buffer.concat(parts) }
}

/** Why the parser refused a URL, in words, for a character it does not allow. */
function refusedCharacter (line: Buffer, at: number, b: number, where: string): string {
  const what = b < 0x20 || b === 0x7f ? `a control character (${hexByte(b)})` : `the character ${hexByte(b)}`
  return `The request URL has ${what} in its ${where}, at byte ${at - line.indexOf(SP)} of the URL: percent-encode it`
}

/** An event listener, as EventEmitter types it. */
type Listener = Parameters<Socket['removeListener']>[1]

/** Sockets and streams taken from Node's parser: their later parser errors are not ours to answer. */
const handedOver = new WeakSet<object>()

export function isHandedOver (socket: object): boolean {
  return handedOver.has(socket)
}

/** The network socket under a connection: the socket itself, or the one a stream of ours reads (the connection gate counts sockets). */
export function socketUnder (connection: Duplex): Duplex {
  return connection instanceof EncodedTargetStream ? connection.underlying : connection
}

/**
 * The connection after its refused request line: bytes from the socket, the first line's
 * target percent-encoded, to a new parser of the same server; answers to the socket. Node's
 * server reads the socket's address, timeout and keep-alive through it.
 */
class EncodedTargetStream extends Duplex {
  readonly #socket: Socket
  readonly #refuse: (message: string) => void
  /** The first request line as far as received, until its end; undefined once passed on. */
  #line: Buffer | undefined
  #retired = false
  readonly #listeners: Array<[string, Listener]>

  constructor (socket: Socket, pending: Buffer, refuse: (message: string) => void) {
    super({ allowHalfOpen: true })
    this.#socket = socket
    this.#refuse = refuse
    this.#line = Buffer.alloc(0)
    this.#listeners = [
      ['data', (chunk: Buffer) => this.#receive(chunk)],
      ['end', () => this.push(null)],
      ['close', () => this.destroy()],
      ['error', (err: Error) => this.destroy(err)],
      ['timeout', () => this.emit('timeout')]
    ]
    for (const [event, listener] of this.#listeners) socket.on(event, listener)
    // What was read with the refused line, first (readRawTarget has checked that a whole
    // line in it is UTF-8, and that a part of one is not too long).
    this.#receive(pending)
    // The old parser may have paused the socket; this stream reads it from now on.
    socket.resume()
  }

  get underlying (): Socket { return this.#socket }
  get remoteAddress (): string | undefined { return this.#socket.remoteAddress }
  get remotePort (): number | undefined { return this.#socket.remotePort }
  get remoteFamily (): string | undefined { return this.#socket.remoteFamily }
  get localAddress (): string | undefined { return this.#socket.localAddress }
  get localPort (): number | undefined { return this.#socket.localPort }
  address (): ReturnType<Socket['address']> { return this.#socket.address() }

  setTimeout (ms: number, callback?: () => void): this {
    this.#socket.setTimeout(ms)
    if (callback) this.once('timeout', callback)
    return this
  }

  setNoDelay (noDelay?: boolean): this {
    this.#socket.setNoDelay(noDelay)
    return this
  }

  setKeepAlive (enable?: boolean, initialDelay?: number): this {
    this.#socket.setKeepAlive(enable, initialDelay)
    return this
  }

  #receive (chunk: Buffer): void {
    if (this.#line !== undefined) {
      const line = this.#line.length === 0 ? chunk : Buffer.concat([this.#line, chunk])
      const lf = line.indexOf(LF)
      if (lf === -1) {
        if (line.length <= MAX_REQUEST_LINE) {
          this.#line = line
          return
        }
        this.#fail(TOO_LONG)
        return
      }
      this.#line = undefined
      const encoded = encodeRequestLine(line.subarray(0, lf + 1))
      if ('refused' in encoded) {
        this.#fail(encoded.refused)
        return
      }
      chunk = lf + 1 === line.length ? encoded.line : Buffer.concat([encoded.line, line.subarray(lf + 1)])
    }
    if (!this.push(chunk)) this.#socket.pause()
  }

  /** Refuses the request on the socket itself: nothing of it has reached a parser. */
  #fail (message: string): void {
    this.#retire()
    this.destroy()
    this.#refuse(message)
  }

  #retire (): void {
    this.#retired = true
    for (const [event, listener] of this.#listeners) this.#socket.removeListener(event, listener)
  }

  /**
   * Stops feeding this stream's parser, which refused a request line, and keeps what
   * arrives; the function returned lets go of the socket without closing it, with the
   * bytes not yet read by the parser, for a new stream to take both over.
   */
  detach (): () => { socket: Socket, unread: Buffer[] } {
    this.removeAllListeners('data')
    this.pause()
    return () => {
      this.#retire()
      const unread: Buffer[] = []
      for (let chunk: unknown = this.read(); chunk !== null; chunk = this.read()) unread.push(chunk as Buffer)
      this.destroy()
      return { socket: this.#socket, unread }
    }
  }

  override _read (): void {
    this.#socket.resume()
  }

  override _write (chunk: Buffer, encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.#socket.write(chunk, encoding, callback)
  }

  override _final (callback: (err?: Error | null) => void): void {
    // Once retired, the socket is another stream's (or closed with a refusal of ours).
    if (!this.#retired) this.#socket.end()
    callback()
  }

  override _destroy (err: Error | null, callback: (err?: Error | null) => void): void {
    if (!this.#retired) {
      this.#retire()
      this.#socket.destroy(err ?? undefined)
    }
    callback(err)
  }
}

export type TargetOutcome = { taken: true } | { taken: false, message: string | undefined }

/**
 * On the parser's refusal of a URL (HPE_INVALID_URL): when the offending byte is above
 * 0x7F, the connection is taken over and the request read percent-encoded (`taken`), or
 * refused with a message naming the real problem. `refuse` answers on the socket when the
 * refusal can only be decided later (a request line split across reads).
 */
export function readRawTarget (server: Server, socket: Duplex, err: ParserError, refuse: (socket: Duplex, message: string) => void): TargetOutcome {
  const packet = err.rawPacket
  const at = err.bytesParsed
  if (!Buffer.isBuffer(packet) || typeof at !== 'number' || at < 0 || at >= packet.length) return { taken: false, message: undefined }
  // The request line is the one holding the refused byte: it starts after the last line
  // break before it (a request line has none), or at the start of what was read.
  const start = packet.lastIndexOf(LF, at) + 1
  const head = packet.subarray(start)
  const b = packet[at]!
  const where = err.reason?.includes('query') === true ? 'query' : 'path'
  if (b < 0x80) return { taken: false, message: refusedCharacter(head, at - start, b, where) }
  // A method, then the target: anything else is not a line this can read (the parser's
  // earlier refusal of what came first on the line would have come first anyway).
  if (!/^[A-Z]+ $/.test(head.subarray(0, head.indexOf(SP) + 1).toString('latin1'))) return { taken: false, message: undefined }
  const lf = head.indexOf(LF)
  if (lf !== -1) {
    const encoded = encodeRequestLine(head.subarray(0, lf + 1))
    if ('refused' in encoded) return { taken: false, message: encoded.refused }
  } else if (head.length > MAX_REQUEST_LINE) {
    return { taken: false, message: TOO_LONG }
  }
  const release = detach(socket)
  // A request line pipelined behind requests still being answered is read once they are:
  // a new parser's answers must not be interleaved with the old one's.
  afterAnswers(socket, () => {
    const { socket: raw, unread } = release()
    if (raw.destroyed || !raw.writable) return
    const stream = new EncodedTargetStream(raw, Buffer.concat([head, ...unread]), (message) => refuse(raw, message))
    server.emit('connection', stream)
  })
  return { taken: true }
}

/**
 * Takes a socket (or a stream of ours) from the parser that refused its request line:
 * nothing more reaches that parser, and what arrives meanwhile is kept. The function
 * returned gives the socket and those bytes.
 */
function detach (socket: Duplex): () => { socket: Socket, unread: Buffer[] } {
  handedOver.add(socket)
  if (socket instanceof EncodedTargetStream) return socket.detach()
  const raw = socket as Socket
  // Node's own listeners feed its parser: they go, and the parser leaves the server's list
  // of connections. Adding a 'data' listener makes Node stop feeding it natively.
  raw.removeAllListeners('data')
  raw.removeAllListeners('timeout')
  ;(raw as Socket & { parser?: { remove?: () => void } }).parser?.remove?.()
  const unread: Buffer[] = []
  const keep = (chunk: Buffer): void => { unread.push(chunk) }
  raw.on('data', keep)
  raw.pause()
  return () => {
    raw.removeListener('data', keep)
    return { socket: raw, unread }
  }
}

/** Runs `then` once the connection has no answer left to write (at once when it has none). */
function afterAnswers (socket: Duplex, then: () => void): void {
  const answer = (socket as Duplex & { _httpMessage?: EventEmitter | null })._httpMessage
  if (!answer) {
    then()
    return
  }
  // Node's own 'finish' listener runs first: it detaches the answer, or attaches the next.
  answer.once('finish', () => afterAnswers(socket, then))
}
