// The Standard Webhooks signature (https://www.standardwebhooks.com/, "Signature scheme"):
// `v1,` and the base64 HMAC-SHA256, keyed with the secret's bytes, of
// `${webhook-id}.${webhook-timestamp}.${body}`. Written with node:crypto rather than the
// `standardwebhooks` package: signing is these few lines, node:crypto's HMAC is native
// (the package hashes in JavaScript, through fast-sha256), and the tests check our
// signatures with that package's Webhook.verify, an implementation independent of this one.
import { createHmac } from 'node:crypto'

/** The key of a `whsec_<base64>` secret (WEBHOOK_SECRET, checked when read: src/config/settings.ts). */
export function secretKey (secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64')
}

/** The webhook-signature header of one attempt; `timestamp` in seconds since the epoch. */
export function signature (key: Buffer, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`
}
