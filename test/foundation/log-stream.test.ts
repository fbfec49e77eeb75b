// The log stream: lines batched in memory reach the destination in order, within the
// flush interval without any further line, and on exit even when nothing closed it.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { tempDir } from '../helpers.js'
import { createLogStream, LOG_BUFFER_BYTES, LOG_FLUSH_MS } from '../../src/log-stream.js'

const dir = tempDir('uma-logs-')
after(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('the log stream', () => {
  it('writes every line, in order, by the time it is closed', async () => {
    const file = path.join(dir, 'order.log')
    const logs = createLogStream(file)
    const lines = Array.from({ length: 2000 }, (_, i) => `{"n":${i}}\n`)
    for (const line of lines) logs.stream.write(line)
    logs.close()
    assert.equal(fs.readFileSync(file, 'utf8'), lines.join(''))
  })

  it('writes a lone short line within the flush interval', async () => {
    const file = path.join(dir, 'lone.log')
    const logs = createLogStream(file)
    try {
      logs.stream.write('{"lone":true}\n')
      assert.ok('{"lone":true}\n'.length < LOG_BUFFER_BYTES)
      let text = ''
      for (let waited = 0; waited < LOG_FLUSH_MS * 8 && text === ''; waited += 25) {
        await sleep(25)
        text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''
      }
      assert.equal(text, '{"lone":true}\n')
    } finally {
      logs.close()
    }
  })

  it('writes what is pending when the process exits without closing it', () => {
    const file = path.join(dir, 'exit.log')
    const script = `import { createLogStream } from ${JSON.stringify(path.resolve('src/log-stream.ts'))}
const logs = createLogStream(${JSON.stringify(file)})
setTimeout(() => { logs.stream.write('{"last":"words"}\\n'); process.exit(3) }, 50)`
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' })
    assert.equal(r.status, 3, r.stderr)
    assert.equal(fs.readFileSync(file, 'utf8'), '{"last":"words"}\n')
  })
})
