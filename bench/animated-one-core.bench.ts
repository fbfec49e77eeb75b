// npm run bench -- animated-one-core: issue 27's animated welcome card on one core. The
// built server (dist/server.js) runs pinned to CPU 0 (taskset -c 0, WORKER_THREADS=1, the
// default WORK_TIMEOUT_MS) and answers a 1024×450 welcome whose avatar is a 256×256 GIF of
// 30 frames from a loopback server, one request at a time over HTTP. Each row gives the
// server process's CPU time per request (all its threads, sharp's among them: utime +
// stime from /proc/<pid>/stat before and after), which the machine's load does not
// inflate, beside the time per request and the bytes (docs/generation.md, "Animated
// pictures"). Linux only (taskset, /proc).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { freePort, request } from '../test/support/processes.js'
import { TURNING_AVATAR_FRAMES, turningAvatar } from '../test/fixtures/turning-avatar.js'
import type { Benchmark, BenchRow } from './harness.js'

const KEY = 'animated-one-core-bench-key-0123456789'
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100

function cpuSeconds (pid: number): number {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const bench: Benchmark = {
  name: 'animated welcome card on one core (issue 27)',
  async run ({ quick }) {
    if (!fs.existsSync('dist/server.js')) throw new Error('dist/server.js is missing: run npm run build')
    const gif = await turningAvatar()
    const images = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'image/gif' }); res.end(gif) })
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`
    const port = await freePort()
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bench-one-core-'))
    const child = spawn('taskset', ['-c', '0', process.execPath, path.resolve('dist/server.js')], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn', REMOTE_FETCH_ALLOW: '127.0.0.1', WORKER_THREADS: '1', RATE_LIMIT_MAX: '1000000' },
      stdio: ['ignore', 'ignore', 'inherit']
    })
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    const rows: BenchRow[] = []
    try {
      for (const started = Date.now(); ;) {
        if (await request(`http://127.0.0.1:${port}/healthz`).then((r) => r.status === 200, () => false)) break
        if (child.exitCode !== null || Date.now() - started > 60_000) throw new Error('the server did not start')
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      // taskset executes node in its own process: the pid is the server's.
      const pid = child.pid!
      const runs = quick ? 2 : 5
      const answers: Array<{ name: string, fields: Record<string, string> }> = [
        { name: 'output=png (a still)', fields: { output: 'png' } },
        { name: 'output=gif, 30 frames', fields: { output: 'gif' } },
        { name: 'output=webp, 30 frames', fields: { output: 'webp' } },
        { name: 'output=gif&max_bytes=500000', fields: { output: 'gif', max_bytes: '500000' } },
        { name: 'output=gif&max_bytes=100000', fields: { output: 'gif', max_bytes: '100000' } }
      ]
      for (const answer of answers) {
        const body = JSON.stringify({ username: 'Alice', members: 'Member #42', avatar: `${origin}/avatar.gif`, ...answer.fields })
        const cpu: number[] = []
        const wall: number[] = []
        let bytes = 0
        let reduced = '-'
        // The first request warms the thread (fonts, the avatar's fetch): not counted.
        for (let i = 0; i <= runs; i++) {
          const cpu0 = cpuSeconds(pid)
          const t0 = performance.now()
          const res = await request(`http://127.0.0.1:${port}/gen/welcome`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body })
          if (res.status !== 200) throw new Error(`${answer.name}: ${res.status} ${res.body.toString().slice(0, 300)}`)
          if (i === 0) continue
          wall.push((performance.now() - t0) / 1000)
          cpu.push(cpuSeconds(pid) - cpu0)
          bytes = res.body.length
          reduced = String(res.headers['x-image-reduced'] ?? '-')
        }
        rows.push({
          name: `1024×450 welcome, avatar of ${TURNING_AVATAR_FRAMES} frames, ${answer.name}: server CPU per request`,
          ours: median(cpu),
          unit: 's',
          better: 'lower',
          note: `CPU ${Math.min(...cpu).toFixed(2)}–${Math.max(...cpu).toFixed(2)} s; time per request ${Math.min(...wall).toFixed(2)}–${Math.max(...wall).toFixed(2)} s; ${bytes} bytes; X-Image-Reduced ${reduced}; ${runs} runs; load average ${os.loadavg()[0]!.toFixed(2)}`
        })
      }
    } finally {
      child.kill('SIGTERM')
      await exited
      images.closeAllConnections()
      images.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
    return rows
  }
}

export default bench
