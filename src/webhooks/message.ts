// An access event (src/access/events.ts) as the receiver gets it: the body in snake_case,
// `{ type, timestamp, data: { key: { id, name, owner }, ... } }` (the shape the Standard
// Webhooks spec suggests), and its webhook-id. The id is derived from what the event is
// about, not drawn at random: every instance that sends the same event (a quota used up
// in a period, a key past its expiry) gives it the same id, so a receiver that keeps the
// ids it has handled drops the repeats (docs/webhooks.md, "At least once").
import { createHash } from 'node:crypto'
import type { AccessEvent } from '../access/events.js'
import { periodEnd, utcDay } from '../access/usage-recorder.js'
import type { ApiKeyRecord } from '../store/interface.js'

export type WebhookEventType = AccessEvent['type']

/** A delivery's content: the same at every attempt (only the timestamp header and signature change). */
export interface WebhookMessage {
  id: string
  type: WebhookEventType
  /** The JSON body, as signed and sent. */
  body: string
}

/** The key as the management API names it (docs/contract: `id` a string, `owner` the storefront's customer id). */
function keyOf (key: ApiKeyRecord): { id: string, name: string, owner: string | null } {
  return { id: String(key.id), name: key.name, owner: key.owner }
}

/**
 * What the event is about, beside its type and key: the quota's period, the expiry, the
 * credits' threshold and the UTC day it was crossed (credits can run low again after a
 * refill: at most one such event per key, threshold and day).
 */
function subject (event: AccessEvent, now: number): string {
  switch (event.type) {
    case 'quota.exhausted': return `${event.period}|${event.periodStart}`
    case 'credits.low': return `${event.threshold}|${utcDay(now)}`
    case 'key.expired': return String(event.expiredAt)
  }
}

/**
 * `msg_` and 32 hex digits of SHA-256 over the type, the key (its row id and creation
 * time: a key made anew after a store was reset is another key) and the subject.
 */
export function eventId (event: AccessEvent, now: number): string {
  const about = `${event.type}|${event.key.id}|${event.key.createdAt.getTime()}|${subject(event, now)}`
  return `msg_${createHash('sha256').update(about).digest('hex').slice(0, 32)}`
}

function dataOf (event: AccessEvent): Record<string, unknown> {
  const key = keyOf(event.key)
  switch (event.type) {
    case 'quota.exhausted': {
      const [y, m, d] = event.periodStart.split('-').map(Number) as [number, number, number]
      return {
        key,
        period: event.period,
        period_start: event.periodStart,
        quota: event.key.limits.quotaMax ?? null,
        resets_at: new Date(periodEnd(event.period, Date.UTC(y, m - 1, d))).toISOString()
      }
    }
    case 'credits.low': return { key, remaining: event.remaining, threshold: event.threshold }
    case 'key.expired': return { key, expired_at: new Date(event.expiredAt).toISOString() }
  }
}

export function toMessage (event: AccessEvent, now: number): WebhookMessage {
  return {
    id: eventId(event, now),
    type: event.type,
    body: JSON.stringify({ type: event.type, timestamp: new Date(now).toISOString(), data: dataOf(event) })
  }
}
