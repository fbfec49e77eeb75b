// The result cache's disk store alone: entries written and read back, the size bound,
// the scan at start, damaged entries, and a disk that fails or does not answer.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { createDiskStore, type DiskIo, NODE_DISK_IO } from '../../../src/result-cache/disk-store.js'
import { contentAddress } from '../../../src/result-cache/address.js'
import { decodeEntry, encodeEntry, type StoredAnswer } from '../../../src/result-cache/entry-format.js'
import { tempDirs } from '../../support/helpers.js'

const dirs = tempDirs()
after(() => dirs.removeAll())

const answer = (n: number, size = 1000): StoredAnswer => ({ bytes: Buffer.alloc(size, n), contentType: 'image/png', meta: { reduced: n % 2 === 0 ? '' : 'colours' } })
const address = (n: number): string => contentAddress({ n })

/** Every regular file under `dir` and their sizes. */
function files (dir: string): { count: number, bytes: number, names: string[] } {
  const names: string[] = []
  let bytes = 0
  if (!fs.existsSync(dir)) return { count: 0, bytes: 0, names }
  for (const shard of fs.readdirSync(dir)) {
    for (const name of fs.readdirSync(path.join(dir, shard))) {
      names.push(name)
      bytes += fs.statSync(path.join(dir, shard, name)).size
    }
  }
  return { count: names.length, bytes, names }
}

describe('the entry format', () => {
  it('reads back what it wrote, and refuses every damage: another address, a byte changed, cut short, grown, not an entry', () => {
    const a = address(1)
    const file = encodeEntry(a, answer(1))
    const read = decodeEntry(a, file)
    assert.ok(read.ok)
    assert.ok(read.answer.bytes.equals(answer(1).bytes))
    assert.deepEqual([read.answer.contentType, read.answer.meta], ['image/png', { reduced: 'colours' }])
    assert.match((decodeEntry(address(2), file) as { why: string }).why, /another address/)
    const flipped = Buffer.from(file)
    flipped[flipped.length - 10]! ^= 1
    assert.match((decodeEntry(a, flipped) as { why: string }).why, /SHA-256/)
    assert.match((decodeEntry(a, file.subarray(0, file.length - 1)) as { why: string }).why, /holds 999 bytes/)
    assert.match((decodeEntry(a, Buffer.concat([file, Buffer.from('x')])) as { why: string }).why, /holds 1001 bytes/)
    assert.match((decodeEntry(a, file.subarray(0, 20)) as { why: string }).why, /cut short/)
    assert.match((decodeEntry(a, Buffer.alloc(file.length)) as { why: string }).why, /not an entry/)
  })
})

