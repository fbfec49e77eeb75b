// npm run cli -- gifs import / list / stats / remove / add-url, through the CLI's entry
// function with a fresh DATA_DIR per test.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { createKeyService } from '../../../../src/access/keys.js'
import { sha256 } from '../../../../src/store/gif-files.js'
import { gifDirOf } from '../../../../src/store/local-gif-files.js'
import { renderStarterGif } from '../../../../src/gifs/starter-art.js'
import { GIF_TYPES } from '../../../../src/gifs/types.js'
import { openSqliteStore } from '../../../../src/store/sqlite/index.js'
import { createAppOn, tempDir } from '../../../support/helpers.js'
import { gifsCli } from '../../../fixtures/gifs.js'

let dataDir: string
let src: string

beforeEach(() => {
  dataDir = tempDir('uma-gifs-data-')
  src = tempDir('uma-gifs-src-')
})
afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true })
  fs.rmSync(src, { recursive: true, force: true })
})

const cli = gifsCli(() => ({ DATA_DIR: dataDir, PUBLIC_URL: 'https://cdn.example.test' }))

function gif (name: string, style = 0): Buffer {
  return renderStarterGif(name, style, 48, 32)
}

function put (rel: string, content: Buffer | string): string {
  const file = path.join(src, rel)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, content)
  return file
}

async function catalog () {
  const store = openSqliteStore(dataDir)
  try {
    return { counts: await store.gifs.counts(), list: await store.gifs.list() }
  } finally {
    await store.close()
  }
}

function storedFiles (): string[] {
  const dir = gifDirOf(dataDir)
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []
}

