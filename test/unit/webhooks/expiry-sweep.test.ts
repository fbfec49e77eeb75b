// The expiry sweep with an injected clock: each sweep asks for the keys that expired since
// the last one and emits key.expired for each; a store that fails or does not answer
// within the deadline is asked again next time from the same mark; a restart resumes
// from the mark kept on disk, a day back at most.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import type { AccessEvent } from '../../../src/access/events.js'
import { NO_KEY_LIMITS, type ApiKeyRecord } from '../../../src/store/interface.js'
import { EXPIRY_SWEEP_MS, type ExpiredBetween, MAX_LOOKBACK_MS, startExpirySweep, SWEEP_DEADLINE_MS } from '../../../src/webhooks/expiry-sweep.js'
import { tempDirs } from '../../support/helpers.js'
import { fakeClock } from './fake-clock.js'

const dirs = tempDirs()
after(() => dirs.removeAll())

const key = (id: number): ApiKeyRecord => ({
  id,
  name: `k${id}`,
  prefix: 'um_x',
  hash: 'f'.repeat(64),
  status: 'active',
  source: 'cli',
  limits: NO_KEY_LIMITS,
  linkId: 'AAAAAAAAAAAAAAAA',
  linkSeed: 's',
  owner: null,
  meta: null,
  expiresAt: null,
  unitsTotal: 0,
  credits: null,
  previousHash: null,
  previousValidUntil: null,
  createdAt: new Date(0),
  updatedAt: new Date(0)
})

const quietLog = { info () {}, warn () {}, error () {} }

function harness (expiries: Map<number, number>, behaviour: { fail?: boolean, hang?: boolean } = {}) {
  const asked: Array<[number, number]> = []
  const emitted: AccessEvent[] = []
  const expiredBetween: ExpiredBetween = async (from, to) => {
    asked.push([from, to])
    if (behaviour.hang === true) return await new Promise<never>(() => {})
    if (behaviour.fail === true) throw new Error('database down')
    return [...expiries].filter(([, at]) => at > from && at <= to).map(([id, at]) => ({ key: key(id), expiredAt: at }))
  }
  return { asked, emitted, expiredBetween, events: { emit: (e: AccessEvent) => { emitted.push(e) } } }
}

describe('expiry sweep', () => {
  it('announces each key that expired since the last sweep, once', async () => {
    const clock = fakeClock(1_000_000)
    const h = harness(new Map([[1, 1_000_000 + 10_000], [2, 1_000_000 + 70_000], [3, 1_000_000 + 500_000]]))
    const sweep = startExpirySweep({ expiredBetween: h.expiredBetween, events: h.events, log: quietLog, clock })
    await clock.advance(EXPIRY_SWEEP_MS)
    await clock.advance(EXPIRY_SWEEP_MS)
    assert.deepEqual(h.asked, [[1_000_000, 1_060_000], [1_060_000, 1_120_000]])
    assert.deepEqual(h.emitted, [
      { type: 'key.expired', key: key(1), expiredAt: 1_010_000 },
      { type: 'key.expired', key: key(2), expiredAt: 1_070_000 }
    ])
    sweep.stop()
    await clock.advance(10 * EXPIRY_SWEEP_MS)
    assert.equal(h.asked.length, 2, 'stopped')
    assert.equal(clock.pending, 0)
  })

  it('asks again from the same mark when the store fails or does not answer, saying so once', async () => {
    for (const behaviour of [{ fail: true }, { hang: true }]) {
      const clock = fakeClock(0)
      const h = harness(new Map([[1, 30_000]]), behaviour)
      const warnings: string[] = []
      const sweep = startExpirySweep({ expiredBetween: h.expiredBetween, events: h.events, log: { ...quietLog, warn: (_f, m) => warnings.push(m) }, clock })
      await clock.advance(EXPIRY_SWEEP_MS + SWEEP_DEADLINE_MS)
      await clock.advance(EXPIRY_SWEEP_MS + SWEEP_DEADLINE_MS)
      assert.deepEqual(h.asked.map(([from]) => from), [0, 0], JSON.stringify(behaviour))
      assert.equal(h.emitted.length, 0)
      assert.deepEqual(warnings, ['expiry sweep: the store did not answer; tried again at the next sweep'])
      // The store is back: the key that expired during the outage is announced.
      behaviour.fail = false
      ;(behaviour as { hang?: boolean }).hang = false
      await clock.advance(EXPIRY_SWEEP_MS)
      assert.deepEqual(h.emitted.map((e) => e.key.id), [1])
      sweep.stop()
    }
  })

  it('resumes from the mark kept on disk after a restart, a day back at most', async () => {
    const dir = dirs.make('uma-sweep-')
    const clock = fakeClock(0)
    const h = harness(new Map([[1, 30_000], [2, 200_000], [3, 4 * MAX_LOOKBACK_MS], [4, 5 * MAX_LOOKBACK_MS + 1000]]))
    const first = startExpirySweep({ expiredBetween: h.expiredBetween, events: h.events, log: quietLog, clock, dir })
    await clock.advance(EXPIRY_SWEEP_MS)
    first.stop()
    // Stopped at 60 s, started again at 150 s: the sweep starts from the mark, so key 2 is not missed.
    const later = fakeClock(150_000)
    const second = startExpirySweep({ expiredBetween: h.expiredBetween, events: h.events, log: quietLog, clock: later, dir })
    await later.advance(EXPIRY_SWEEP_MS)
    second.stop()
    assert.deepEqual(h.asked.at(-1), [60_000, 210_000])
    assert.deepEqual(h.emitted.map((e) => e.key.id), [1, 2])
    // Started again days later: a day back at most.
    const muchLater = fakeClock(6 * MAX_LOOKBACK_MS)
    const third = startExpirySweep({ expiredBetween: h.expiredBetween, events: h.events, log: quietLog, clock: muchLater, dir })
    await muchLater.advance(EXPIRY_SWEEP_MS)
    third.stop()
    assert.deepEqual(h.asked.at(-1), [5 * MAX_LOOKBACK_MS, 6 * MAX_LOOKBACK_MS + EXPIRY_SWEEP_MS])
    // Key 3 expired more than a day before: not announced; key 4 within the day: announced.
    assert.deepEqual(h.emitted.map((e) => e.key.id), [1, 2, 4])
  })
})
