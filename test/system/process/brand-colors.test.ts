// The built server names Discord's Blurple (src/colors/brand-colors.ts, compiled into
// dist/ with the catalogue): the in-process tests are test/unit/colors/brand-colors.test.ts.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { request, type ServerProcess, startServerProcess } from '../../support/processes.js'

const KEY = 'brand-colors-key-0123456789'

describe('brand colours in the built server', () => {
  let server: ServerProcess
  let dataDir: string
  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-brand-colors-'))
    server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn' })
  })
  after(async () => {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('answers hex=5865f2 with "Discord Blurple", exactly', async () => {
    const answer = await request(`${server.url}/color/info?hex=5865f2`, { headers: { authorization: KEY } })
    assert.equal(answer.status, 200)
    const body = JSON.parse(answer.body.toString()) as Record<string, unknown>
    assert.deepEqual([body.success, body.name, body.exactName, body.nameHex], [true, 'Discord Blurple', true, '#5865f2'])
  })
})
