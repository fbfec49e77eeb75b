// Fetches an image from a URL a caller gave us, without letting that URL reach the
// server's own networks (server-side request forgery). The defences, in order:
// - only http: and https: URLs, without credentials, on any port;
// - host literals in every spelling (127.1, 2130706433, 0x7f000001, [::ffff:7f00:1])
//   are normalised by the WHATWG URL parser and ipaddr.js, then classified;
// - host names are resolved by our own `lookup`, handed to the socket, which drops
//   refused addresses: the socket connects to exactly the address we checked, so a
//   name that resolves differently on a second look-up (DNS rebinding) gains nothing;
// - the peer address of the connected socket is checked again before the request
//   leaves (defence in depth);
// - redirects are followed by hand, at most MAX_REDIRECTS, each hop checked anew;
// - one deadline covers connect, headers, body and every redirect; the body is
//   counted as it arrives and the download stopped past the size limit.
import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import type net from 'node:net'
import { AppError, type ErrorCode } from '../errors.js'
import { type AllowList, classifyAddress, describeRange, EMPTY_ALLOW_LIST, hostIsAllowed } from './address.js'

export const MAX_REDIRECTS = 3
export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024
export const DEFAULT_TIMEOUT_MS = 5_000
/** Said with a refused address: the operator's way to reach a host of their own network. */
const ALLOW_HINT = ': only public hosts are fetched (an operator allows others with REMOTE_FETCH_ALLOW)'
const USER_AGENT = 'utility-media-api image fetcher'

export interface ResolvedAddress { address: string, family: number }
/** Resolves a host name to its addresses (injectable: tests point names at loopback). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

export const systemResolver: Resolver = async (hostname) =>
  await dns.promises.lookup(hostname, { all: true, verbatim: true })

export interface RemoteFetcherOptions {
  allow?: AllowList
  maxBytes?: number
  timeoutMs?: number
  resolve?: Resolver
  /** Sent as User-Agent (the gif pull names the project, its version and the operator's contact). */
  userAgent?: string
}

/**
 * Where an answer's bytes are counted (a request's hold in src/work/byte-budget.ts): they
 * are reserved once its headers have arrived, before its body is read, from its
 * Content-Length or the largest answer taken (`maxBytes`), and what did not come is given
 * back when it ends; all of it when the download fails.
 */
export interface FetchBytes {
  /** Throws (a busy error) when the bytes do not fit: the download stops unread. */
  reserve (bytes: number): void
  giveBack (bytes: number): void
}

/** A request other than the default GET for an image. */
export interface FetchInit {
  method?: 'GET' | 'POST'
  /** Sent with content-type application/json (a POST's body). */
  json?: unknown
  /** The Accept header; image/* by default. */
  accept?: string
  /** A lower bound than the fetcher's on this answer's size (a custom emoji's). */
  maxBytes?: number
  /** Counts the answer's bytes before they are read. */
  bytes?: FetchBytes
  /** Fires when the answer is no longer wanted: the download stops, and fails with the signal's reason. */
  signal?: AbortSignal
}

export interface FetchedResource {
  bytes: Buffer
  contentType: string
  /** The URL finally answered, after redirects. */
  url: string
}

export interface RemoteFetcher {
  /** Fetches `url`; failures are AppErrors (400) whose message starts with `role`. */
  fetch (url: string, role: string, init?: FetchInit): Promise<FetchedResource>
}

/** Why a fetch failed; the AppError a caller gets has it as its `cause`. */
export class FetchFailure extends Error {
  /** `status`: the HTTP status the server answered, when it answered one. */
  constructor (readonly code: ErrorCode, message: string, readonly status?: number) { super(message) }
}

function shortUrl (url: string): string {
  return url.length > 200 ? `${url.slice(0, 197)}...` : url
}

