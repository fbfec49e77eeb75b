// Reports and hiding across processes, as an operator meets them: a key reports a gif
// to the built server, the operator reads the report and hides the gif with the built
// CLI (another process: the server sees the change through the category's version
// within GIF_CACHE_TTL_MS), the gif is never picked and its file answers 404, and
// unhide brings it back. Nothing is deleted meanwhile.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, it } from 'node:test'
import { ensureStarterCatalog, STARTER_GIFS_PER_TYPE } from '../../../src/gifs/starter.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, startServerProcess, until } from '../../support/processes.js'
import { type CliResult, runBuiltCli } from '../../support/cli.js'

const KEY = 'moderation-test-key-0123456789abcdef'
let dataDir: string
let server: ServerProcess

before(async () => {
  dataDir = tempDir('uma-moderation-proc-')
  const store = openSqliteStore(dataDir)
  try {
    await ensureStarterCatalog(store.gifs, store.gifFiles)
  } finally {
    await store.close()
  }
  server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn', GIF_CACHE_TTL_MS: '300' })
})
after(async () => {
  await server?.stop()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

function cli (...args: string[]): CliResult {
  return runBuiltCli(dataDir, args)
}

async function api (path: string, options: { method?: string, body?: unknown, key?: boolean } = {}): Promise<{ status: number, body: any }> {
  const res = await request(`${server.url}${path}`, {
    method: options.method,
    headers: { ...(options.key === false ? {} : { authorization: KEY }), ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body)
  })
  return { status: res.status, body: res.headers['content-type']?.startsWith('application/json') ? JSON.parse(res.body.toString()) : res.body }
}

/** The ids the server picks from now, all of them at once (amount is larger than the category). */
async function pickable (): Promise<string[]> {
  const { status, body } = await api('/sfw/gif/pat?amount=20')
  assert.equal(status, 200)
  return body.gifs.map((g: { id: string }) => g.id).sort()
}

it('report → reports → hide (CLI) → never picked, file 404 → unhide (CLI) → picked and served again', async () => {
  const picked = await api('/sfw/gif/pat')
  assert.equal(picked.status, 200)
  const { id, file } = picked.body as { id: string, file: string }
  const filePath = new URL(file).pathname
  assert.equal((await api(filePath, { key: false })).status, 200)

  const reported = await api(`/sfw/gif/${id}/report`, { method: 'POST', body: { reason: 'not_sfw' } })
  assert.equal(reported.status, 202, JSON.stringify(reported.body))
  assert.deepEqual([reported.body.success, reported.body.code, reported.body.gif, reported.body.reason], [true, 202, id, 'not_sfw'])

  const reports = cli('gifs', 'reports', '--json')
  assert.equal(reports.code, 0, reports.err)
  const listed = JSON.parse(reports.out)
  assert.deepEqual(listed.map((r: { id: string, reports: number, reasons: object, hidden: boolean }) => [r.id, r.reports, r.reasons, r.hidden]), [[id, 1, { not_sfw: 1 }, false]])
  const table = cli('gifs', 'reports')
  assert.match(table.out, new RegExp(`^${id} +pat +no +1 +not_sfw 1 `, 'm'))

  const hidden = cli('gifs', 'hide', id)
  assert.equal(hidden.code, 0, hidden.err)
  assert.match(hidden.out, new RegExp(`^Hid gif ${id} \\(pat\\)`))

  // The file route reads the catalog on every request: 404 at once.
  const gone = await api(filePath, { key: false })
  assert.deepEqual([gone.status, gone.body.error], [404, 'GIF_FILE_NOT_FOUND'])
  await until(async () => !(await pickable()).includes(id), 10_000, 'the hidden gif leaves the picks')
  assert.equal((await pickable()).length, STARTER_GIFS_PER_TYPE - 1)
  for (let i = 0; i < 60; i++) assert.notEqual((await api('/sfw/gif/pat')).body.id, id, `pick ${i}`)
  assert.equal((await api('/sfw/gif')).body.types.find((t: { name: string }) => t.name === 'pat').count, STARTER_GIFS_PER_TYPE - 1)
  assert.ok(fs.existsSync(`${dataDir}/gifs/${filePath.split('/').pop()}`), 'its file is kept')
  const list = JSON.parse(cli('gifs', 'list', '--category', 'pat', '--json').out) as Array<{ id: string, hidden: boolean }>
  assert.deepEqual(list.filter((g) => g.hidden).map((g) => g.id), [id], 'its row is kept, marked hidden')
  assert.match(cli('gifs', 'list', '--category', 'pat').out, new RegExp(`^${id} +pat +\\d+ +\\d+x\\d+ +\\d+ +hidden `, 'm'))

  assert.equal(cli('gifs', 'hide', id).out, `Gif ${id} (pat) is already hidden.\n`)
  const unknown = cli('gifs', 'hide', '999999')
  assert.equal(unknown.code, 1)
  assert.match(unknown.err, /no gif has the id 999999/)
  assert.equal(cli('gifs', 'hide', 'abc').code, 2)

  const shown = cli('gifs', 'unhide', id)
  assert.equal(shown.code, 0, shown.err)
  assert.equal((await api(filePath, { key: false })).status, 200)
  await until(async () => (await pickable()).includes(id), 10_000, 'the gif comes back to the picks')
  assert.equal((await pickable()).length, STARTER_GIFS_PER_TYPE)
})
