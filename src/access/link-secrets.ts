// Signed links (docs/links.md): every key's link secret, and the check of a link's
// signature. The secret is "ls_" + base64url(HMAC-SHA256(server key, "{linkId}:{seed}")):
// the seed is in the database, the server key is not (LINK_SIGNING_KEYS, or a file of its
// own under DATA_DIR), so the database alone cannot sign a link. The scheme is shared with
// the typed client's signLink() byte for byte: change neither alone.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { ApiKeyRecord } from '../store/interface.js'

export const LINK_SECRET_PREFIX = 'ls_'
/** The file that holds the server key of an install with no LINK_SIGNING_KEYS (the default mode). */
export const LINK_KEY_FILE = 'link-signing-key'
/** Characters of a signature: base64url of the 32 bytes of an HMAC-SHA256, without padding. */
export const SIGNATURE_LENGTH = 43

/** HMAC-SHA256 of `message` under `secret` (UTF-8 both), base64url without padding: a link's signature. */
export function linkSignature (secret: string, message: string): string {
  return createHmac('sha256', secret).update(message).digest('base64url')
}

/** What a link's signature covers: "{linkId}/{expires}{target}", as the URL carries it. */
export const signedMessage = (linkId: string, expires: string | number, target: string): string => `${linkId}/${expires}${target}`

export interface LinkSigner {
  /** The key's secret as GET /me shows it: derived with the first server key. */
  secret (key: Pick<ApiKeyRecord, 'linkId' | 'linkSeed'>): string
  /** Whether `signature` is the key's signature of `message` under the secret of any server key, in constant time per key. */
  verify (key: Pick<ApiKeyRecord, 'linkId' | 'linkSeed'>, message: string, signature: string): boolean
}

export function createLinkSigner (serverKeys: readonly string[]): LinkSigner {
  if (serverKeys.length === 0) throw new Error('a link signer needs at least one server key')
  const derive = (serverKey: string, key: Pick<ApiKeyRecord, 'linkId' | 'linkSeed'>): string =>
    LINK_SECRET_PREFIX + createHmac('sha256', serverKey).update(`${key.linkId}:${key.linkSeed}`).digest('base64url')
  return {
    secret: (key) => derive(serverKeys[0]!, key),
    verify (key, message, signature) {
      const given = Buffer.from(signature, 'latin1')
      if (given.length !== SIGNATURE_LENGTH) return false
      let match = false
      // Every server key is tried, whichever matches: rotation (docs/links.md, "The server key").
      for (const serverKey of serverKeys) {
        const expected = Buffer.from(linkSignature(derive(serverKey, key), message), 'latin1')
        if (timingSafeEqual(expected, given)) match = true
      }
      return match
    }
  }
}

export type LinkKeys =
  | { state: 'ready', keys: string[], source: 'LINK_SIGNING_KEYS' | 'file' }
  | { state: 'off', reason: string }

/**
 * The server keys links are signed with: LINK_SIGNING_KEYS when set; else, with one
 * instance (SQLite), a random key made once in DATA_DIR/link-signing-key (mode 0600);
 * else (DATABASE_URL: several instances must share one) none, and links are off.
 */
export function loadLinkKeys (options: { configured: readonly string[], dataDir: string, scaleOut: boolean }): LinkKeys {
  if (options.configured.length > 0) return { state: 'ready', keys: [...options.configured], source: 'LINK_SIGNING_KEYS' }
  if (options.scaleOut) {
    return { state: 'off', reason: 'signed links are off: with DATABASE_URL every instance must know the same server key; set LINK_SIGNING_KEYS (32+ characters, the same on every instance; docs/links.md)' }
  }
  const file = path.join(options.dataDir, LINK_KEY_FILE)
  fs.mkdirSync(options.dataDir, { recursive: true })
  try {
    // 'wx': two processes starting together cannot both write one; the loser reads the winner's.
    fs.writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  const key = fs.readFileSync(file, 'utf8').trim()
  if (key.length < 32) throw new Error(`${file} holds no server key (fewer than 32 characters): remove it to have a new one made, which ends every link signed so far, or put the old key back`)
  return { state: 'ready', keys: [key], source: 'file' }
}
