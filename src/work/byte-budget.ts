// Bytes that requests hold while they wait for their work: an image upload from the moment
// its headers arrive until its conversion has stopped (IMAGE_UPLOAD_MEMORY,
// src/conversion/image/routes.ts), a picture's fetched images from the moment each answer's
// headers arrive until the picture is drawn (REMOTE_FETCH_MEMORY, src/generation/service.ts).
// Such bytes are I/O, not CPU: they hold no lane (scheduler.ts), only their bytes here,
// reserved before they are read (from a declared length, or the largest that may come),
// so that a refused request costs no memory. A hold may grow (a picture's next image) and
// shrink (an image smaller than its declared bound).
//
// Fair between keys without a count per key: when bytes do not fit, holds of the key
// holding the most, if it holds more than an even share among the keys holding some (the
// newcomer included), are shed (503 with Retry-After), newest first, until the newcomer
// fits. One key may fill the budget while nobody else asks; a key trickling uploads or
// fetches cannot keep another key's requests out. Holds whose work has started (pinned)
// are never shed: their work is under way.
//
// The oldest hold may grow past the budget (a picture's images are bounded per request
// elsewhere: 10 images of REMOTE_FETCH_MAX_BYTES and 20 emoji of 1 MB), as the first job
// waiting for IMAGE_MEMORY runs alone when it is larger than the budget (memory-budget.ts):
// what requests hold together stays within the budget and one request's own bound, a
// request larger than the budget is not refused for ever, and among requests that each
// need much, the oldest always finishes instead of all of them failing in turn.
import { AppError, type ErrorCode } from '../errors.js'
import type { Owner } from './scheduler.js'

export interface ByteHold {
  /** Bytes held now. */
  readonly bytes: number
  /**
   * Adds `bytes`, shedding other keys' holds as `reserve` does, or throws the busy error
   * (the hold keeps what it had).
   */
  grow (bytes: number): void
  /** Gives `bytes` of it back (what was reserved and did not come). */
  shrink (bytes: number): void
  /** Gives every byte back; safe to call more than once. */
  release (): void
  /** Its work has started: from now on it is never shed. */
  pin (): void
}

export interface ByteBudget {
  /**
   * Reserves `bytes` for a request of `owner`, shedding other keys' holds as above (each
   * shed hold's `shed` is called with the busy error, once), or throws the busy error.
   */
  reserve (owner: Owner, bytes: number, shed: (err: AppError) => void): ByteHold
  readonly limitBytes: number
  readonly held: number
  readonly holds: number
}

export interface ByteBudgetOptions {
  limitBytes: number
  busyCode: ErrorCode
  /**
   * Retry-After of a refused or shed request, in seconds: about how long what is held
   * now takes to be let go (a function when that follows the load).
   */
  retryAfterSeconds: number | (() => number)
  /** The setting that sizes the budget, named in messages (IMAGE_UPLOAD_MEMORY). */
  setting: string
  /** What is held, plural, in messages ("uploads", "fetched images"). */
  what: string
  /** The key of the limit in an error's details (uploadMemoryBytes). */
  detail: string
}

interface Hold { owner: Owner | symbol, bytes: number, pinned: boolean, shed: (err: AppError) => void, released: boolean }

export function createByteBudget ({ limitBytes, busyCode, retryAfterSeconds, setting, what, detail }: ByteBudgetOptions): ByteBudget {
  /** In arrival order. */
  const holds = new Set<Hold>()
  const byOwner = new Map<Owner | symbol, number>()
  let held = 0

  const busy = (message: string): AppError => {
    const retryAfter = typeof retryAfterSeconds === 'function' ? retryAfterSeconds() : retryAfterSeconds
    return new AppError(busyCode, message, {
      headers: { 'retry-after': String(retryAfter) },
      details: { retryAfter, [detail]: limitBytes }
    })
  }

  function add (hold: Hold, bytes: number): void {
    hold.bytes += bytes
    held += bytes
    const left = (byOwner.get(hold.owner) ?? 0) + bytes
    if (left <= 0) byOwner.delete(hold.owner)
    else byOwner.set(hold.owner, left)
  }

  function drop (hold: Hold): void {
    if (hold.released) return
    hold.released = true
    holds.delete(hold)
    add(hold, -hold.bytes)
  }

  /** The newest sheddable hold of the owner holding the most, if it holds more than `share`. */
  function victim (except: Owner | symbol, share: number): Hold | undefined {
    let heaviest: Owner | symbol | undefined
    let most = share
    for (const [owner, bytes] of byOwner) {
      if (owner !== except && bytes > most) {
        most = bytes
        heaviest = owner
      }
    }
    if (heaviest === undefined) return undefined
    let newest: Hold | undefined
    for (const hold of holds) if (hold.owner === heaviest && !hold.pinned) newest = hold
    return newest
  }

  /** Makes room for `bytes` more for `hold` (its own bytes already counted), or throws the busy error. */
  function admit (hold: Hold, bytes: number): void {
    // The oldest hold may grow past the budget (the header's last paragraph).
    const oldest = holds.values().next().value === hold
    const fits = (): boolean => oldest || held === hold.bytes || held + bytes <= limitBytes
    if (fits()) return
    const owner = hold.owner
    const owners = byOwner.size + (byOwner.has(owner) ? 0 : 1)
    const share = limitBytes / owners
    // The newcomer's own holdings count against it: a key over its share sheds nobody.
    if ((byOwner.get(owner) ?? 0) + bytes <= share) {
      for (let v = victim(owner, share); v !== undefined && !fits(); v = victim(owner, share)) {
        drop(v)
        v.shed(busy(`This request was stopped to make room for other keys' ${what}: the server holds as many bytes of ${what} as it may (${setting}), most of them this key's. Retry after the number of seconds in Retry-After`))
      }
    }
    if (!fits()) {
      throw busy(`The server already holds ${Math.round(held / 1024 / 1024)} MB of ${what}, its most (${setting}): retry after the number of seconds in Retry-After`)
    }
  }

  return {
    limitBytes,
    get held () { return held },
    get holds () { return holds.size },
    reserve (requester, bytes, shed) {
      const hold: Hold = { owner: requester ?? Symbol('no owner'), bytes: 0, pinned: false, shed, released: false }
      admit(hold, bytes)
      holds.add(hold)
      add(hold, bytes)
      return {
        get bytes () { return hold.bytes },
        grow (more) {
          if (hold.released) throw busy(`This request no longer holds any ${what}: it was stopped`)
          admit(hold, more)
          add(hold, more)
        },
        shrink (less) {
          if (!hold.released) add(hold, -Math.min(less, hold.bytes))
        },
        release: () => drop(hold),
        pin () { hold.pinned = true }
      }
    }
  }
}
