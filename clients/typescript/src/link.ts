// Signed links (the server's link scheme, its /l/ route): a URL that runs a keyed request
// as its key without an Authorization header, for a chat embed or an <img src>.
//
//   {base}/l/{linkId}/{expires}/{signature}{target}
//   signature = base64url(HMAC-SHA256(link secret, "{linkId}/{expires}{target}")), no padding
//
// Signed offline with the pair GET /me answers in `links: { id, secret }`. HMAC-SHA256 is
// written out here (FIPS 180-4, RFC 2104) rather than taken from crypto.subtle: that one
// is asynchronous, and browsers hide it from pages not served over https; node:crypto is
// Node's alone. The signature covers the exact bytes of the target as sent: build the
// target once and send that string.

/** The link pair of a key, as GET /me answers it in `links`. */
export interface LinkSecret {
  /** The key's public link id (16 characters of base64url). */
  id: string
  /** The key's link secret ("ls_…"): keep it like the key itself. */
  secret: string
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
])

/** SHA-256 (FIPS 180-4) of `data`. */
export function sha256 (data: Uint8Array): Uint8Array {
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19])
  // The message, a 1 bit, zeros, and its length in bits as 64 bits: a multiple of 64 bytes.
  const blocks = Math.ceil((data.length + 9) / 64)
  const padded = new Uint8Array(blocks * 64)
  padded.set(data)
  padded[data.length] = 0x80
  const view = new DataView(padded.buffer)
  view.setUint32(padded.length - 8, Math.floor(data.length / 0x20000000))
  view.setUint32(padded.length - 4, (data.length * 8) >>> 0)
  const w = new Uint32Array(64)
  for (let block = 0; block < blocks; block++) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block * 64 + t * 4)
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15]!
      const b = w[t - 2]!
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3)
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10)
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) >>> 0
    }
    let [a, b, c, d, e, f, g, hh] = [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!]
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))
      const ch = (e & f) ^ (~e & g)
      const t1 = (hh + S1 + ch + K[t]! + w[t]!) >>> 0
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))
      const maj = (a & b) ^ (a & c) ^ (b & c)
      const t2 = (S0 + maj) >>> 0
      hh = g
      g = f
      f = e
      e = (d + t1) >>> 0
      d = c
      c = b
      b = a
      a = (t1 + t2) >>> 0
    }
    h[0] = (h[0]! + a) >>> 0
    h[1] = (h[1]! + b) >>> 0
    h[2] = (h[2]! + c) >>> 0
    h[3] = (h[3]! + d) >>> 0
    h[4] = (h[4]! + e) >>> 0
    h[5] = (h[5]! + f) >>> 0
    h[6] = (h[6]! + g) >>> 0
    h[7] = (h[7]! + hh) >>> 0
  }
  const out = new Uint8Array(32)
  const outView = new DataView(out.buffer)
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]!)
  return out
}

/** HMAC-SHA256 (RFC 2104) of `message` under `key`. */
export function hmacSha256 (key: Uint8Array, message: Uint8Array): Uint8Array {
  const block = new Uint8Array(64)
  block.set(key.length > 64 ? sha256(key) : key)
  const inner = new Uint8Array(64 + message.length)
  const outer = new Uint8Array(64 + 32)
  for (let i = 0; i < 64; i++) {
    inner[i] = block[i]! ^ 0x36
    outer[i] = block[i]! ^ 0x5c
  }
  inner.set(message, 64)
  outer.set(sha256(inner), 64)
  return sha256(outer)
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/** base64url without padding (RFC 4648 §5). */
export function base64url (bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0)
    out += BASE64URL[(n >>> 18) & 63]! + BASE64URL[(n >>> 12) & 63]!
    if (i + 1 < bytes.length) out += BASE64URL[(n >>> 6) & 63]!
    if (i + 2 < bytes.length) out += BASE64URL[n & 63]!
  }
  return out
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

/** What the server reads as a target: one leading "/", then printable ASCII without "#" (a fragment never reaches it). */
const TARGET = /^\/(?!\/)[\x21\x22\x24-\x7e]*$/
/** The server reads at most 12 digits of expiry (the year 33658). */
const MAX_EXPIRES = 999_999_999_999

/**
 * A signed link to `target` (the path and query of a keyed GET request, starting with "/",
 * exactly as it will appear in the URL), valid until `expiresAt` (Unix seconds or a Date;
 * 0, the default, never expires). `base` is the server's public URL.
 *
 *     signLink('https://api.example.com', me.links, '/gen/welcome?username=Ana', 0)
 *     // → 'https://api.example.com/l/<id>/0/<signature>/gen/welcome?username=Ana'
 *
 * For POST /gen/custom, sign customLinkTarget(body). A link stops working when its key's
 * link secret is rolled (POST /me/links/roll), is disabled or revoked, or it expires.
 */
export function signLink (base: string, link: LinkSecret, target: string, expiresAt: number | Date = 0): string {
  const expires = expiresAt instanceof Date ? Math.floor(expiresAt.getTime() / 1000) : expiresAt
  if (!Number.isSafeInteger(expires) || expires < 0 || expires > MAX_EXPIRES) throw new TypeError(`signLink: expiresAt must be whole Unix seconds (0: never) or a Date, got ${String(expiresAt)}`)
  if (!TARGET.test(target)) {
    throw new TypeError(`signLink: the target must be a path and query starting with one "/", percent-encoded as in a URL (no spaces, "#" or other characters outside printable ASCII: linkTarget() builds one), got "${target.slice(0, 40)}"`)
  }
  if (typeof link?.id !== 'string' || link.id === '' || typeof link.secret !== 'string' || link.secret === '') {
    throw new TypeError('signLink: pass the key\'s link pair { id, secret } from GET /me (its `links` field)')
  }
  const signature = base64url(hmacSha256(utf8(link.secret), utf8(`${link.id}/${expires}${target}`)))
  return `${base.replace(/\/+$/, '')}/l/${link.id}/${expires}/${signature}${target}`
}

/** The target of a link to POST /gen/custom with `body`: "/gen/custom?body=" + base64url of its JSON (UTF-8). */
export function customLinkTarget (body: unknown): string {
  return `/gen/custom?body=${base64url(utf8(JSON.stringify(body)))}`
}

/**
 * The target of a link to a GET route: `path` and the query, each value percent-encoded
 * (encodeURIComponent; undefined values left out), in the order given.
 */
export function linkTarget (path: string, query: Record<string, string | number | boolean | undefined> = {}): string {
  const pairs = Object.entries(query).filter(([, value]) => value !== undefined).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
  return pairs.length === 0 ? path : `${path}?${pairs.join('&')}`
}
