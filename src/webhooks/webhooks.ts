// The webhooks as the app runs them (docs/webhooks.md): with WEBHOOK_URL, the sender the
// access layer emits to, and the expiry sweep; without it, nothing (NO_ACCESS_EVENTS).
// Both keep their state in DATA_DIR/webhooks-pending across restarts.
import path from 'node:path'
import { type AccessEvents, NO_ACCESS_EVENTS } from '../access/events.js'
import type { Config } from '../config.js'
import type { WebhookObserver } from '../metrics/metrics.js'
import { type ExpiredBetween, startExpirySweep } from './expiry-sweep.js'
import { createWebhookSender, type WebhookLog } from './sender.js'

export interface Webhooks {
  events: AccessEvents
  /** Stops the sweep and the sender; what is queued is spilled. */
  close: () => Promise<void>
}

export interface WebhooksDeps {
  config: Pick<Config, 'webhookUrl' | 'webhookSecret' | 'webhookEvents' | 'webhookTimeoutMs' | 'webhookRetryForMs' | 'dataDir'>
  /** The store's keys that expired in a span; none: no sweep (key.expired is then sent only when an expired key is used). */
  expiredBetween?: ExpiredBetween
  observer: WebhookObserver
  log: WebhookLog
  version: string
}

export function startWebhooks ({ config, expiredBetween, observer, log, version }: WebhooksDeps): Webhooks {
  if (config.webhookUrl === undefined || config.webhookSecret === undefined) return { events: NO_ACCESS_EVENTS, close: async () => {} }
  const dir = path.join(config.dataDir, 'webhooks-pending')
  const sender = createWebhookSender({
    url: config.webhookUrl,
    secret: config.webhookSecret,
    events: config.webhookEvents,
    timeoutMs: config.webhookTimeoutMs,
    retryForMs: config.webhookRetryForMs,
    spillDir: dir,
    log,
    observer,
    userAgent: `utility-media-api/${version} (webhooks)`
  })
  const sweep = expiredBetween !== undefined && config.webhookEvents.includes('key.expired')
    ? startExpirySweep({ expiredBetween, events: sender, log, dir })
    : undefined
  return {
    events: sender,
    async close () {
      sweep?.stop()
      await sender.close()
    }
  }
}
