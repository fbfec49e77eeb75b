// What a burst leaves behind, read from outside: the built server started as `npm start`
// starts it (jemalloc, the same Node flags) gives back the memory a burst of pictures
// used once it is over (docs/memory.md, "Worker threads"). Linux with Debian's jemalloc
// only (/proc, libjemalloc2): glibc's malloc keeps freed memory in its arenas.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { allocatorEnv, findJemalloc, serverNodeFlags } from '../../../scripts/allocator.mjs'
import { request, type ServerProcess, startServerProcess, until } from '../../support/processes.js'

const KEY = 'memory-after-bursts-key-0123456789'
/** What the server may keep over its RSS before the burst: a second drawing thread and garbage not yet collected. */
const KEPT_MB = 50
const runs = fs.existsSync('/proc/self/status') && findJemalloc() !== undefined

describe('memory after a burst of pictures', { skip: runs ? false : 'needs /proc and libjemalloc2' }, () => {
  let server: ServerProcess
  let dataDir: string
  const rssMb = (): number => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))![1]) / 1024
  const welcome = async (i: number): Promise<number> => (await request(`${server.url}/gen/welcome`, {
    method: 'POST',
    headers: { authorization: KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ username: `member ${i}` })
  })).status

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-memory-bursts-'))
    const { env } = allocatorEnv({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '1000000' })
    server = await startServerProcess(env as Record<string, string>, { nodeFlags: serverNodeFlags(env) })
  })
  after(async () => {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('gives back what 60 welcome banners at once held in the drawing threads\' native memory (it kept 130 MB more for as long as the threads lived)', async () => {
    assert.equal(await welcome(0), 200)
    const before = rssMb()
    const statuses = await Promise.all(Array.from({ length: 60 }, async (_, i) => await welcome(i)))
    assert.deepEqual(statuses, Array(60).fill(200))
    await until(() => rssMb() <= before + KEPT_MB, 15_000).catch(() => {
      assert.fail(`RSS ${Math.round(rssMb())} MB after the burst, ${Math.round(before)} MB before it`)
    })
  })
})
