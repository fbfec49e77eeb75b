// Idempotency-Key on POST /admin/v1/keys: a storefront's webhook retried after a lost
// answer makes nothing new. The first request claims the key (per operator), makes the
// API key, and keeps its answer, secret included, encrypted with AES-256-GCM under a
// server-side secret the database never holds (ADMIN_ANSWER_KEY, else a file of its own
// under DATA_DIR, as the link signing key: src/access/link-secrets.ts). After
// ANSWER_KEPT_MS the encrypted answer is dropped and a retry gets the key without its
// secret (docs/admin-api.md, "Idempotency").
import { createCipheriv, createDecipheriv, createHash, hash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { AppError } from '../errors.js'
import type { AdminStore } from '../store/interface.js'

/** How long a first answer (with its secret) is kept for a retry: a day, as the issue asks. */
export const ANSWER_KEPT_MS = 24 * 3_600_000
/** The file that holds the answer key of an install with no ADMIN_ANSWER_KEY. */
export const ANSWER_KEY_FILE = 'admin-answer-key'
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/
const CIPHER = 'aes-256-gcm'
const IV_BYTES = 12
const TAG_BYTES = 16
const VERSION = 'v1.'

/**
 * The 32-byte AES key answers are encrypted with: SHA-256 of ADMIN_ANSWER_KEY; else, with
 * one instance, a random key made once in DATA_DIR/admin-answer-key (mode 0600); else
 * (DATABASE_URL: every instance must share it) none, and no answer is kept.
 */
export function loadAnswerKey (options: { configured: string | undefined, dataDir: string, scaleOut: boolean }): Buffer | undefined {
  if (options.configured !== undefined) return createHash('sha256').update(options.configured).digest()
  if (options.scaleOut) return undefined
  const file = path.join(options.dataDir, ANSWER_KEY_FILE)
  fs.mkdirSync(options.dataDir, { recursive: true })
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  const text = fs.readFileSync(file, 'utf8').trim()
  if (text.length < 32) throw new Error(`${file} holds no answer key (fewer than 32 characters): remove it to have a new one made (answers kept so far are then lost)`)
  return createHash('sha256').update(text).digest()
}

export function encryptAnswer (key: Buffer, plain: string): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv(CIPHER, key, iv)
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
}

/** The plain answer, or undefined when it was encrypted under another key (rotated) or altered. */
export function decryptAnswer (key: Buffer, sealed: string): string | undefined {
  if (!sealed.startsWith(VERSION)) return undefined
  const bytes = Buffer.from(sealed.slice(VERSION.length), 'base64url')
  if (bytes.length < IV_BYTES + TAG_BYTES) return undefined
  try {
    const decipher = createDecipheriv(CIPHER, key, bytes.subarray(0, IV_BYTES))
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')
  } catch {
    return undefined
  }
}

/** JSON with object keys sorted: the same body in another key order hashes the same. */
function canonical (value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

export const bodyHash = (body: unknown): string => hash('sha256', canonical(body ?? {}), 'hex')

export type IdempotentOutcome<T> =
  | { kind: 'made', answer: T }
  | { kind: 'replayed', answer: T }
  /** The first answer is no longer kept (or cannot be read): the key it made. */
  | { kind: 'expired', keyId: number }

export interface IdempotencyOptions {
  store: AdminStore
  /** Undefined: answers are not kept (scale-out without ADMIN_ANSWER_KEY); retries still make nothing new. */
  answerKey: Buffer | undefined
  now?: () => number
}

export type Idempotency = ReturnType<typeof createIdempotency>

export function createIdempotency ({ store, answerKey, now = Date.now }: IdempotencyOptions) {
  return {
    /**
     * Runs `make` once per (actor, key, body): the first call makes and keeps its answer;
     * a retry with the same body gets that answer back (or the key id once the answer is
     * dropped); another body is IDEMPOTENCY_MISMATCH.
     */
    async run<T extends { id: string }> (actor: string, key: string, body: unknown, make: () => Promise<T>): Promise<IdempotentOutcome<T>> {
      const at = now()
      await store.forgetAnswers(new Date(at - ANSWER_KEPT_MS))
      const digest = bodyHash(body)
      const existing = await store.claimIdempotency({ actor, key, bodyHash: digest, at: new Date(at) })
      if (existing === undefined) {
        let answer: T
        try {
          answer = await make()
        } catch (err) {
          await store.releaseIdempotency(actor, key).catch(() => {})
          throw err
        }
        await store.completeIdempotency(actor, key, Number(answer.id), answerKey === undefined ? null : encryptAnswer(answerKey, JSON.stringify(answer)))
        return { kind: 'made', answer }
      }
      if (existing.bodyHash !== digest) throw new AppError('IDEMPOTENCY_MISMATCH', `The Idempotency-Key "${key}" was used ${new Date(existing.createdAt).toISOString()} with another body: use a new key for a new request, or send that body again`)
      if (existing.keyId === null) throw new AppError('IDEMPOTENCY_IN_PROGRESS')
      const plain = existing.answer !== null && answerKey !== undefined && at - existing.createdAt.getTime() < ANSWER_KEPT_MS ? decryptAnswer(answerKey, existing.answer) : undefined
      if (plain !== undefined) return { kind: 'replayed', answer: JSON.parse(plain) as T }
      return { kind: 'expired', keyId: existing.keyId }
    }
  }
}
