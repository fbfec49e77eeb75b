// The form of a link (docs/links.md) and of its target, read and written without HTTP:
//     /l/{linkId}/{expires}/{signature}{target}
// The signature covers the exact characters of the URL (no canonical form: sign what you
// send), so nothing here rewrites a target; it only says what request it names.
import { createHash } from 'node:crypto'
import { AppError } from '../errors.js'

/** Longest link path (and query) served, in characters. Longer requests are minted: POST /links stores them and answers a short link. */
export const MAX_LINK_LENGTH = 8192
/** Longest URL POST /links answers: a minted request that would be longer is stored (MintedLink) and linked as /m/{id}. */
export const MAX_MINTED_URL_LENGTH = 512
/** Characters of a stored link's id: base64url of a SHA-256 of the key and the request, shortened. */
export const MINTED_ID_LENGTH = 22

const LINK = /^\/l\/([A-Za-z0-9_-]{16})\/(0|[1-9][0-9]{0,11})\/([A-Za-z0-9_-]{43})(\/.*)$/s
const MINTED = /^\/m\/([A-Za-z0-9_-]{22})$/
/** A target's characters: printable ASCII without '#' (a fragment never reaches the server) and without spaces. */
const TARGET_CHARS = /^[\x21-\x22\x24-\x7e]+$/
const BASE64URL = /^[A-Za-z0-9_-]*$/

export interface ParsedLink {
  linkId: string
  /** As the URL writes it: the signature covers these digits. */
  expires: string
  signature: string
  target: string
}

/** The parts of a link's path, or the 4xx that says what is wrong with its form. */
export function parseLink (url: string): ParsedLink {
  // `//l/...`: a client joining a base that ends in / (docs/compatibility.md, "Paths").
  const path = url.replace(/^\/{2,}/, '/')
  if (path.length > MAX_LINK_LENGTH) {
    throw new AppError('LINK_TOO_LONG', `The link is ${path.length} characters long; this server serves links of at most ${MAX_LINK_LENGTH}: mint it with POST /links, which stores long requests and answers a link of at most ${MAX_MINTED_URL_LENGTH} characters`, { details: { limit: MAX_LINK_LENGTH } })
  }
  const m = LINK.exec(path)
  if (m === null) throw new AppError('LINK_MALFORMED')
  return { linkId: m[1]!, expires: m[2]!, signature: m[3]!, target: m[4]! }
}

/** The stored link's id when the target is /m/{id}. */
export function mintedId (target: string): string | undefined {
  return MINTED.exec(target)?.[1]
}

export function mintedIdOf (keyId: number, target: string): string {
  return createHash('sha256').update(`${keyId}\n${target}`).digest('base64url').slice(0, MINTED_ID_LENGTH)
}

export interface TargetRequest {
  method: 'GET' | 'POST'
  /** Path and query as the replay sends them: the target without its body parameter. */
  url: string
  /** The JSON text of a body=, for a POST. */
  body?: string
}

function decodeBody (encoded: string): string {
  let bytes: Buffer | undefined
  if (BASE64URL.test(encoded) && encoded.length % 4 !== 1) {
    bytes = Buffer.from(encoded, 'base64url')
    // Non-canonical trailing bits would let two spellings carry one body: only the one a signer writes.
    if (bytes.toString('base64url') !== encoded) bytes = undefined
  }
  if (bytes === undefined) throw new AppError('LINK_BODY_INVALID', 'The link\'s body parameter is not base64url: use the characters A-Z a-z 0-9 - _ and no padding, as Buffer.toString(\'base64url\') or base64.urlsafe_b64encode(...).rstrip(b"=") write it')
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    JSON.parse(text)
  } catch (err) {
    throw new AppError('LINK_BODY_INVALID', `The link's body parameter decodes to something that is not JSON text in UTF-8${err instanceof SyntaxError ? ` (${err.message})` : ''}: encode JSON.stringify(body) as base64url`)
  }
  return text
}

/** The request a link's target names: a GET of the target, or a POST when it carries ?body=. */
export function targetRequest (target: string): TargetRequest {
  if (!target.startsWith('/') || target.startsWith('//') || !TARGET_CHARS.test(target)) {
    throw new AppError('LINK_MALFORMED', 'The link\'s target must be a path and query of this server, starting with a single "/", with its characters percent-encoded as in a URL (no spaces, no "#")')
  }
  const q = target.indexOf('?')
  if (q < 0) return { method: 'GET', url: target }
  const parts = target.slice(q + 1).split('&')
  const bodies = parts.filter((p) => p.startsWith('body='))
  if (bodies.length === 0) return { method: 'GET', url: target }
  if (bodies.length > 1) throw new AppError('LINK_BODY_INVALID', 'The link\'s target has more than one body parameter: send one')
  const rest = parts.filter((p) => !p.startsWith('body='))
  const path = target.slice(0, q)
  return { method: 'POST', url: rest.length === 0 ? path : `${path}?${rest.join('&')}`, body: decodeBody(bodies[0]!.slice(5)) }
}

/** The target of a request with a JSON body: the body as ?body= base64url of its JSON text. */
export function targetWithBody (path: string, body: unknown): string {
  const encoded = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url')
  return `${path}${path.includes('?') ? '&' : '?'}body=${encoded}`
}
