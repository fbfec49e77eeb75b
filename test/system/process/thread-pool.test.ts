// libuv's thread pool as `npm start` sizes it (scripts/thread-pool.mjs): sharp's
// conversions, the gif files read from disk and DNS lookups share it, so it holds
// IMAGE_CONCURRENCY conversions and SPARE_THREADS more. With libuv's default of 4 threads
// and IMAGE_CONCURRENCY 4 (any 4-core machine's defaults), a gif answer waited for a
// conversion to end (docs/operations.md, "libuv's thread pool").
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp, { type Create } from 'sharp'
import { SPARE_THREADS, threadPoolEnv } from '../../../scripts/thread-pool.mjs'
import { freePort, request, type SimpleResponse } from '../../support/processes.js'
import { tempDir } from '../../support/helpers.js'

describe('threadPoolEnv', () => {
  it('sizes the pool at IMAGE_CONCURRENCY plus the spare threads, never below libuv\'s 4', () => {
    const cwd = tempDir('uma-pool-env-')
    assert.equal(threadPoolEnv({ IMAGE_CONCURRENCY: '6' }, cwd).env.UV_THREADPOOL_SIZE, String(6 + SPARE_THREADS))
    assert.equal(threadPoolEnv({ IMAGE_CONCURRENCY: '1' }, cwd).env.UV_THREADPOOL_SIZE, '4')
    assert.equal(threadPoolEnv({}, cwd).env.UV_THREADPOOL_SIZE, String(Math.max(4, os.availableParallelism() + SPARE_THREADS)), 'cores by default, as the server')
    assert.match(threadPoolEnv({ IMAGE_CONCURRENCY: '6' }, cwd).line, /^libuv thread pool: 8 threads \(IMAGE_CONCURRENCY 6 \+ 2\)$/)
  })

  it('reads IMAGE_CONCURRENCY and UV_THREADPOOL_SIZE from the settings file the server loads, the environment first', () => {
    const cwd = tempDir('uma-pool-env-')
    fs.writeFileSync(path.join(cwd, '.env'), 'IMAGE_CONCURRENCY=10\n')
    assert.equal(threadPoolEnv({}, cwd).env.UV_THREADPOOL_SIZE, '12')
    assert.equal(threadPoolEnv({ IMAGE_CONCURRENCY: '3' }, cwd).env.UV_THREADPOOL_SIZE, '5')
    fs.writeFileSync(path.join(cwd, 'other.env'), 'UV_THREADPOOL_SIZE=7\nIMAGE_CONCURRENCY=10\n')
    assert.equal(threadPoolEnv({ ENV_FILE: 'other.env' }, cwd).env.UV_THREADPOOL_SIZE, '7')
  })

  it('keeps an operator\'s own UV_THREADPOOL_SIZE and says so', () => {
    const { env, line } = threadPoolEnv({ UV_THREADPOOL_SIZE: '16', IMAGE_CONCURRENCY: '2' }, tempDir('uma-pool-env-'))
    assert.equal(env.UV_THREADPOOL_SIZE, '16')
    assert.equal(line, 'libuv thread pool: 16 threads (UV_THREADPOOL_SIZE)')
  })
})

describe('libuv\'s thread pool under npm start', () => {
  const KEY = 'thread-pool-key-0123456789abcdef'
  const CONVERSIONS = 4
  let child: ChildProcess
  let output = ''
  let url: string
  let metricsUrl: string
  let dataDir: string

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-thread-pool-'))
    const [port, metricsPort] = [await freePort(), await freePort()]
    url = `http://127.0.0.1:${port}`
    metricsUrl = `http://127.0.0.1:${metricsPort}`
    // The machine's own settings (a UV_THREADPOOL_SIZE of the runner's) must not decide the size.
    const { UV_THREADPOOL_SIZE: _, ...inherited } = process.env
    child = spawn(process.execPath, ['scripts/start.mjs'], {
      env: {
        ...inherited,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        API_KEYS: KEY,
        RATE_LIMIT_MAX: '1000000',
        // Four conversions at once, as a 4-core machine runs by default.
        IMAGE_CONCURRENCY: String(CONVERSIONS),
        METRICS_PORT: String(metricsPort),
        METRICS_HOST: '127.0.0.1'
      },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    child.stdout!.on('data', (d) => { output += d })
    child.stderr!.on('data', (d) => { output += d })
    const up = async (): Promise<boolean> => await request(`${url}/healthz`).then((r) => r.status === 200, () => false)
    for (const end = Date.now() + 60_000; !await up();) {
      if (child.exitCode !== null || Date.now() > end) throw new Error(`the server did not start: ${output}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })
  after(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('says the size it started the server with', () => {
    assert.match(output, new RegExp(`^Starting the Utility Media API; allocator: [^;]+; libuv thread pool: ${CONVERSIONS + SPARE_THREADS} threads \\(IMAGE_CONCURRENCY ${CONVERSIONS} \\+ ${SPARE_THREADS}\\)$`, 'm'))
  })

  it('answers a gif file while conversions hold every conversion place, before any of them ends', async () => {
    const hug = JSON.parse((await request(`${url}/sfw/gif/hug`, { headers: { authorization: KEY } })).body.toString()) as { file: string }
    const file = new URL(hug.file).pathname
    // About half a second of libvips work each, four at once on the test machine's cores.
    const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: 'black', noise: { type: 'gaussian', mean: 128, sigma: 50 } } as Create }).jpeg({ quality: 92 }).toBuffer()
    const order: string[] = []
    const answered = (name: string) => (res: SimpleResponse): SimpleResponse => { order.push(name); return res }
    const conversions = Array.from({ length: CONVERSIONS }, async (_, i) => await request(`${url}/convert/image-webp`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'image/jpeg' }, body: photo }).then(answered(`conversion ${i}`)))
    // Every conversion admitted and running (the scheduler's gauge), then the gif.
    const running = async (): Promise<number> => Number(/^work_running\{queue="image-conversion"\} (\d+)/m.exec((await request(`${metricsUrl}/metrics`)).body.toString())?.[1] ?? 0)
    for (let n = await running(); n < CONVERSIONS; n = await running()) {
      assert.equal(order.length, 0, 'no conversion ended before all four ran (the photo is too small for this machine)')
    }
    const gif = await request(`${url}${file}`).then(answered('gif'))
    const results = await Promise.all(conversions)
    assert.equal(gif.status, 200)
    assert.ok(gif.body.subarray(0, 6).toString('latin1').startsWith('GIF8'), 'the gif file itself')
    assert.deepEqual(results.map((r) => r.status), Array(CONVERSIONS).fill(200))
    assert.equal(order[0], 'gif', `the gif is answered first: ${order.join(', ')}`)
  })
})
