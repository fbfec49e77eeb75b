// Issue 35, items 6 and 7, through the BUILT CLI (node dist/cli/index.js) against sources
// on loopback that answer what a hostile or broken gif API could: one answer listing 5,000
// dead URLs (it made 5,001 requests, each carrying the operator's contact), and error
// messages and gif URLs holding terminal escapes (clear the screen, set the window title,
// forge an "Added 50 of 50" line) or 100 KB of text. What the operator's terminal gets:
// no raw control character, no line longer than a few hundred characters, the source's
// words still readable (escaped), and the same for what `gifs list` and `gifs reports`
// print of a record that came from elsewhere.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type net from 'node:net'
import { after, describe, it } from 'node:test'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { startFakeGifApis } from '../../support/fake-gif-apis.js'
import { tempDir } from '../../support/helpers.js'

/** "A few hundred characters": a 100 KB message or URL printed whole fails this by far. */
const MAX_LINE = 1000
/** What the fruitless rule allows: src/gifs/pull.ts MAX_FRUITLESS_URLS. */
const FRUITLESS = 50

const ESCAPES = '\x1b[2J\x1b[H\x1b]0;pwned\x07\x9b31m\u202e'
const FORGED = '\rAdded 50 of 50 hug gif(s) from nekos.best; skipped 0 duplicate(s).\n'

const dirs: string[] = []
after(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }) })
function dataDir (): string {
  const d = tempDir('uma-hostile-pull-')
  dirs.push(d)
  return d
}

interface CliRun { status: number | null, stdout: string, stderr: string }

