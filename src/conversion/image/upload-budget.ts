// The bytes image uploads hold, from the moment their headers arrive until their
// conversion has stopped (IMAGE_UPLOAD_MEMORY). An upload is I/O, not CPU: it holds no
// conversion lane (src/work/scheduler.ts), only its bytes here, reserved from its declared
// Content-Length (the largest upload, 15 MB and a form's overhead, when the body is sent
// chunked) before the body is read, so that a refused upload costs no memory.
//
// Fair between keys without a count per key: when an upload does not fit, uploads of the
// key holding the most bytes, if it holds more than an even share among the keys holding
// some (the newcomer included), are shed (503 with Retry-After), newest first, until the
// newcomer fits. One key may fill the budget while nobody else uploads; a key trickling
// uploads cannot keep another key from converting. Uploads already converting are never
// shed: their work is under way.
import { AppError, type ErrorCode } from '../../errors.js'
import type { Owner } from '../../work/scheduler.js'

export interface UploadHold {
  /** Gives the bytes back; safe to call more than once. */
  release (): void
  /** Its conversion has started: from now on it is never shed. */
  converting (): void
}

export interface UploadBudget {
  /**
   * Reserves `bytes` for an upload of `owner`, shedding other keys' uploads as above
   * (each shed upload's `shed` is called with the busy error), or throws the busy error.
   */
  reserve (owner: Owner, bytes: number, shed: (err: AppError) => void): UploadHold
  readonly held: number
  readonly uploads: number
}

export interface UploadBudgetOptions {
  limitBytes: number
  busyCode: ErrorCode
  /** Retry-After of a refused or shed upload: about what an upload of the largest size takes to arrive and convert. */
  retryAfterSeconds: number
}

interface Hold { owner: Owner | symbol, bytes: number, converting: boolean, shed: (err: AppError) => void, released: boolean }

export function createUploadBudget ({ limitBytes, busyCode, retryAfterSeconds }: UploadBudgetOptions): UploadBudget {
  /** In arrival order. */
  const holds = new Set<Hold>()
  const byOwner = new Map<Owner | symbol, number>()
  let held = 0

  const busy = (message: string): AppError => new AppError(busyCode, message, {
    headers: { 'retry-after': String(retryAfterSeconds) },
    details: { retryAfter: retryAfterSeconds, uploadMemoryBytes: limitBytes }
  })

  function drop (hold: Hold): void {
    if (hold.released) return
    hold.released = true
    holds.delete(hold)
    held -= hold.bytes
    const left = (byOwner.get(hold.owner) ?? 0) - hold.bytes
    if (left <= 0) byOwner.delete(hold.owner)
    else byOwner.set(hold.owner, left)
  }

  /** The newest sheddable upload of the owner holding the most, if it holds more than `share`. */
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
    for (const hold of holds) if (hold.owner === heaviest && !hold.converting) newest = hold
    return newest
  }

  return {
    get held () { return held },
    get uploads () { return holds.size },
    reserve (requester, bytes, shed) {
      const owner: Owner | symbol = requester ?? Symbol('no owner')
      const fits = (): boolean => held === 0 || held + bytes <= limitBytes
      if (!fits()) {
        const owners = byOwner.size + (byOwner.has(owner) ? 0 : 1)
        const share = limitBytes / owners
        // The newcomer's own holdings count against it: a key over its share sheds nobody.
        if ((byOwner.get(owner) ?? 0) + bytes <= share) {
          for (let v = victim(owner, share); v !== undefined && !fits(); v = victim(owner, share)) {
            drop(v)
            v.shed(busy('This upload was stopped to make room for other keys\' uploads: the server holds as many upload bytes as it may, most of them this key\'s. Retry after the number of seconds in Retry-After'))
          }
        }
        if (!fits()) {
          throw busy(`The server already holds ${Math.round(held / 1024 / 1024)} MB of uploads, its most (IMAGE_UPLOAD_MEMORY): retry after the number of seconds in Retry-After`)
        }
      }
      const hold: Hold = { owner, bytes, converting: false, shed, released: false }
      holds.add(hold)
      held += bytes
      byOwner.set(owner, (byOwner.get(owner) ?? 0) + bytes)
      return {
        release: () => drop(hold),
        converting () { hold.converting = true }
      }
    }
  }
}