export function createRemoteFetcher (options: RemoteFetcherOptions = {}): RemoteFetcher {
  const allow = options.allow ?? EMPTY_ALLOW_LIST
  const fetcherMaxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const resolve = options.resolve ?? systemResolver
  const userAgent = options.userAgent ?? USER_AGENT

  /** Throws unless the URL may be requested at all; returns it parsed. */
  function checkUrl (raw: string): URL {
    let url: URL
    try {
      url = new URL(raw)
    } catch {
      throw new FetchFailure('REMOTE_FETCH_REFUSED', 'is not an absolute URL')
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new FetchFailure('REMOTE_FETCH_REFUSED', `uses the scheme "${url.protocol.replace(/:$/, '')}": only http and https URLs can be fetched`)
    }
    if (url.username !== '' || url.password !== '') {
      throw new FetchFailure('REMOTE_FETCH_REFUSED', 'carries credentials: URLs with user:password@ are not fetched')
    }
    const verdict = classifyAddress(url.hostname, allow)
    if (verdict && !verdict.allowed) {
      throw new FetchFailure('REMOTE_FETCH_REFUSED', `points to ${verdict.address}, ${describeRange(verdict.range)}${ALLOW_HINT}`)
    }
    return url
  }

  /**
   * The socket's look-up: resolves, drops refused addresses, hands the socket only
   * what passed. Node calls it with `all: true` when it races address families.
   */
  function makeLookup (hostAllowed: boolean): net.LookupFunction {
    return (hostname, lookupOptions, callback) => {
      resolve(hostname).then((found) => {
        const refused: string[] = []
        const usable: ResolvedAddress[] = []
        for (const entry of found) {
          const verdict = classifyAddress(entry.address, allow)
          if (verdict && (verdict.allowed || hostAllowed)) {
            if (lookupOptions.family === undefined || lookupOptions.family === 0 || lookupOptions.family === entry.family) usable.push(entry)
          } else {
            refused.push(verdict ? `${verdict.address} (${describeRange(verdict.range)})` : entry.address)
          }
        }
        if (usable.length === 0) {
          const why = refused.length > 0 ? `resolves only to refused addresses: ${refused.slice(0, 3).join(', ')}${ALLOW_HINT}` : 'does not resolve to any address'
          callback(new FetchFailure(refused.length > 0 ? 'REMOTE_FETCH_REFUSED' : 'REMOTE_FETCH_FAILED', `host "${hostname}" ${why}`) as NodeJS.ErrnoException, '', 4)
          return
        }
        if (lookupOptions.all) (callback as unknown as (err: null, all: ResolvedAddress[]) => void)(null, usable)
        else callback(null, usable[0]!.address, usable[0]!.family)
      }, (err: NodeJS.ErrnoException) => {
        callback(new FetchFailure('REMOTE_FETCH_FAILED', `host "${hostname}" could not be resolved (${err.code ?? err.message})`) as NodeJS.ErrnoException, '', 4)
      })
    }
  }

  function requestOnce (url: URL, deadline: AbortSignal, init: FetchInit): Promise<{ status: number, location?: string, contentType: string, bytes?: Buffer }> {
    const hostAllowed = hostIsAllowed(allow, url.hostname)
    const maxBytes = Math.min(fetcherMaxBytes, init.maxBytes ?? Infinity)
    const client = url.protocol === 'https:' ? https : http
    // "resolve" is the DNS look-up of this module: the promise's is named apart.
    // eslint-disable-next-line promise/param-names
    return new Promise((resolvePromise, reject) => {
      let settled = false
      /** Bytes reserved for this answer's body (FetchBytes), given back if it fails. */
      let reserved = 0
      const fail = (err: unknown) => {
        if (settled) return
        settled = true
        if (reserved > 0) init.bytes?.giveBack(reserved)
        reserved = 0
        req.destroy()
        reject(err)
      }
      const body = init.json === undefined ? undefined : Buffer.from(JSON.stringify(init.json))
      const req = client.request(url, {
        method: init.method ?? 'GET',
        agent: false,
        lookup: makeLookup(hostAllowed),
        signal: deadline,
        headers: {
          'user-agent': userAgent,
          accept: init.accept ?? 'image/*',
          'accept-encoding': 'identity',
          ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {})
        }
      })
      req.on('socket', (socket: net.Socket) => {
        socket.once('connect', () => {
          const peer = socket.remoteAddress
          const verdict = peer === undefined ? undefined : classifyAddress(peer, allow)
          if (!verdict || !(verdict.allowed || hostAllowed)) {
            fail(new FetchFailure('REMOTE_FETCH_REFUSED', `connected to ${peer ?? 'an unknown address'}, ${verdict ? describeRange(verdict.range) : 'which cannot be checked'}`))
          }
        })
      })
      req.on('error', (err: Error) => {
        if (err instanceof FetchFailure) return fail(err)
        if (init.signal?.aborted === true) return fail(init.signal.reason)
        if (deadline.aborted) return fail(new FetchFailure('REMOTE_FETCH_TIMEOUT', `did not answer within ${timeoutMs} ms`))
        const code = (err as NodeJS.ErrnoException).code
        fail(new FetchFailure('REMOTE_FETCH_FAILED', `could not be fetched (${code ?? err.message})`))
      })
      req.on('response', (res) => {
        const status = res.statusCode ?? 0
        const contentType = String(res.headers['content-type'] ?? '')
        if (status >= 300 && status < 400 && res.headers.location !== undefined) {
          res.resume()
          settled = true
          resolvePromise({ status, location: res.headers.location, contentType })
          return
        }
        if (status < 200 || status >= 300) {
          res.resume()
          fail(new FetchFailure('REMOTE_FETCH_FAILED', `answered HTTP ${status}`, status))
          return
        }
        const declared = Number(res.headers['content-length'])
        if (Number.isFinite(declared) && declared > maxBytes) {
          fail(new FetchFailure('REMOTE_FETCH_TOO_LARGE', `is ${declared} bytes, above the limit of ${maxBytes} bytes`))
          return
        }
        if (init.bytes !== undefined) {
          // Before the body is read: a download that does not fit costs no memory.
          const bound = Number.isFinite(declared) && declared >= 0 ? declared : maxBytes
          try {
            init.bytes.reserve(bound)
          } catch (err) {
            fail(err)
            return
          }
          reserved = bound
        }
        const chunks: Buffer[] = []
        let received = 0
        res.on('data', (chunk: Buffer) => {
          received += chunk.length
          if (received > maxBytes) {
            fail(new FetchFailure('REMOTE_FETCH_TOO_LARGE', `sent more than the limit of ${maxBytes} bytes`))
            return
          }
          chunks.push(chunk)
        })
        res.on('end', () => {
          if (settled) return
          settled = true
          if (reserved > received) init.bytes?.giveBack(reserved - received)
          resolvePromise({ status, contentType, bytes: Buffer.concat(chunks, received) })
        })
        res.on('error', (err) => req.emit('error', err))
        res.on('aborted', () => req.emit('error', new Error('the connection was cut')))
      })
      req.end(body)
    })
  }

  return {
    async fetch (rawUrl, role, init = {}) {
      const timeout = AbortSignal.timeout(timeoutMs)
      const deadline = init.signal === undefined ? timeout : AbortSignal.any([timeout, init.signal])
      let current = rawUrl
      let request = init
      try {
        for (let hop = 0; ; hop++) {
          init.signal?.throwIfAborted()
          const url = checkUrl(current)
          const answer = await requestOnce(url, deadline, request)
          // RFC 9110 §15.4: 307 and 308 repeat the request as it was; the others become a GET.
          if (answer.status !== 307 && answer.status !== 308) request = { ...request, method: 'GET', json: undefined }
          if (answer.location === undefined) return { bytes: answer.bytes!, contentType: answer.contentType, url: url.href }
          if (hop >= MAX_REDIRECTS) throw new FetchFailure('REMOTE_FETCH_FAILED', `redirected more than ${MAX_REDIRECTS} times`)
          let next: URL
          try {
            next = new URL(answer.location, url)
          } catch {
            throw new FetchFailure('REMOTE_FETCH_FAILED', 'redirected to an invalid URL')
          }
          current = next.href
        }
      } catch (err) {
        if (err instanceof FetchFailure) {
          const redirected = current !== rawUrl ? ` (redirected to ${shortUrl(current)})` : ''
          throw new AppError(err.code, `${role}: the URL ${shortUrl(rawUrl)}${redirected} ${err.message}`, { details: { role, url: rawUrl }, cause: err })
        }
        throw err
      }
    }
  }
}