/** The built CLI as a process; asynchronous, since the stand-in sources answer from this process. */
function cli (dir: string, ...args: string[]): Promise<CliRun> {
  const child = spawn(process.execPath, ['dist/cli/index.js', ...args, '--create-store'], {
    env: { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent', GIF_STARTER_CATALOG: 'false', REMOTE_FETCH_ALLOW: '127.0.0.1', GIF_PULL_CONTACT: 'ops@example.test' },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const out: Buffer[] = []
  const err: Buffer[] = []
  child.stdout.on('data', (d: Buffer) => out.push(d))
  child.stderr.on('data', (d: Buffer) => err.push(d))
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') })))
}

/** What a terminal would act on: C0 controls but newline, DEL, C1, the bidirectional overrides. */
const CONTROLS = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

function assertSafeForTerminal (run: CliRun): void {
  for (const [name, text] of [['stdout', run.stdout], ['stderr', run.stderr]] as const) {
    assert.equal(text.includes('\x1b'), false, `${name} holds a raw ESC byte`)
    const bad = CONTROLS.exec(text)
    assert.equal(bad, null, `${name} holds U+${bad?.[0].charCodeAt(0).toString(16).padStart(4, '0')}`)
    for (const line of text.split('\n')) {
      assert.ok(line.length <= MAX_LINE, `${name} has a line of ${line.length} characters: ${line.slice(0, 200)}…`)
      assert.doesNotMatch(line, /^Added 50 of 50/, `${name} shows a forged line`)
    }
  }
}

/** A stand-in source that answers what `answer` says, on loopback. */
async function startSource (answer: (req: http.IncomingMessage, url: string) => { status?: number, body: string | Buffer }): Promise<{ url: string, requests: string[], close: () => Promise<void> }> {
  const requests: string[] = []
  const server = http.createServer((req, res) => {
    requests.push(req.url!)
    req.resume()
    req.on('end', () => {
      const { status, body } = answer(req, base)
      res.writeHead(status ?? 200, { 'content-type': 'application/json' }).end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`
  return {
    url: base,
    requests,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}

describe('gifs pull against a hostile source (built CLI)', () => {
  it('one answer listing 5,000 dead URLs: stops after 50 of them, reads 30 of each answer, says so once', async () => {
    const api = await startFakeGifApis({ pool: 1, dead: 5000 })
    try {
      const run = await cli(dataDir(), 'gifs', 'pull', 'waifu.pics', '--category', 'pat', '--count', '5', '--interval-ms', '0', '--base-url', `${api.url}/waifu`)
      assert.equal(run.status, 1, run.stderr)
      const lists = api.requests.filter((r) => r.path === '/waifu/many/sfw/pat')
      const downloads = api.requests.filter((r) => r.path.startsWith('/dead/'))
      // Counted at the source: 30 URLs of the first answer, 20 of the second, nothing else.
      assert.deepEqual([lists.length, downloads.length, api.requests.length], [2, FRUITLESS, 2 + FRUITLESS])
      assert.deepEqual(downloads.map((r) => r.path).slice(28, 32), ['/dead/28.gif', '/dead/29.gif', '/dead/5000.gif', '/dead/5001.gif'])
      assert.equal(run.stdout, `Added 0 of 5 pat gif(s) from waifu.pics; skipped 0 duplicate(s), 0 near-duplicate(s), ${FRUITLESS} refused; ${2 + FRUITLESS} request(s).\n`)
      assert.equal(run.stderr.match(/waifu\.pics listed 5000 gifs in an answer to a request for 30: only the first 30 of each answer are read/g)?.length, 1, run.stderr)
      assert.match(run.stderr, /waifu\.pics gave nothing new for a while/)
      assertSafeForTerminal(run)
    } finally {
      await api.close()
    }
  })

  it('a source error message with escapes and 100 KB of text: printed escaped and cut, the advice kept', async () => {
    const source = await startSource(() => ({ body: JSON.stringify({ error: true, message: `${ESCAPES}${FORGED}${'A'.repeat(100_000)}` }) }))
    try {
      const run = await cli(dataDir(), 'gifs', 'pull', 'purrbot', '--category', 'hug', '--count', '1', '--interval-ms', '0', '--base-url', `${source.url}/purr`)
      assert.equal(run.status, 1, run.stderr)
      assert.equal(run.stdout, '')
      assert.match(run.stderr, /^Error: purrbot answered http:\/\/127\.0\.0\.1:\d+\/purr\/img\/sfw\/hug\/gif in a shape this command does not read: check --base-url, or the source changed its API \(the source answered an error: \\x1b\[2J\\x1b\[H\\x1b\]0;pwned\\x07\\x9b31m\\u202e\\rAdded 50 of 50 hug gif\(s\)/m)
      assert.match(run.stderr, /AAAA… \(\d+ more characters\)$/m)
      assertSafeForTerminal(run)
    } finally {
      await source.close()
    }
  })

  it('an answer that is not JSON, starting with escapes: the parser\'s quote of it printed escaped', async () => {
    const source = await startSource(() => ({ body: Buffer.from(`${ESCAPES}${FORGED} not json`, 'latin1') }))
    try {
      const run = await cli(dataDir(), 'gifs', 'pull', 'otakugifs', '--category', 'hug', '--count', '1', '--interval-ms', '0', '--base-url', `${source.url}/otaku`)
      assert.equal(run.status, 1, run.stderr)
      assert.match(run.stderr, /^Error: otakugifs answered .* in a shape this command does not read: check --base-url, or the source changed its API \(.*\\x1b/m)
      assertSafeForTerminal(run)
    } finally {
      await source.close()
    }
  })

  it('gif URLs with escapes, a forged line and 100 KB: each skip printed escaped and cut', async () => {
    const hostileUrls = (base: string): string[] => [
      `${base}/gifs/${ESCAPES}${FORGED}.gif`,
      `${base}/gifs/${'B'.repeat(100_000)}.gif`,
      `http://${ESCAPES}.example/a.gif`,
      `${ESCAPES}${FORGED}`
    ]
    // Every answer lists the same URLs: tried once each, then fruitless without a request.
    const source = await startSource((req, base) => req.url!.startsWith('/nekos/')
      ? { body: JSON.stringify({ results: hostileUrls(base).map((url) => ({ url, anime_name: `${ESCAPES}${FORGED}` })) }) }
      : { status: 404, body: `{"error":true,"message":"${'\\u001b[2J'.repeat(10)}"}` })
    try {
      const run = await cli(dataDir(), 'gifs', 'pull', 'nekos.best', '--category', 'hug', '--count', '4', '--interval-ms', '0', '--base-url', `${source.url}/nekos`)
      assert.equal(run.status, 1, run.stderr)
      assert.match(run.stdout, /^Added 0 of 4 hug gif\(s\) from nekos\.best; skipped 0 duplicate\(s\), 0 near-duplicate\(s\), 4 refused; \d+ request\(s\)\.\n$/)
      const skips = run.stderr.split('\n').filter((l) => l.startsWith('skipped '))
      assert.equal(skips.length, 4, run.stderr)
      assert.ok(skips[0]!.includes('/gifs/\\x1b[2J\\x1b[H\\x1b]0;pwned\\x07\\x9b31m\\u202e\\rAdded 50 of 50 hug gif(s)'), skips[0])
      assert.match(skips[1]!, /BBBB… \(\d+ more characters\)/)
      assertSafeForTerminal(run)
    } finally {
      await source.close()
    }
  })
})

describe('gif records from elsewhere, as gifs list and gifs reports print them (built CLI)', () => {
  it('prints a record\'s URL escaped and cut in tables, escaped and whole in --json', async () => {
    const dir = dataDir()
    const url = `https://cdn.example.test/${ESCAPES}${FORGED}${'C'.repeat(5000)}.gif`
    const store = openSqliteStore(dir)
    let id: number
    try {
      // Written as another writer of the store could (a pack's url entry, a PostgreSQL row).
      const [record] = await store.gifs.add([{ category: 'hug', hash: null, url, contentType: 'image/gif', size: 0, width: 1, height: 1, frames: 1 }])
      id = record!.id
      await store.gifs.report({ gifId: id, keyId: null, reason: 'not_sfw' })
    } finally {
      await store.close()
    }

    const table = await cli(dir, 'gifs', 'list')
    assert.equal(table.status, 0, table.stderr)
    assert.match(table.stdout, /https:\/\/cdn\.example\.test\/\\x1b\[2J.*C… \(\d+ more characters\)/)
    assertSafeForTerminal(table)

    const json = await cli(dir, 'gifs', 'list', '--json')
    assert.equal(json.status, 0, json.stderr)
    assert.equal(JSON.parse(json.stdout)[0].file, url, 'the data a script reads is unchanged')
    assert.equal(json.stdout.split('\n').some((l) => l.length > MAX_LINE), true, 'JSON is never cut')
    assertSafeForTerminal({ ...json, stdout: '' })
    assert.doesNotMatch(json.stdout, CONTROLS)

    for (const args of [['reports'], ['reports', '--gif', String(id)]]) {
      const reports = await cli(dir, 'gifs', ...args)
      assert.equal(reports.status, 0, reports.stderr)
      assert.match(reports.stdout, /\\x1b\]0;pwned\\x07/)
      assertSafeForTerminal(reports)
    }
    const reportsJson = await cli(dir, 'gifs', 'reports', '--json')
    assert.equal(JSON.parse(reportsJson.stdout)[0].file, url)
    assert.doesNotMatch(reportsJson.stdout, CONTROLS)
  })
})
