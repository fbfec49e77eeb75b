// Prepaid credits per key (docs/billing.md, "Credits"): a request is admitted only when
// what is left pays its full cost, reserved at admission and settled at the answer with
// what it was billed (src/access/rate-limit.ts, billedUnits), so one instance never takes
// a key below zero, however many of its requests run at once.
//
// What is left = what the store holds (credits_base - (units_total - credits_mark),
// storedCredits) - this instance's units not written yet - its reservations. The store's
// part is read again at most every refresh interval (USAGE_FLUSH_MS, as quotas read
// theirs), through the usage recorder's withoutWrites, so that a batch of usage is either
// in the read or still unwritten here, never both (charged twice) nor neither (a free
// picture). Other instances' units reach this one within about two intervals: across
// instances the bound is that of quotas (docs/scale-out.md). The refill is lazy: the
// first read in a new UTC day or month asks the store for it, one conditional UPDATE
// that at most one instance wins.
import { AppError } from '../errors.js'
import { type ApiKeyRecord, type KeyRefill, type KeyStore, storedCredits, StoreUnavailableError } from '../store/interface.js'
import { type AccessEvents, NO_ACCESS_EVENTS } from './events.js'
import { periodEnd, periodLabel, type UsageRecorder } from './usage-recorder.js'

/** Credits count as low at or under this share of the last grant (set, add or refill): 10 %. */
export const LOW_CREDITS_SHARE = 0.1
/** Longest a credits read may take (waiting for a usage write included) before the request is answered 503. */
export const CREDITS_READ_DEADLINE_MS = 5000
/** Keys whose state is kept at most; past it the states are read again. */
const MAX_STATES = 10_000
/** Seconds a client waits before retrying when the credits could not be read. */
const RETRY_AFTER_S = 2

/** The level at or under which a grant counts as low (LOW_CREDITS_SHARE of it, rounded down). */
export function lowCreditsThreshold (granted: number | null): number {
  return Math.floor(Math.max(0, granted ?? 0) * LOW_CREDITS_SHARE)
}

interface CreditState {
  /** No credits on the key: not metered. */
  metered: boolean
  /** What the store held when read, less the batches written here since. */
  stored: number
  fetchedAt: number
  threshold: number
  refill: KeyRefill | null
  refilledPeriod: string | null
  /** credits.low was emitted (or the key was already low when read): not again until a grant. */
  lowNoted: boolean
}

/** Units a request holds from admission until its answer. */
export interface CreditHold {
  key: ApiKeyRecord
  units: number
  open: boolean
}

/** What /me shows of a key's credits. */
export interface CreditsView {
  remaining: number
  refill: { amount: number, period: 'day' | 'month', nextAt: string } | null
}

export interface CreditLedger {
  /**
   * Reserves `cost` units of a key with credits; null for a key without. Throws
   * CREDITS_EXHAUSTED (402, nothing reserved) when what is left does not pay for it, and
   * STORE_UNAVAILABLE (503) when the credits cannot be read in time.
   */
  reserve (key: ApiKeyRecord, cost: number, now: number): Promise<CreditHold | null>
  /** Ends a hold: `billed` units were just recorded in the usage recorder (0: none). Once per hold. */
  settle (hold: CreditHold, billed: number): void
  /** What is left now, as known here without a read (null: not known or no credits). */
  known (keyId: number): number | null
  /** The key's credits, read if stale (null: no credits). */
  view (key: ApiKeyRecord, now: number): Promise<CreditsView | null>
  /** Reads the key again at its next use (its credits or refill were changed here). */
  forget (keyId: number): void
}

export interface CreditLedgerOptions {
  keys: KeyStore
  usage: UsageRecorder
  /** How old the store's part may be before it is read again (USAGE_FLUSH_MS). */
  refreshMs: number
  events?: AccessEvents
  /** Overrides CREDITS_READ_DEADLINE_MS (tests). */
  readDeadlineMs?: number
}