describe('gifs import', () => {
  it('imports good files from <category>/ folders, copying them under their hash', async () => {
    const a = gif('hug', 0)
    const b = gif('hug', 1)
    const c = gif('pat', 2)
    put('hug/one.gif', a)
    put('hug/two.GIF', b)
    put('Pat/three.gif', c)
    const res = await cli('import', src)
    assert.equal(res.code, 0, res.err)
    assert.match(res.out, /Added 3, skipped 0 duplicate\(s\), rejected 0\./)
    const { counts, list } = await catalog()
    assert.deepEqual(counts, { hug: 2, pat: 1 })
    assert.deepEqual(storedFiles(), [a, b, c].map((x) => `${sha256(x)}.gif`).sort())
    const pat = list.find((g) => g.category === 'pat')!
    assert.deepEqual({ hash: pat.hash, size: pat.size, width: pat.width, height: pat.height, frames: pat.frames, contentType: pat.contentType }, { hash: sha256(c), size: c.length, width: 48, height: 32, frames: 10, contentType: 'image/gif' })
    assert.ok(fs.readFileSync(path.join(gifDirOf(dataDir), `${sha256(c)}.gif`)).equals(c))
  })

  it('skips duplicates by content, within the folder and across runs (re-run is safe)', async () => {
    const a = gif('kiss')
    put('kiss/a.gif', a)
    put('kiss/copy-of-a.gif', a)
    const first = await cli('import', src)
    assert.equal(first.code, 0, first.err)
    assert.match(first.out, /Added 1, skipped 1 duplicate/)
    const again = await cli('import', src)
    assert.equal(again.code, 0)
    assert.match(again.out, /Added 0, skipped 2 duplicate/)
    assert.deepEqual((await catalog()).counts, { kiss: 1 })
    // The same gif in another category is another entry, sharing the file.
    put('wink/a.gif', a)
    assert.match((await cli('import', src)).out, /Added 1, skipped 2/)
    assert.deepEqual((await catalog()).counts, { kiss: 1, wink: 1 })
    assert.equal(storedFiles().length, 1)
  })

  it('rejects non-GIF files, corrupt GIFs and unreadable files, each with its reason, and imports the rest', async () => {
    const good = gif('slap')
    put('slap/good.gif', good)
    put('slap/notes.gif', 'just some text')
    put('slap/picture.gif', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'))
    put('slap/empty.gif', Buffer.alloc(0))
    put('slap/truncated.gif', good.subarray(0, 200))
    const garbled = Buffer.from(good)
    for (let i = 60; i < 400; i++) garbled[i] = (i * 37) & 255
    put('slap/garbled.gif', garbled)
    fs.symlinkSync(path.join(src, 'nowhere.gif'), path.join(src, 'slap', 'dangling.gif'))
    const res = await cli('import', src)
    assert.equal(res.code, 1)
    assert.match(res.out, /Added 1, skipped 0 duplicate\(s\), rejected 6\./)
    const reason = (name: string): string => res.err.split('\n').find((l) => l.includes(`${name}:`)) ?? `(no line for ${name})`
    assert.match(reason('notes.gif'), /not a GIF/)
    assert.match(reason('picture.gif'), /not a GIF: it is a PNG image/)
    assert.match(reason('empty.gif'), /not a GIF: the file is empty/)
    assert.match(reason('truncated.gif'), /corrupt GIF/)
    assert.match(reason('garbled.gif'), /corrupt GIF/)
    assert.match(reason('dangling.gif'), /cannot read the file \(ENOENT/)
    assert.deepEqual((await catalog()).counts, { slap: 1 })
    assert.deepEqual(storedFiles(), [`${sha256(good)}.gif`])
  })

  it('reports a file it has no permission to read', { skip: process.getuid?.() === 0 ? 'root reads every file' : false }, async () => {
    const file = put('cry/locked.gif', gif('cry'))
    fs.chmodSync(file, 0o000)
    const res = await cli('import', src)
    assert.equal(res.code, 1)
    assert.match(res.err, /locked\.gif: cannot read the file \(EACCES/)
  })

  it('reports folders and files outside the layout', async () => {
    put('cuddle/a.gif', gif('cuddle'))
    put('loose.gif', gif('loose'))
    put('hug/deeper/b.gif', gif('deeper'))
    put('hug/.DS_Store', 'x')
    const res = await cli('import', src)
    assert.equal(res.code, 1)
    assert.match(res.err, /cuddle: "cuddle" is not a gif type: use one of baka/)
    assert.match(res.err, /loose\.gif: not inside a category folder/)
    assert.match(res.err, /deeper: a folder inside a category folder/)
    assert.ok(!res.err.includes('DS_Store'))
    assert.match(res.out, /Added 0, skipped 0 duplicate\(s\), rejected 3\./)
  })

  it('imports a flat folder with --category', async () => {
    put('a.gif', gif('a'))
    put('b.gif', gif('b'))
    const res = await cli('import', src, '--category', 'Dance')
    assert.equal(res.code, 0, res.err)
    assert.deepEqual((await catalog()).counts, { dance: 2 })
    const bad = await cli('import', src, '--category', 'cuddle')
    assert.equal(bad.code, 1)
    assert.match(bad.err, /"cuddle" is not a gif type/)
  })

  it('fails clearly on a folder that does not exist, or a single file without --category', async () => {
    const missing = await cli('import', path.join(src, 'no-such-folder'))
    assert.equal(missing.code, 1)
    assert.match(missing.err, /The folder ".*no-such-folder" does not exist/)
    const file = put('x.gif', gif('x'))
    const notDir = await cli('import', file)
    assert.equal(notDir.code, 1)
    // One sentence, saying what to do, after the line naming the store.
    assert.match(notDir.err.split('\n')[0]!, /^Store: SQLite \S+ \(DATA_DIR from the environment\)$/)
    assert.equal(notDir.err.split('\n').slice(1).join('\n'), `Error: "${file}" is a file, not a folder of <category>/<file>.gif: name its category to import it alone (gifs import ${file} --category NAME)`)
    assert.deepEqual((await catalog()).counts, {})
    const usage = await cli('import')
    assert.equal(usage.code, 2)
  })

  it('changes nothing with --dry-run, and says what it would do', async () => {
    put('bite/a.gif', gif('bite'))
    put('bite/bad.gif', 'nope')
    const res = await cli('import', src, '--dry-run')
    assert.equal(res.code, 1)
    assert.match(res.out, /Dry run: would add 1, skipped 0 duplicate\(s\), rejected 1\./)
    assert.match(res.err, /bad\.gif: not a GIF/)
    assert.deepEqual((await catalog()).counts, {})
    assert.deepEqual(storedFiles(), [])
  })

  it('cleans up what an interrupted import left (old temp files and files without a row)', async () => {
    // An import ran here before: the database exists (gif files without one are an
    // earlier install whose database is missing, refused: test/system/process/database-identity.test.ts).
    await catalog()
    const dir = gifDirOf(dataDir)
    fs.mkdirSync(dir, { recursive: true })
    const orphan = path.join(dir, `${'b'.repeat(64)}.gif`)
    const temp = path.join(dir, `.tmp-${'c'.repeat(64)}-1-abcd`)
    const recent = path.join(dir, `${'d'.repeat(64)}.gif`)
    for (const f of [orphan, temp, recent]) fs.writeFileSync(f, 'GIF89a')
    const old = new Date(Date.now() - 3_600_000)
    fs.utimesSync(orphan, old, old)
    fs.utimesSync(temp, old, old)
    put('poke/a.gif', gif('poke'))
    const res = await cli('import', src)
    assert.equal(res.code, 0, res.err)
    assert.match(res.err, /cleaned b{64}\.gif/)
    assert.ok(!fs.existsSync(orphan) && !fs.existsSync(temp))
    // A file younger than the grace period may belong to an import running right now.
    assert.ok(fs.existsSync(recent))
  })

  it('shows progress on stderr for long imports', async () => {
    const bytes = gif('tickle')
    for (let i = 0; i < 120; i++) put(`tickle/${i}.gif`, Buffer.concat([bytes.subarray(0, bytes.length - 1), Buffer.from([0x21, 0xfe, 1, i & 255, 0, 0x3b])]))
    const res = await cli('import', src)
    assert.equal(res.code, 0, res.err)
    assert.match(res.err, /progress: 100\/120 files/)
    assert.match(res.err, /progress: 120\/120 files \(100%\)/)
    assert.deepEqual((await catalog()).counts, { tickle: 120 })
  })
})

describe('gifs list, stats, remove, add-url', () => {
  it('lists, counts and removes gifs, deleting a file only when nothing uses it', async () => {
    const a = gif('feed')
    put('feed/a.gif', a)
    put('lick/a.gif', a)
    put('lick/b.gif', gif('lick'))
    assert.equal((await cli('import', src)).code, 0)

    const stats = await cli('stats', '--json')
    const counts = JSON.parse(stats.out)
    assert.deepEqual(Object.keys(counts), [...GIF_TYPES])
    assert.equal(counts.feed, 1)
    assert.equal(counts.lick, 2)
    assert.equal(counts.hug, 0)
    assert.match((await cli('stats')).out, /total\s+3/)

    const list = JSON.parse((await cli('list', '--category', 'lick', '--json')).out)
    assert.equal(list.length, 2)
    // snake_case, the API's names (it printed animeName, addedAt, ... beside the API's anime_name)
    assert.deepEqual(Object.keys(list[0]).sort(), ['added_at', 'anime_name', 'artist', 'artist_url', 'bytes', 'category', 'dominant_color', 'external', 'file', 'frames', 'hash', 'height', 'hidden', 'id', 'source_url', 'width'])
    assert.equal(list[0].bytes, fs.statSync(path.join(gifDirOf(dataDir), `${list[0].hash}.gif`)).size)
    assert.match(list[0].file, /^https:\/\/cdn\.example\.test\/files\/gifs\/[0-9a-f]{64}\.gif$/)
    assert.match((await cli('list')).out, /ID\s+CATEGORY/)

    const feedId = JSON.parse((await cli('list', '--category', 'feed', '--json')).out)[0].id
    const removed = await cli('remove', feedId)
    assert.equal(removed.code, 0)
    assert.match(removed.out, /Removed 1 gif\(s\): feed 1\./)
    // lick/a.gif still uses the same file.
    assert.ok(storedFiles().includes(`${sha256(a)}.gif`))
    const lickA = list.find((g: { hash: string }) => g.hash === sha256(a)).id
    assert.equal((await cli('remove', lickA)).code, 0)
    assert.ok(!storedFiles().includes(`${sha256(a)}.gif`))
    assert.deepEqual((await catalog()).counts, { lick: 1 })

    const unknown = await cli('remove', '999999')
    assert.equal(unknown.code, 1)
    assert.match(unknown.err, /no gif has the id 999999/)
    assert.equal((await cli('remove', 'abc')).code, 2)
  })

  it('adds an entry served from an external URL, answered as is by the API', async () => {
    const res = await cli('add-url', 'https://media.example.test/hug/1.gif', '--category', 'hug', '--width', '320', '--height', '240')
    assert.equal(res.code, 0, res.err)
    const list = JSON.parse((await cli('list', '--json')).out)
    assert.equal(list[0].file, 'https://media.example.test/hug/1.gif')
    assert.equal(list[0].external, true)
    const store = openSqliteStore(dataDir)
    const app = await createAppOn(store, dataDir)
    try {
      const { key } = await createKeyService(store.keys).create('t')
      const answer = await app.inject({ method: 'GET', url: '/sfw/gif/hug', headers: { authorization: key } })
      assert.equal(answer.statusCode, 200)
      assert.equal(JSON.parse(answer.body).file, 'https://media.example.test/hug/1.gif')
    } finally {
      await app.close()
      await store.close()
    }
    const again = await cli('add-url', 'https://media.example.test/hug/1.gif', '--category', 'hug')
    assert.equal(again.code, 1)
    assert.match(again.err, /already holds this gif/)
    assert.equal((await cli('add-url', 'ftp://x/y.gif', '--category', 'hug')).code, 1)
    // Handed to every client that picks the gif: no credentials, nothing of this network.
    for (const [url, why] of [
      ['https://user:secret@media.example.test/a.gif', /carries credentials/],
      ['http://127.1/a.gif', /127\.0\.0\.1, a loopback address/],
      ['http://[::ffff:10.0.0.1]/a.gif', /10\.0\.0\.1, a private-network address/],
      ['http://169.254.169.254/latest/a.gif', /link-local/],
      ['http://app.localhost/a.gif', /names "app\.localhost", this machine/]
    ] as const) {
      const refused = await cli('add-url', url, '--category', 'hug')
      assert.equal(refused.code, 1, url)
      assert.match(refused.err, why)
    }
    assert.equal((await cli('add-url', 'https://x/y.gif')).code, 2)
  })
})
