// gifs pull killed with SIGKILL part way, twice, then run again: the run finishes its
// count with no gif twice, no file without a catalog row, no temp file and no journal
// left (src/gifs/pull.ts). Also the 200-gif pack of issue 28: one command with a
// progress bar, a re-import that adds nothing, an export that imports identically on
// a second install. The BUILT CLI (dist/cli/index.js), as operators run it.
import assert from 'node:assert/strict'
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import type { GifRecord } from '../../../src/store/interface.js'
import { gifDirOf } from '../../../src/store/local-gif-files.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { startFakeGifApis } from '../../support/fake-gif-apis.js'
import { noiseGif } from '../../fixtures/gifs.js'
import { tempDirs } from '../../support/helpers.js'

const dirs = tempDirs()
after(() => dirs.removeAll())

function env (dataDir: string): NodeJS.ProcessEnv {
  return { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', GIF_STARTER_CATALOG: 'false', REMOTE_FETCH_ALLOW: '127.0.0.1', GIF_PULL_CONTACT: 'ops@example.test' }
}

function run (args: string[], environment: NodeJS.ProcessEnv): Promise<{ status: number | null, stdout: string, stderr: string }> {
  const child = spawn(process.execPath, args, { env: environment, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => { stdout += d })
  child.stderr.on('data', (d) => { stderr += d })
  return new Promise((resolve) => child.once('exit', (status) => resolve({ status, stdout, stderr })))
}

async function rows (dataDir: string): Promise<GifRecord[]> {
  const store = openSqliteStore(dataDir)
  try {
    return await store.gifs.list({ limit: 10_000 })
  } finally {
    await store.close()
  }
}

describe('gifs pull killed part way', () => {
  it('finishes on the next run without duplicates or orphan files', async () => {
    const api = await startFakeGifApis({ pool: 60 })
    const dataDir = dirs.make('uma-pull-kill-')
    const args = ['dist/cli/index.js', 'gifs', 'pull', '--create-store', 'nekos.best', '--category', 'hug', '--count', '30', '--interval-ms', '5', '--base-url', `${api.url}/nekos`]
    try {
      for (const killAt of [7, 16]) {
        const child: ChildProcess = spawn(process.execPath, args, { env: env(dataDir), stdio: ['ignore', 'pipe', 'pipe'] })
        let output = ''
        child.stdout!.on('data', (d) => { output += d })
        child.stderr!.on('data', (d) => { output += d })
        const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)))
        // Killed while a download is asked for: the gifs before it are at any stage.
        api.onDownload = (n) => { if (n === killAt) child.kill('SIGKILL') }
        assert.equal(await exited, 'SIGKILL', output)
        api.onDownload = undefined
      }
      const before = (await rows(dataDir)).length
      assert.ok(before > 0 && before < 30, `${before} gifs after the kills`)
      assert.ok(fs.existsSync(path.join(dataDir, 'pulls', 'nekos.best-hug', 'run.json')), 'the journal of the killed run')

      // Not spawnSync: the stand-in API answers from this process's event loop.
      const r = await run(args, env(dataDir))
      assert.equal(r.status, 0, r.stderr)
      assert.match(r.stdout, /^Added 30 of 30 hug gif\(s\) from nekos\.best/)
      const list = await rows(dataDir)
      assert.equal(list.length, 30)
      assert.equal(new Set(list.map((g) => g.hash)).size, 30, 'no gif twice')
      assert.deepEqual(fs.readdirSync(gifDirOf(dataDir)).sort(), list.map((g) => `${g.hash}.gif`).sort(), 'exactly one file per row, no temp file')
      assert.deepEqual(fs.readdirSync(path.join(dataDir, 'pulls')), [], 'no journal left')
      // Its attribution came along.
      assert.ok(list.every((g) => g.animeName !== null || g.artist !== null))
    } finally {
      await api.close()
    }
  })
})

describe('a pack of 200 gifs', () => {
  it('imports in one command with progress, re-imports as a no-op, and exports to a pack that imports identically', async () => {
    const src = dirs.make('uma-pack200-src-')
    const first = dirs.make('uma-pack200-a-')
    const second = dirs.make('uma-pack200-b-')
    const work = dirs.make('uma-pack200-work-')
    const gifs = []
    for (let i = 0; i < 200; i++) {
      const category = ['hug', 'pat', 'wave', 'kiss'][i % 4]!
      fs.mkdirSync(path.join(src, category), { recursive: true })
      fs.writeFileSync(path.join(src, category, `${i}.gif`), await noiseGif(5000 + i))
      gifs.push({ file: `${category}/${i}.gif`, category, anime_name: `Anime ${i % 7}`, artist: i % 3 === 0 ? `Artist ${i}` : undefined, source_url: `https://source.example/${i}` })
    }
    fs.writeFileSync(path.join(src, 'manifest.json'), JSON.stringify({ version: 1, gifs }))
    execFileSync('tar', ['-czf', path.join(work, 'pack.tar.gz'), '-C', src, '.'])
    const cli = (dataDir: string, ...a: string[]) => spawnSync(process.execPath, ['dist/cli/index.js', 'gifs', ...a, '--create-store'], { env: env(dataDir), encoding: 'utf8', timeout: 120_000 })

    const imported = cli(first, 'import', path.join(work, 'pack.tar.gz'))
    assert.equal(imported.status, 0, imported.stderr)
    assert.equal(imported.stdout, 'Added 200, skipped 0 duplicate(s), rejected 0.\n')
    assert.match(imported.stderr, /progress: 100\/200 files \(50%\)/)
    assert.match(imported.stderr, /progress: 200\/200 files \(100%\)/)
    const again = cli(first, 'import', path.join(work, 'pack.tar.gz'))
    assert.equal(again.stdout, 'Added 0, skipped 200 duplicate(s), rejected 0.\n')

    const exported = cli(first, 'export', path.join(work, 'export'))
    assert.equal(exported.status, 0, exported.stderr)
    const into = cli(second, 'import', path.join(work, 'export'))
    assert.equal(into.status, 0, into.stderr)
    assert.equal(into.stdout, 'Added 200, skipped 0 duplicate(s), rejected 0.\n')
    const shape = (list: GifRecord[]) => list.map((g) => [g.category, g.hash, g.animeName, g.artist, g.artistUrl, g.sourceUrl, g.phash, g.hidden])
    assert.deepEqual(shape(await rows(second)), shape(await rows(first)))
  })
})