describe('the disk store', () => {
  it('keeps entries in sharded folders, one file each, and reads them back', async () => {
    const dir = path.join(dirs.make(), 'result-cache')
    const store = createDiskStore({ dir, maxBytes: 1_000_000, timeoutMs: 1000 })
    await store.scan
    for (let n = 0; n < 5; n++) await store.put(address(n), answer(n))
    for (let n = 0; n < 5; n++) assert.ok((await store.get(address(n)))!.bytes.equals(answer(n).bytes))
    assert.equal(await store.get(address(99)), undefined)
    const held = files(dir)
    assert.equal(held.count, 5)
    assert.deepEqual(held.names.sort(), [0, 1, 2, 3, 4].map(address).sort())
    for (const name of held.names) assert.ok(fs.existsSync(path.join(dir, name.slice(0, 2), name)))
    assert.deepEqual([store.stats.entries, store.stats.bytes], [5, held.bytes])
    await store.close()
  })

  it('stays within its size, the least recently used going first', async () => {
    const dir = path.join(dirs.make(), 'result-cache')
    const evicted: number[] = []
    const store = createDiskStore({ dir, maxBytes: 10_000, timeoutMs: 1000, onEvicted: () => evicted.push(1) })
    await store.scan
    await store.put(address(0), answer(0))
    for (let n = 1; n < 30; n++) {
      await store.put(address(n), answer(n))
      // Entry 0 is used between writes: it stays.
      assert.ok(await store.get(address(0)), `entry 0 after ${n}`)
      const held = files(dir)
      assert.ok(held.bytes <= 10_000, `${held.bytes} bytes on disk after ${n} entries`)
      assert.equal(held.bytes, store.stats.bytes)
    }
    assert.equal(await store.get(address(1)), undefined)
    assert.ok(await store.get(address(29)))
    assert.equal(store.stats.evictions, evicted.length)
    assert.ok(evicted.length >= 20)
    // An entry larger than a quarter of the cache is not kept.
    await store.put(address(100), answer(100, 5000))
    assert.equal(await store.get(address(100)), undefined)
    await store.close()
  })

  it('finds its entries again at the next start, oldest first out, and deletes temporary files a crash left', async () => {
    const dir = path.join(dirs.make(), 'result-cache')
    const first = createDiskStore({ dir, maxBytes: 100_000, timeoutMs: 1000 })
    await first.scan
    for (let n = 0; n < 6; n++) await first.put(address(n), answer(n))
    await first.close()
    // Entry 0 was used last (the scan orders by the files' times), a crash left a temporary file.
    for (let n = 0; n < 6; n++) {
      const file = path.join(dir, address(n).slice(0, 2), address(n))
      const when = new Date(Date.now() - (n === 0 ? 0 : (10 - n) * 60_000))
      fs.utimesSync(file, when, when)
    }
    const temp = path.join(dir, address(0).slice(0, 2), `${address(0)}.abc.tmp`)
    fs.writeFileSync(temp, 'half')
    const second = createDiskStore({ dir, maxBytes: 100_000, timeoutMs: 1000 })
    await second.scan
    assert.equal(fs.existsSync(temp), false)
    assert.deepEqual([second.stats.entries, second.stats.scanned], [6, true])
    for (let n = 0; n < 6; n++) assert.ok((await second.get(address(n)))!.bytes.equals(answer(n).bytes))
    await second.close()
    // Smaller now: the oldest (1, 2, …) go, the last used (0) stays.
    const entrySize = encodeEntry(address(1), answer(1)).length
    const third = createDiskStore({ dir, maxBytes: entrySize * 3, timeoutMs: 1000 })
    await third.scan
    assert.equal(third.stats.entries, 3)
    assert.ok(await third.get(address(0)))
    assert.equal(await third.get(address(1)), undefined)
    assert.ok(files(dir).bytes <= entrySize * 3)
    await third.close()
  })

  it('answers lookups before its scan has ended, from the disk', async () => {
    const dir = path.join(dirs.make(), 'result-cache')
    const first = createDiskStore({ dir, maxBytes: 100_000, timeoutMs: 1000 })
    await first.scan
    await first.put(address(7), answer(7))
    await first.close()
    let release!: () => void
    const held = new Promise<void>((resolve) => { release = resolve })
    // A scan that cannot list the folder until the test lets it.
    const io: DiskIo = { ...NODE_DISK_IO, readdir: async (d) => { await held; return await NODE_DISK_IO.readdir(d) } }
    const second = createDiskStore({ dir, maxBytes: 100_000, timeoutMs: 60_000, io })
    assert.equal(second.stats.scanned, false)
    assert.ok((await second.get(address(7)))!.bytes.equals(answer(7).bytes))
    assert.equal(await second.get(address(8)), undefined)
    release()
    await second.scan
    assert.deepEqual([second.stats.entries, second.stats.bytes], [1, files(dir).bytes])
    await second.close()
  })

  it('never serves a damaged entry: it is deleted and counted', async () => {
    const dir = path.join(dirs.make(), 'result-cache')
    const warnings: string[] = []
    const store = createDiskStore({ dir, maxBytes: 100_000, timeoutMs: 1000, warn: (m) => warnings.push(m) })
    await store.scan
    await store.put(address(3), answer(3))
    const file = path.join(dir, address(3).slice(0, 2), address(3))
    const bytes = fs.readFileSync(file)
    bytes[bytes.length - 1]! ^= 0xff
    fs.writeFileSync(file, bytes)
    assert.equal(await store.get(address(3)), undefined)
    assert.equal(fs.existsSync(file), false)
    assert.deepEqual([store.stats.damaged, store.stats.entries, store.stats.bytes], [1, 0, 0])
    assert.match(warnings.join('\n'), /damaged/)
    // Grown behind its back (read by its known size, plus one byte): damaged too.
    await store.put(address(4), answer(4))
    const grown = path.join(dir, address(4).slice(0, 2), address(4))
    fs.appendFileSync(grown, 'x')
    assert.equal(await store.get(address(4)), undefined)
    assert.equal(fs.existsSync(grown), false)
    assert.equal(store.stats.damaged, 2)
    await store.close()
  })

  it('treats a disk that fails or does not answer as a miss, and drops the write', async () => {
    const dir = path.join(dirs.make(), 'result-cache')
    let mode: 'hang' | 'fail' | 'ok' = 'ok'
    const never = new Promise<never>(() => {})
    const broken = <A extends unknown[], R>(op: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
      if (mode === 'hang') return await never
      if (mode === 'fail') throw Object.assign(new Error('input/output error'), { code: 'EIO' })
      return await op(...args)
    }
    const io: DiskIo = { ...NODE_DISK_IO, readFile: broken(NODE_DISK_IO.readFile), writeFile: broken(NODE_DISK_IO.writeFile) }
    // Long enough that a loaded machine's answering disk is never taken for a hanging one.
    const store = createDiskStore({ dir, maxBytes: 100_000, timeoutMs: 500, io })
    await store.scan
    await store.put(address(1), answer(1))
    for (mode of ['hang', 'fail'] as const) assert.equal(await store.get(address(1)), undefined, mode)
    mode = 'ok'
    assert.ok(await store.get(address(1)), 'a disk that answers again serves again')
    for (mode of ['hang', 'fail'] as const) {
      await store.put(address(2), answer(2))
      assert.equal(store.has(address(2)), false, mode)
    }
    mode = 'ok'
    assert.equal(await store.get(address(2)), undefined)
    assert.equal(store.stats.entries, 1)
    assert.equal(store.stats.errors, 4)
    await store.close()
  })

  it('keeps working after its folder was deleted under it: what is gone is drawn again, and written again', async () => {
    const dir = path.join(dirs.make(), 'result-cache')
    const store = createDiskStore({ dir, maxBytes: 100_000, timeoutMs: 1000 })
    await store.scan
    await store.put(address(1), answer(1))
    fs.rmSync(dir, { recursive: true })
    assert.equal(await store.get(address(1)), undefined)
    assert.deepEqual([store.stats.entries, store.stats.bytes], [0, 0])
    await store.put(address(1), answer(1))
    assert.ok((await store.get(address(1)))!.bytes.equals(answer(1).bytes))
    await store.close()
  })
})
