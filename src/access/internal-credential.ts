// The credential a link's replay carries (src/links/): GET /l/... and POST /links run the
// target request through the whole request path (auth, limits, quota, usage, deadline,
// error envelope) as the link's key, with app.inject. The request gate trusts a replay by
// a token made per process and compared in constant time; it never leaves the process,
// so a request from outside carrying the header is read as if it had none.
import { randomBytes, timingSafeEqual } from 'node:crypto'

export const INTERNAL_CREDENTIAL_HEADER = 'x-internal-replay'

export interface InternalCredential {
  /** The header value that makes a replay run as the key with this hash. */
  value (keyHash: string): string
  /** The key hash a header value names, when it carries this process's token; else undefined. */
  read (header: string | string[] | undefined): string | undefined
}

export function createInternalCredential (): InternalCredential {
  const token = randomBytes(32).toString('base64url')
  const tokenBytes = Buffer.from(token, 'latin1')
  return {
    value: (keyHash) => `${token}.${keyHash}`,
    read (header) {
      if (typeof header !== 'string' || header.length !== token.length + 65 || header[token.length] !== '.') return undefined
      if (!timingSafeEqual(Buffer.from(header.slice(0, token.length), 'latin1'), tokenBytes)) return undefined
      return header.slice(token.length + 1)
    }
  }
}
