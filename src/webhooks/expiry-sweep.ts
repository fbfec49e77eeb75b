// key.expired for keys that nobody used after their expiry: a key refused for its expiry
// says so when it is used (src/access/), but a storefront also wants to hear about the
// key that simply ran out. Every EXPIRY_SWEEP_MS (an unref'd timer) the store is asked for
// the keys that expired since the last sweep, each announced once. A store that does not
// answer (PostgreSQL down) is asked again next time, from the same mark: nothing is
// missed, nothing fails. The mark is kept in DATA_DIR/webhooks-pending, so a restart
// resumes from it (keys that expired while the server was stopped are announced, for one
// day back at most). With several instances each sweeps and emits: the same event
// carries the same webhook-id (./message.ts), which the receiver drops as a repeat.
import fs from 'node:fs'
import path from 'node:path'
import type { AccessEvents } from '../access/events.js'
import type { ApiKeyRecord } from '../store/interface.js'
import { type Clock, SYSTEM_CLOCK, type WebhookLog } from './sender.js'

export const EXPIRY_SWEEP_MS = 60_000
/** A sweep's store call is abandoned after this (tried again at the next sweep). */
export const SWEEP_DEADLINE_MS = 10_000
/** After a stop, keys that expired this long ago at most are announced at the start. */
export const MAX_LOOKBACK_MS = 86_400_000
const MARK_FILE = 'expiry-sweep.json'

/** Keys whose expiry falls in [fromMs, toMs), each with its expiry (epoch ms): KeyStore.expiringBetween. */
export type ExpiredBetween = (fromMs: number, toMs: number) => Promise<Array<{ key: ApiKeyRecord, expiredAt: number }>>

export interface ExpirySweepOptions {
  expiredBetween: ExpiredBetween
  events: AccessEvents
  log: WebhookLog
  /** Where the mark is kept (DATA_DIR/webhooks-pending); none: a start sweeps from its own time. */
  dir?: string
  intervalMs?: number
  clock?: Clock
}

export interface ExpirySweep {
  /** One sweep now (the timer's); resolves when it has ended, well or not. */
  sweep: () => Promise<void>
  stop: () => void
}

function readMark (dir: string | undefined): number | undefined {
  if (dir === undefined) return undefined
  try {
    const mark = (JSON.parse(fs.readFileSync(path.join(dir, MARK_FILE), 'utf8')) as { sweptTo?: unknown }).sweptTo
    return typeof mark === 'number' && Number.isFinite(mark) ? mark : undefined
  } catch {
    return undefined
  }
}

export function startExpirySweep (options: ExpirySweepOptions): ExpirySweep {
  const clock = options.clock ?? SYSTEM_CLOCK
  const intervalMs = options.intervalMs ?? EXPIRY_SWEEP_MS
  const started = clock.now()
  let from = Math.max(readMark(options.dir) ?? started, started - MAX_LOOKBACK_MS)
  let running: Promise<void> | undefined
  let timer: unknown
  let stopped = false
  let failing = false

  function keepMark (to: number): void {
    if (options.dir === undefined) return
    try {
      fs.mkdirSync(options.dir, { recursive: true })
      const file = path.join(options.dir, MARK_FILE)
      fs.writeFileSync(`${file}.tmp`, JSON.stringify({ sweptTo: to }))
      fs.renameSync(`${file}.tmp`, file)
    } catch (err) {
      options.log.warn({ err }, 'could not keep the expiry sweep\'s mark: a restart may announce some expired keys again')
    }
  }

  async function sweepOnce (): Promise<void> {
    const to = clock.now()
    if (to <= from) return
    let deadline: unknown
    try {
      const expired = await Promise.race([
        options.expiredBetween(from, to),
        new Promise<never>((_resolve, reject) => { deadline = clock.setTimeout(() => reject(new Error(`no answer within ${SWEEP_DEADLINE_MS} ms`)), SWEEP_DEADLINE_MS) })
      ])
      for (const { key, expiredAt } of expired) options.events.emit({ type: 'key.expired', key, expiredAt })
      from = to
      keepMark(to)
      if (failing) options.log.info({}, 'expiry sweep: the store answers again')
      failing = false
    } catch (err) {
      // Said once per outage, not at every sweep.
      if (!failing) options.log.warn({ problem: (err as Error).message }, 'expiry sweep: the store did not answer; tried again at the next sweep')
      failing = true
    } finally {
      clock.clearTimeout(deadline)
    }
  }

  function sweep (): Promise<void> {
    running ??= sweepOnce().finally(() => { running = undefined })
    return running
  }

  function schedule (): void {
    if (stopped) return
    timer = clock.setTimeout(() => { sweep().finally(schedule).catch(() => {}) }, intervalMs)
  }
  schedule()

  return {
    sweep,
    stop () {
      stopped = true
      clock.clearTimeout(timer)
    }
  }
}
