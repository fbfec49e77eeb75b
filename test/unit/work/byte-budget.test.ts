// The bytes requests hold while they wait for their work (src/work/byte-budget.ts): image
// uploads (IMAGE_UPLOAD_MEMORY) and a picture's fetched images (REMOTE_FETCH_MEMORY).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { type AppError, isAppError } from '../../../src/errors.js'
import { createByteBudget } from '../../../src/work/byte-budget.js'

const MB = 1024 * 1024

function budget (limitMb = 10) {
  return createByteBudget({ limitBytes: limitMb * MB, busyCode: 'RENDER_BUSY', retryAfterSeconds: () => 3, setting: 'REMOTE_FETCH_MEMORY', what: 'fetched images', detail: 'fetchMemoryBytes' })
}

function busy (fn: () => unknown): AppError {
  try {
    fn()
  } catch (err) {
    assert.ok(isAppError(err), String(err))
    return err
  }
  assert.fail('expected the busy error')
}

const never = (): void => assert.fail('not shed')

describe('byte budget', () => {
  it('a hold grows while it fits, then is refused with 503, Retry-After and the setting named', () => {
    const b = budget()
    const first = b.reserve(1, 0, never)
    first.grow(4 * MB)
    const second = b.reserve(1, 0, never)
    second.grow(6 * MB)
    assert.equal(b.held, 10 * MB)
    const err = busy(() => second.grow(1))
    assert.equal(err.status, 503)
    assert.equal(err.code, 'RENDER_BUSY')
    assert.equal(err.headers?.['retry-after'], '3')
    assert.deepEqual(err.details, { retryAfter: 3, fetchMemoryBytes: 10 * MB })
    assert.match(err.message, /REMOTE_FETCH_MEMORY/)
    assert.equal(second.bytes, 6 * MB, 'a refused growth keeps what the hold had')
  })

  it('shrinks to what arrived, and gives everything back once, whatever the exit', () => {
    const b = budget()
    const hold = b.reserve(1, 8 * MB, never)
    hold.shrink(5 * MB)
    assert.equal(b.held, 3 * MB)
    hold.release()
    hold.release()
    hold.shrink(MB)
    assert.equal(b.held, 0)
    assert.equal(b.holds, 0)
    assert.equal(busy(() => hold.grow(1)).status, 503, 'a released hold takes nothing more')
  })

  it('the oldest hold may grow past the budget; a newer one may not', () => {
    const b = budget()
    const oldest = b.reserve(1, 0, never)
    const newer = b.reserve(1, 0, never)
    oldest.grow(8 * MB)
    newer.grow(2 * MB)
    oldest.grow(30 * MB)
    assert.equal(b.held, 40 * MB)
    busy(() => newer.grow(1))
    busy(() => b.reserve(1, 0, never))
    oldest.release()
    newer.grow(8 * MB)
    assert.equal(b.held, 10 * MB)
  })

  it('a key holding more than its share has its newest unpinned hold shed for another key', () => {
    const b = budget()
    const shed: string[] = []
    const a1 = b.reserve(1, 0, () => shed.push('a1'))
    a1.grow(4 * MB)
    a1.pin()
    const a2 = b.reserve(1, 3 * MB, () => shed.push('a2'))
    b.reserve(1, 3 * MB, (err) => shed.push(`a3 ${err.status}`))
    const other = b.reserve(2, 0, never)
    other.grow(3 * MB)
    assert.deepEqual(shed, ['a3 503'], 'the newest of the heaviest key goes first')
    assert.equal(b.held, 10 * MB)
    // Key 1 still holds 7 MB, over the even share of 5: its newest unpinned hold goes again.
    other.grow(2 * MB)
    assert.deepEqual(shed, ['a3 503', 'a2'])
    assert.equal(a2.bytes, 0, 'a shed hold no longer counts')
    assert.equal(b.held, 9 * MB)
    // Key 1's last hold is pinned (its work has started): never shed; key 2 at its share waits.
    busy(() => other.grow(2 * MB))
    assert.deepEqual(shed, ['a3 503', 'a2'])
  })

  it('a key over its share sheds nobody', () => {
    const b = budget()
    b.reserve(1, 5 * MB, never)
    const heavy = b.reserve(2, 5 * MB, never)
    busy(() => heavy.grow(MB))
  })
})
