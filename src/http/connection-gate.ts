// Who may hold the server's connections (docs/operations.md, "Connections"; issue 35).
// MAX_CONNECTIONS alone let one client without a key hold every place: it opened that many
// idle sockets and replaced each one the server closed, and /healthz and every other client
// went unanswered. Here every accepted socket passes one gate before Node's HTTP server
// sees it, so a refused one is closed at once, before it costs a parser or a timer:
//
// - at most MAX_CONNECTIONS open in all;
// - the last RESERVE_SHARE of them only for addresses that hold none (a health check, a
//   new client), so that clients already holding connections cannot take every place;
// - at most MAX_CONNECTIONS_PER_ADDRESS held by one address. IPv6 clients count by prefix
//   (RATE_LIMIT_IPV6_PREFIX, /64 by default: one subscriber holds a whole /64), as the
//   per-IP rate limits do. Trusted proxies (TRUST_PROXY) are exempt: every connection of
//   theirs carries some client's request, and the proxy caps its clients (nginx's
//   `limit_conn`);
// - an address keeps at most MAX_IDLE_CONNECTIONS_PER_ADDRESS idle (no request in
//   progress): an answer sent while its address already holds that many says
//   `Connection: close`, the client's cue to open a new one when it needs one. A new
//   connection is not refused for being idle: a client's burst opens its connections all
//   at once (tens, before any of them has sent its request), and is served.
//
// A new connection is idle until its request arrives; Node closes one that sends nothing
// within HEADERS_TIMEOUT_MS (408), so an address that keeps opening them holds its own
// share and no more.
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { clientBucket } from './client-address.js'
import { socketUnder } from './request-target.js'

/** Share of MAX_CONNECTIONS kept for addresses that hold no connection (at least one place). */
export const RESERVE_SHARE = 0.05

export interface ConnectionLimits {
  /** MAX_CONNECTIONS. */
  max: number
  /** MAX_CONNECTIONS_PER_ADDRESS. */
  perAddress: number
  /** MAX_IDLE_CONNECTIONS_PER_ADDRESS. */
  idlePerAddress: number
  /** RATE_LIMIT_IPV6_PREFIX: IPv6 addresses count by this prefix. */
  ipv6Prefix: number
  /** Trusted proxies (TRUST_PROXY): exempt from the per-address caps. */
  exempt: (address: string) => boolean
}

export type Refusal = 'full' | 'reserved' | 'address'

/** One admitted connection. */
export interface Held {
  /** A request arrived on it; true when its answer should close the connection (its address holds enough idle ones). */
  requestStarted (): boolean
  /** That request's answer is done (sent or abandoned). */
  requestEnded (): void
  closed (): void
}

export interface ConnectionGate {
  /** Admits a connection from `address`, or says why not. */
  open (address: string): Held | Refusal
  /** Connections open, and per address (bucket): open and idle. For tests and logs. */
  state (): { open: number, addresses: Record<string, { open: number, idle: number }> }
}

interface Bucket { open: number, busy: number }

export function createConnectionGate (limits: ConnectionLimits): ConnectionGate {
  const reserve = Math.max(1, Math.floor(limits.max * RESERVE_SHARE))
  const buckets = new Map<string, Bucket>()
  let open = 0

  function admit (address: string): Held | Refusal {
    const key = clientBucket(address, limits.ipv6Prefix)
    const bucket = buckets.get(key)
    const held = bucket?.open ?? 0
    if (open >= limits.max) return 'full'
    if (held > 0 && open >= limits.max - reserve) return 'reserved'
    const exempt = limits.exempt(address)
    if (!exempt && held >= limits.perAddress) return 'address'
    const b = bucket ?? { open: 0, busy: 0 }
    if (bucket === undefined) buckets.set(key, b)
    b.open++
    open++
    let requests = 0
    let done = false
    return {
      requestStarted () {
        if (requests++ === 0 && !done) b.busy++
        // The idle ones besides this one, which is about to join them.
        return !exempt && b.open - b.busy >= limits.idlePerAddress
      },
      requestEnded () {
        if (requests === 0) return
        if (--requests === 0 && !done) b.busy--
      },
      closed () {
        if (done) return
        done = true
        if (requests > 0) b.busy--
        b.open--
        open--
        if (b.open === 0) buckets.delete(key)
      }
    }
  }

  return {
    open: admit,
    state () {
      const addresses: Record<string, { open: number, idle: number }> = {}
      for (const [key, b] of buckets) addresses[key] = { open: b.open, idle: b.open - b.busy }
      return { open, addresses }
    }
  }
}

export interface GateLog {
  debug (fields: object, message: string): void
}

/**
 * Puts the gate in front of Node's HTTP server: its own 'connection' listener (which makes
 * the parser and the timers) runs only for admitted sockets. Streams the server is handed
 * later (src/http/request-target.ts) are connections already admitted, passed through.
 */
export function installConnectionGate (server: Server, gate: ConnectionGate, log: GateLog): void {
  const node = server.listeners('connection') as Array<(socket: Duplex) => void>
  server.removeAllListeners('connection')
  const held = new WeakMap<Duplex, Held>()
  server.on('connection', function gateConnection (this: Server, connection: Duplex) {
    // A stream of ours over a socket admitted earlier (src/http/request-target.ts).
    if (socketUnder(connection) !== connection) {
      for (const listener of node) listener.call(this, connection)
      return
    }
    const socket = connection as Socket
    const address = socket.remoteAddress
    // Gone before it was accepted: nothing to serve.
    if (address === undefined) {
      socket.destroy()
      return
    }
    const verdict = gate.open(address)
    if (typeof verdict === 'string') {
      log.debug({ address, refused: verdict }, 'connection refused: over the connection caps')
      socket.destroy()
      return
    }
    held.set(socket, verdict)
    socket.once('close', () => verdict.closed())
    for (const listener of node) listener.call(this, connection)
  })
  // Before Fastify's own listener: the answer's headers are not written yet.
  server.prependListener('request', function countRequest (request: IncomingMessage, response: ServerResponse) {
    const connection = held.get(socketUnder(request.socket))
    if (connection === undefined) return
    if (connection.requestStarted()) response.setHeader('connection', 'close')
    response.once('close', () => connection.requestEnded())
  })
}
