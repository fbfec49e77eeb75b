// Concurrent requests for one address share one piece of work; a waiter that leaves
// does not stop it for the others; when all have left, it stops.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createSingleFlight } from '../../../src/result-cache/single-flight.js'

function deferred<T> (): { promise: Promise<T>, resolve: (v: T) => void } {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((_resolve) => { resolve = _resolve })
  return { promise, resolve }
}

describe('single flight', () => {
  it('starts the work once for 30 concurrent callers and hands all of them its value', async () => {
    const flights = createSingleFlight<string>()
    const done = deferred<string>()
    let starts = 0
    const runs = Array.from({ length: 30 }, async () => await flights.run('k', new AbortController().signal, async () => { starts++; return await done.promise }))
    done.resolve('picture')
    const results = await Promise.all(runs)
    assert.equal(starts, 1)
    assert.deepEqual(results.map((r) => r.value), Array(30).fill('picture'))
    assert.deepEqual(results.filter((r) => r.started).length, 1)
    assert.equal(flights.size, 0)
  })

  it('lets a waiter leave with its own reason while the work goes on for the others', async () => {
    const flights = createSingleFlight<string>()
    const done = deferred<string>()
    let workSignal: AbortSignal | undefined
    const first = new AbortController()
    const a = flights.run('k', first.signal, async (signal) => { workSignal = signal; return await done.promise })
    const b = flights.run('k', new AbortController().signal, async () => 'never')
    first.abort(new Error('deadline of the first'))
    await assert.rejects(a, /deadline of the first/)
    assert.equal(workSignal!.aborted, false)
    done.resolve('picture')
    assert.deepEqual(await b, { value: 'picture', started: false })
  })

  it('stops the work when every waiter has left, and starts it anew for the next caller', async () => {
    const flights = createSingleFlight<string>()
    let workSignal: AbortSignal | undefined
    const callers = [new AbortController(), new AbortController()]
    const runs = callers.map(async (c) => await flights.run('k', c.signal, async (signal) => { workSignal = signal; return await new Promise<string>(() => {}) }))
    callers[0]!.abort(new Error('gone'))
    assert.equal(workSignal!.aborted, false)
    callers[1]!.abort(new Error('gone too'))
    await Promise.allSettled(runs)
    assert.equal(workSignal!.aborted, true)
    assert.equal(flights.has('k'), false)
    const again = await flights.run('k', new AbortController().signal, async () => 'drawn again')
    assert.deepEqual(again, { value: 'drawn again', started: true })
  })

  it('hands every waiter the work\'s failure', async () => {
    const flights = createSingleFlight<string>()
    const runs = Array.from({ length: 3 }, async () => await flights.run('k', new AbortController().signal, async () => { throw new Error('busy') }))
    for (const run of runs) await assert.rejects(run, /busy/)
  })
})
