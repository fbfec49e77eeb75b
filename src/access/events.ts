// What happens to a key that its operator's storefront may want to hear about: a quota
// used up, credits running low, a key past its expiry. Access (src/access/) says so
// through this interface; the webhooks (src/webhooks/) deliver them, never on the
// request's path (emit returns at once). Several instances may emit the same event:
// its `id` is derived from what it is about, so a receiver can tell repeats apart.
import type { ApiKeyRecord } from '../store/interface.js'

export type AccessEvent =
  | { type: 'quota.exhausted', key: ApiKeyRecord, period: 'day' | 'month', /** First UTC day of the period, YYYY-MM-DD. */ periodStart: string }
  | { type: 'credits.low', key: ApiKeyRecord, remaining: number, /** The level at or under which credits count as low. */ threshold: number }
  | { type: 'key.expired', key: ApiKeyRecord, /** When it expired (epoch ms). */ expiredAt: number }

export interface AccessEvents {
  /** Queues the event for delivery and returns at once; never throws. */
  emit (event: AccessEvent): void
}

/** No webhooks configured: events go nowhere. */
export const NO_ACCESS_EVENTS: AccessEvents = Object.freeze({ emit () {} })
