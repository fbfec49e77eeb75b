// Usage is what operators bill on (docs/billing.md): written in batches that the store
// applies at most once, retried as they were after a failure or a lost reply, and spilled
// to DATA_DIR/usage-pending when the store cannot take them at close.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { createKeyService } from '../../../src/access/keys.js'
import { createUsageRecorder, utcDay } from '../../../src/access/usage-recorder.js'
import type { Store, UsageStore } from '../../../src/store/interface.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { tempDir } from '../../support/helpers.js'

const stores: Store[] = []
after(async () => { for (const s of stores) await s.close() })

async function storeWithKey (): Promise<{ store: Store, keyId: number, dir: string }> {
  const dir = tempDir('uma-usage-')
  const store = openSqliteStore(dir)
  stores.push(store)
  const { record } = await createKeyService(store.keys).create('billed')
  return { store, keyId: record.id, dir }
}

/** The store's usage, failing on the writes the test names: before applying, or after (the reply lost). */
function faulty (usage: UsageStore, faults: Array<'before' | 'after' | 'ok'>): UsageStore & { calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    async add (entries, batchId) {
      const fault = faults.shift() ?? 'ok'
      calls.push(`${fault}:${batchId}`)
      if (fault === 'before') throw new Error('connection refused')
      await usage.add(entries, batchId)
      if (fault === 'after') throw new Error('connection reset before the reply')
    },
    unitsSince: async (keyId, day) => await usage.unitsSince(keyId, day),
    list: async (o) => await usage.list(o)
  }
}

const NOW = Date.UTC(2026, 10, 25, 12)

describe('usage recorder: counted once', () => {
  it('retries a batch whose reply was lost under the same id: applied once (counted twice before)', async () => {
    const { store, keyId } = await storeWithKey()
    const usage = faulty(store.usage, ['after'])
    const recorder = createUsageRecorder(usage, { flushMs: 60_000 })
    for (let i = 0; i < 10; i++) recorder.record(keyId, 'generation', 5, NOW)
    await assert.rejects(recorder.flush(), /before the reply/)
    assert.equal(recorder.unwritten, 50, 'the batch is kept until the store says it took it')
    recorder.record(keyId, 'generation', 5, NOW)
    await recorder.flush()
    assert.equal(await store.usage.unitsSince(keyId, utcDay(NOW)), 55)
    // The same batch again, then a new one for the newer count.
    assert.equal(usage.calls.length, 3)
    assert.equal(usage.calls[0]!.split(':')[1], usage.calls[1]!.split(':')[1])
    assert.notEqual(usage.calls[1]!.split(':')[1], usage.calls[2]!.split(':')[1])
    assert.equal(recorder.unwritten, 0)
    await recorder.close()
  })

  it('retries a batch the store refused, and counts it in the quota meanwhile', async () => {
    const { store, keyId } = await storeWithKey()
    const recorder = createUsageRecorder(faulty(store.usage, ['before', 'before']), { flushMs: 60_000 })
    recorder.record(keyId, 'colors', 1, NOW)
    await assert.rejects(recorder.flush())
    assert.equal(await recorder.quotaUsed(keyId, 'day', NOW), 1)
    await assert.rejects(recorder.flush())
    await recorder.flush()
    assert.equal(await store.usage.unitsSince(keyId, utcDay(NOW)), 1)
    assert.equal(await recorder.quotaUsed(keyId, 'day', NOW + 60_001), 1)
    await recorder.close()
  })
})

describe('usage recorder: nothing lost at close', () => {
  it('writes at close what was recorded while a flush was already under way (it was lost: close awaited that flush only)', async () => {
    const { store, keyId } = await storeWithKey()
    // The first write waits at the gate: a flush under way when the recorder closes.
    let open = (): void => {}
    const gate = new Promise<void>((resolve) => { open = resolve })
    let writes = 0
    const slow: UsageStore = {
      async add (entries, batchId) {
        if (writes++ === 0) await gate
        await store.usage.add(entries, batchId)
      },
      unitsSince: async (k, d) => await store.usage.unitsSince(k, d),
      list: async (o) => await store.usage.list(o)
    }
    const recorder = createUsageRecorder(slow, { flushMs: 60_000 })
    recorder.record(keyId, 'colors', 1, NOW)
    const first = recorder.flush()
    recorder.record(keyId, 'colors', 1, NOW)
    recorder.record(keyId, 'colors', 1, NOW)
    const closed = recorder.close()
    open()
    await Promise.all([first, closed])
    assert.equal(await store.usage.unitsSince(keyId, utcDay(NOW)), 3)
    assert.equal(recorder.unwritten, 0)
  })

  it('spills what the store would not take to the spill folder, and the next start writes it once, even when replayed twice', async () => {
    const { store, keyId, dir } = await storeWithKey()
    const spillDir = path.join(dir, 'usage-pending')
    const spilled: number[] = []
    const down = createUsageRecorder(faulty(store.usage, ['before', 'before', 'before']), { flushMs: 60_000, spillDir, onSpill: (_e, n) => spilled.push(n), onError: () => {} })
    for (let i = 0; i < 7; i++) down.record(keyId, 'conversion', 5, NOW)
    await down.close()
    assert.deepEqual(spilled, [1])
    const files = fs.readdirSync(spillDir)
    assert.equal(files.length, 1)
    assert.match(files[0]!, /^usage-[0-9a-f-]{36}\.json$/)
    // A crash after the write but before the file's removal: the next start replays it again.
    const copy = fs.readFileSync(path.join(spillDir, files[0]!))
    const replays: string[] = []
    const up = createUsageRecorder(store.usage, { flushMs: 60_000, spillDir, onSpill: (e) => replays.push(e) })
    assert.deepEqual(replays, ['replayed'])
    await up.flush()
    assert.deepEqual(fs.readdirSync(spillDir), [])
    fs.writeFileSync(path.join(spillDir, files[0]!), copy)
    const again = createUsageRecorder(store.usage, { flushMs: 60_000, spillDir })
    await again.flush()
    assert.equal(await store.usage.unitsSince(keyId, utcDay(NOW)), 35)
    await Promise.all([up.close(), again.close()])
  })
})
