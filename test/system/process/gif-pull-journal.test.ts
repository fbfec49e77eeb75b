// The journal of gifs pull grows by one line per URL, appended to the same file, never
// rewritten (issue 35: run.json was rewritten and synced after every URL, so a run wrote
// as the square of its URL count). The BUILT CLI against a stand-in source listing dead
// URLs; the journal is read while the CLI waits for the source's answer to a URL, when
// every URL before it has been journaled.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { after, it } from 'node:test'
import { startFakeGifApis } from '../../support/fake-gif-apis.js'
import { tempDir } from '../../support/helpers.js'

const dataDir = tempDir('uma-pull-journal-proc-')
after(() => fs.rmSync(dataDir, { recursive: true, force: true }))

interface Snapshot { ino: number, text: string }

it('appends one line per URL to the same file: its size grows linearly with the URLs tried', async () => {
  const api = await startFakeGifApis({ pool: 1, dead: 30 })
  const journal = path.join(dataDir, 'pulls', 'waifu.pics-pat', 'journal.jsonl')
  const snapshots = new Map<number, Snapshot>()
  let dead = 0
  api.onRequest = (p) => {
    if (!p.startsWith('/dead/')) return
    dead++
    if (dead === 11 || dead === 46) snapshots.set(dead - 1, { ino: fs.statSync(journal).ino, text: fs.readFileSync(journal, 'utf8') })
  }
  try {
    const child = spawn(process.execPath, ['dist/cli/index.js', 'gifs', 'pull', '--create-store', 'waifu.pics', '--category', 'pat', '--count', '5', '--interval-ms', '0', '--base-url', `${api.url}/waifu`], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', GIF_STARTER_CATALOG: 'false', REMOTE_FETCH_ALLOW: '127.0.0.1', GIF_PULL_CONTACT: 'ops@example.test' },
      stdio: ['ignore', 'ignore', 'pipe']
    })
    let stderr = ''
    child.stderr.on('data', (d) => { stderr += d })
    const status = await new Promise((resolve) => child.once('exit', resolve))
    assert.equal(status, 1, stderr)

    const line = (i: number): string => `${JSON.stringify({ url: `${api.url}/dead/${i}.gif` })}\n`
    // Two answers of 30 dead URLs (/dead/0.gif to /dead/59.gif): one line per URL tried, in order.
    const expected = (n: number): string => Array.from({ length: n }, (_, i) => line(i)).join('')
    const early = snapshots.get(10)!
    const late = snapshots.get(45)!
    assert.equal(early.text, expected(10))
    assert.equal(late.text, expected(45))
    assert.equal(late.ino, early.ino, 'the same file, not a new one renamed over it')
    assert.deepEqual(fs.readdirSync(path.join(dataDir, 'pulls')), [], 'the finished run leaves no journal')
  } finally {
    await api.close()
  }
})