export function createCreditLedger (opts: CreditLedgerOptions): CreditLedger {
  const events = opts.events ?? NO_ACCESS_EVENTS
  const deadlineMs = opts.readDeadlineMs ?? CREDITS_READ_DEADLINE_MS
  const states = new Map<number, CreditState>()
  /** Units reserved by requests under way, per key. */
  const held = new Map<number, number>()
  const loading = new Map<number, Promise<CreditState>>()

  // A batch the store took is in the stored totals now: out of what was read before it.
  opts.usage.onWritten((entries) => {
    for (const e of entries) {
      const state = states.get(e.keyId)
      if (state) state.stored -= e.units
    }
  })

  const left = (keyId: number, state: CreditState): number =>
    state.stored - opts.usage.unwrittenUnits(keyId) - (held.get(keyId) ?? 0)

  const refillDue = (state: CreditState, now: number): boolean =>
    state.metered && state.refill !== null && (state.refilledPeriod ?? '') < periodLabel(state.refill.period, now)

  async function read (key: ApiKeyRecord, now: number): Promise<CreditState> {
    return await opts.usage.withoutWrites(async () => {
      let record = await opts.keys.findById(key.id)
      const refill = record?.credits?.refill
      if (record && refill && (record.credits!.refilledPeriod ?? '') < periodLabel(refill.period, now)) {
        // Another instance may win the update: then the key as it left it.
        record = await opts.keys.refill(key.id, periodLabel(refill.period, now)) ?? await opts.keys.findById(key.id)
      }
      const stored = record ? storedCredits(record) : null
      const before = states.get(key.id)
      const state: CreditState = {
        metered: stored !== null,
        stored: stored ?? 0,
        fetchedAt: now,
        threshold: lowCreditsThreshold(record?.credits?.granted ?? null),
        refill: record?.credits?.refill ?? null,
        refilledPeriod: record?.credits?.refilledPeriod ?? null,
        lowNoted: false
      }
      // Low already when read: said by whoever took it there (or said here before).
      state.lowNoted = state.metered && (before?.lowNoted === true || left(key.id, state) <= state.threshold)
      if (states.size >= MAX_STATES) states.clear()
      // Set inside the read: a batch written after it is subtracted from this state.
      states.set(key.id, state)
      return state
    })
  }

  /**
   * The key's state, read again when older than the refresh interval, when a refill is
   * due, or when the key as just looked up disagrees on whether it has credits (given or
   * taken away elsewhere since the state was read: the key cache has seen it, so must this).
   */
  async function stateOf (key: ApiKeyRecord, now: number): Promise<CreditState> {
    const current = states.get(key.id)
    if (current && now - current.fetchedAt <= opts.refreshMs && !refillDue(current, now) && current.metered === (key.credits !== null)) return current
    let pending = loading.get(key.id)
    if (!pending) {
      pending = withDeadline(read(key, now)).finally(() => loading.delete(key.id))
      loading.set(key.id, pending)
    }
    return await pending
  }

  async function withDeadline<T> (work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new StoreUnavailableError(`The key's credits could not be read within ${deadlineMs} ms`, RETRY_AFTER_S)), deadlineMs)
    })
    try {
      return await Promise.race([work, late])
    } finally {
      clearTimeout(timer)
    }
  }

  return {
    async reserve (key, cost, now) {
      const state = await stateOf(key, now)
      if (!state.metered) return null
      const remaining = left(key.id, state)
      if (remaining < cost) {
        throw new AppError('CREDITS_EXHAUSTED', `This key has ${Math.max(0, remaining)} credits left and this request costs ${cost}: nothing was charged; ask the operator for more credits${state.refill ? `, or wait for the refill of ${state.refill.amount} at ${new Date(periodEnd(state.refill.period, now)).toISOString()}` : ''}`, {
          headers: { 'x-credits-remaining': String(Math.max(0, remaining)) }
        })
      }
      held.set(key.id, (held.get(key.id) ?? 0) + cost)
      return { key, units: cost, open: true }
    },
    settle (hold, billed) {
      if (!hold.open) return
      hold.open = false
      const units = (held.get(hold.key.id) ?? 0) - hold.units
      if (units > 0) held.set(hold.key.id, units)
      else held.delete(hold.key.id)
      const state = states.get(hold.key.id)
      if (!state || !state.metered || billed === 0) return
      const remaining = left(hold.key.id, state)
      if (remaining > state.threshold) {
        state.lowNoted = false
      } else if (!state.lowNoted) {
        state.lowNoted = true
        events.emit({ type: 'credits.low', key: hold.key, remaining: Math.max(0, remaining), threshold: state.threshold })
      }
    },
    known (keyId) {
      const state = states.get(keyId)
      return state?.metered === true ? Math.max(0, left(keyId, state)) : null
    },
    async view (key, now) {
      const state = await stateOf(key, now)
      if (!state.metered) return null
      return {
        remaining: Math.max(0, left(key.id, state)),
        refill: state.refill === null ? null : { ...state.refill, nextAt: new Date(periodEnd(state.refill.period, now)).toISOString() }
      }
    },
    forget (keyId) {
      states.delete(keyId)
    }
  }
}
