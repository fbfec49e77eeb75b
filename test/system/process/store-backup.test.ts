// npm run cli -- store backup FILE: taken while the built server serves and writes,
// restored into a fresh DATA_DIR, and read back by a server started on it.
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { runCli } from '../../../src/cli/main.js'
import { tempDir } from '../../support/helpers.js'
import { request, startServerProcess } from '../../support/processes.js'

const dirs: string[] = []
after(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }) })

function cliProcess (env: Record<string, string>, ...args: string[]): Promise<{ code: number | null, out: string, err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/cli/index.js', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => { out += d })
    child.stderr.on('data', (d) => { err += d })
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code, out, err }))
  })
}

describe('npm run cli -- store backup', () => {
  it('copies a serving, writing install; a server on the restored copy knows its keys and gifs', async () => {
    const live = tempDir('uma-backup-live-')
    const restored = tempDir('uma-backup-restored-')
    const out = tempDir('uma-backup-out-')
    dirs.push(live, restored, out)
    const created = spawnSync(process.execPath, ['dist/cli/index.js', 'keys', 'create', '--name', 'kept', '--create-store'], { env: { ...process.env, DATA_DIR: live }, encoding: 'utf8' })
    assert.equal(created.status, 0, created.stderr)
    const key = created.stdout.trim().split('\n').at(-1)!.trim()

    const server = await startServerProcess({ DATA_DIR: live, USAGE_FLUSH_MS: '100', RATE_LIMIT_MAX: '1000000' })
    let files: string[]
    const file = path.join(out, 'nightly.sqlite')
    try {
      const gif = JSON.parse((await request(`${server.url}/sfw/gif/hug`, { headers: { authorization: key } })).body.toString())
      assert.equal(gif.success, true)
      // Requests keep arriving (usage is written every 100 ms) while the backup runs.
      let serving = true
      const load = (async () => {
        let n = 0
        // eslint-disable-next-line no-unmodified-loop-condition -- cleared by the test once the backup is taken
        while (serving) {
          const res = await request(`${server.url}/color/random`, { headers: { authorization: key } })
          assert.equal(res.status, 200)
          n++
        }
        return n
      })()
      const backup = await cliProcess({ DATA_DIR: live }, 'store', 'backup', file)
      serving = false
      assert.ok(await load > 0)
      assert.equal(backup.code, 0, backup.err)
      assert.match(backup.out, /Backed up/)
      assert.match(backup.err, /gif files/)
      files = fs.readdirSync(path.join(live, 'gifs')).filter((f) => f.endsWith('.gif'))
      assert.ok(files.length > 0)
    } finally {
      assert.equal(await server.stop(), 0)
    }

    // Restore as the help says: the file as DATA_DIR/utility-media.sqlite, the gifs folder beside it.
    fs.copyFileSync(file, path.join(restored, 'utility-media.sqlite'))
    fs.cpSync(path.join(live, 'gifs'), path.join(restored, 'gifs'), { recursive: true })
    const again = await startServerProcess({ DATA_DIR: restored, GIF_STARTER_CATALOG: 'false' })
    try {
      assert.doesNotMatch(again.output(), /No API key existed/, 'the restored install has its keys')
      const me = await request(`${again.url}/me`, { headers: { authorization: key } })
      assert.equal(me.status, 200, me.body.toString())
      assert.equal(JSON.parse(me.body.toString()).name, 'kept')
      const gif = JSON.parse((await request(`${again.url}/sfw/gif/hug`, { headers: { authorization: key } })).body.toString())
      assert.equal(gif.success, true)
      const name = new URL(gif.file).pathname.split('/').at(-1)!
      assert.ok(files.includes(name), 'the gif answered is one of the original install')
      const bytes = await request(`${again.url}/files/gifs/${name}`)
      assert.equal(bytes.status, 200)
      assert.ok(bytes.body.equals(fs.readFileSync(path.join(live, 'gifs', name))))
    } finally {
      assert.equal(await again.stop(), 0)
    }
  })

  it('refuses on PostgreSQL, pointing at pg_dump, and refuses to overwrite without --force', async () => {
    const dataDir = tempDir('uma-backup-pg-')
    dirs.push(dataDir)
    const err: string[] = []
    const io = { out: () => {}, err: (s: string) => err.push(s), interactive: false }
    assert.equal(await runCli(['store', 'backup', path.join(dataDir, 'x.sqlite')], { DATA_DIR: dataDir, DATABASE_URL: 'postgres://u@127.0.0.1:1/db' }, io), 1)
    assert.match(err.join('\n'), /pg_dump/)

    err.length = 0
    assert.equal(await runCli(['keys', 'create', '--name', 'a', '--create-store'], { DATA_DIR: dataDir }, io), 0)
    const target = path.join(dataDir, 'copy.sqlite')
    assert.equal(await runCli(['store', 'backup', target], { DATA_DIR: dataDir }, io), 0)
    assert.equal(await runCli(['store', 'backup', target], { DATA_DIR: dataDir }, io), 1)
    assert.match(err.join('\n'), /--force/)
    assert.equal(await runCli(['store', 'backup', target, '--force'], { DATA_DIR: dataDir }, io), 0)
  })
})
