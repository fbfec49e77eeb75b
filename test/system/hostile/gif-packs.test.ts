// Issue 35, item 5 (gif packs that exhaust the host) and item 7 for the import, through
// the BUILT CLI as operators run it (node dist/cli/index.js gifs import PACK), with a
// DATA_DIR and a TMPDIR of the test's own. Each hostile pack is built here, byte by byte,
// and each run is held to what an operator relies on: refused (whole or entry by entry)
// with a reason, within a time bound that only a hang breaks, with a bounded number of
// folders in TMPDIR while it runs, a bounded peak RSS and output, nothing left in TMPDIR
// afterwards, and no raw ESC byte on stdout or stderr.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { renderStarterGif } from '../../../src/gifs/starter-art.js'
import { GIF_TYPES } from '../../../src/gifs/types.js'
import { tempDir } from '../../support/helpers.js'
import { tarGz, zip } from '../../fixtures/archives.js'

/** A run that takes longer is a hang (the bugs of issue 35 took from 33 s to hours). */
const RUN_TIMEOUT_MS = 120_000
/** Peak RSS of one import: the CLI alone (Node, sharp, SQLite) is about 150 MB here. */
const MAX_RSS = 400 * 1024 * 1024
/** stdout and stderr together: 200 lines of news, a summary, a few lines more. */
const MAX_OUTPUT = 256 * 1024
const ESC = 0x1b

let work: string
let tmp: string
let dataDir: string
beforeEach(() => {
  work = tempDir('uma-hostile-packs-')
  tmp = path.join(work, 'tmp')
  dataDir = path.join(work, 'data')
  fs.mkdirSync(tmp)
  fs.mkdirSync(dataDir)
})
afterEach(() => fs.rmSync(work, { recursive: true, force: true }))

interface Run {
  code: number | null
  signal: NodeJS.Signals | null
  out: string
  err: string
  /** Bytes of stdout and stderr. */
  bytes: number
  /** Most folders seen under TMPDIR while the import ran. */
  maxFolders: number
  peakRss: number
}

/** Folders under `dir`, walked to `depth` levels; a deeper one counts as a million. */
function countFolders (dir: string, depth = 6): number {
  let n = 0
  let entries: fs.Dirent[]
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true })
  } catch {
    return 0
  }
  for (const e of entries) {
    if (!e.isDirectory()) continue
    n += depth === 0 ? 1_000_000 : 1 + countFolders(path.join(dir, e.name), depth - 1)
  }
  return n
}

function writePack (name: string, bytes: Buffer): string {
  const file = path.join(work, name)
  fs.writeFileSync(file, bytes)
  return file
}

/**
 * `gifs import PACK` through the built CLI. `onTmp` is called each time TMPDIR is
 * looked at while the process runs (to signal it once its unpack folder exists).
 */
async function importPack (pack: string, options: { args?: string[], onTmp?: (child: ReturnType<typeof spawn>, names: string[]) => void } = {}): Promise<Run> {
  const rssFile = path.join(work, `rss-${Math.random().toString(36).slice(2)}`)
  const child = spawn(process.execPath, ['--import', './test/system/hostile/peak-rss.mjs', 'dist/cli/index.js', 'gifs', 'import', pack, '--create-store', ...(options.args ?? [])], {
    env: { ...process.env, DATA_DIR: dataDir, TMPDIR: tmp, LOG_LEVEL: 'silent', GIF_STARTER_CATALOG: 'false', PEAK_RSS_FILE: rssFile },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const out: Buffer[] = []
  const err: Buffer[] = []
  child.stdout.on('data', (c: Buffer) => out.push(c))
  child.stderr.on('data', (c: Buffer) => err.push(c))
  let maxFolders = 0
  let running = true
  const killer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS)
  // TMPDIR is looked at while the import runs: the folders it makes are counted there.
  const watch = (): void => {
    if (!running) return
    maxFolders = Math.max(maxFolders, countFolders(tmp))
    options.onTmp?.(child, fs.readdirSync(tmp))
    setTimeout(watch, 20)
  }
  watch()
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])))
  running = false
  clearTimeout(killer)
  const stdout = Buffer.concat(out)
  const stderr = Buffer.concat(err)
  const peakRss = fs.existsSync(rssFile) ? Number(fs.readFileSync(rssFile, 'utf8')) : Number.NaN
  return { code, signal, out: stdout.toString('utf8'), err: stderr.toString('utf8'), bytes: stdout.length + stderr.length, maxFolders, peakRss }
}

/** What every run of a hostile pack must hold. */
function assertBounded (run: Run, maxFolders: number): void {
  assert.notEqual(run.signal, 'SIGKILL', `the import was killed after ${RUN_TIMEOUT_MS} ms: ${run.err.slice(0, 2000)}`)
  assert.ok(run.maxFolders <= maxFolders, `${run.maxFolders} folders in TMPDIR while it ran (at most ${maxFolders})`)
  assert.deepEqual(fs.readdirSync(tmp), [], 'nothing is left in TMPDIR')
  assert.ok(run.bytes <= MAX_OUTPUT, `${run.bytes} bytes of output`)
  assert.ok(!run.out.includes(String.fromCharCode(ESC)) && !run.err.includes(String.fromCharCode(ESC)), 'no raw ESC byte is printed')
  if (run.signal === null) assert.ok(run.peakRss > 0 && run.peakRss <= MAX_RSS, `peak RSS ${Math.round(run.peakRss / 1048576)} MB`)
}

function manifestOf (gifs: unknown[]): string {
  return JSON.stringify({ version: 1, gifs })
}

const GIF = renderStarterGif('hug', 0, 48, 32)
/** Files of a pack that takes a while to unpack (a second or more here), to signal it meanwhile. */
const UNPACK_FILES = 8_000

describe('gifs import of hostile packs (built CLI)', () => {
  it('deep entry names: 40 entries 10,000 folders deep make no folder, each refused', async () => {
    const deep = Array.from({ length: 10_000 }, (_, i) => `d${i % 10}`).join('/')
    const pack = writePack('deep.tar.gz', tarGz([
      { name: 'manifest.json', data: manifestOf([{ file: 'hug/a.gif', category: 'hug' }]) },
      { name: 'hug/a.gif', data: GIF },
      ...Array.from({ length: 40 }, (_, i) => ({ name: `${deep}/${i}.gif`, data: 'x' }))
    ]))
    assert.ok(fs.statSync(pack).size < 20_000)
    const run = await importPack(pack)
    assertBounded(run, 2)
    assert.equal(run.code, 1)
    assert.match(run.out, /^Added 1, skipped 0 duplicate\(s\), rejected 40\.$/m)
    assert.equal(run.err.split('\n').filter((l) => /10001 levels deep: a pack holds manifest\.json and <category>\/<file> only$/.test(l)).length, 40)
  })

  it('a manifest over 16 MiB (66 MB of 1s in a small archive) is refused before it is parsed', async () => {
    const ones = `{"version":1,"gifs":[${'1,'.repeat(33_000_000)}1]}`
    const pack = writePack('ones.tar.gz', tarGz([{ name: 'manifest.json', data: ones }]))
    assert.ok(fs.statSync(pack).size < 200_000)
    const run = await importPack(pack)
    assertBounded(run, 1)
    assert.equal(run.code, 1)
    assert.match(run.err, new RegExp(`^Error: manifest\\.json is ${Buffer.byteLength(ones)} bytes \\(at most 16777216\\): split the pack$`, 'm'))
  })

  it('a manifest of 8 million entries under 16 MiB is refused by its count, before it is parsed', async () => {
    const pack = writePack('count.tar.gz', tarGz([{ name: 'manifest.json', data: `{"version":1,"gifs":[${'1,'.repeat(8_000_000)}1]}` }]))
    const run = await importPack(pack)
    assertBounded(run, 1)
    assert.equal(run.code, 1)
    assert.match(run.err, /^Error: manifest\.json lists more than 20000 gifs \(at most 20000\): split the pack$/m)
  })

  it('20,000 refused entries print 200 lines and a count of the rest', async () => {
    const pack = writePack('refused.tar.gz', tarGz([{ name: 'manifest.json', data: `{"version":1,"gifs":[${'1,'.repeat(19_999)}1]}` }]))
    const run = await importPack(pack)
    assertBounded(run, 1)
    assert.equal(run.code, 1)
    assert.match(run.out, /^Added 0, skipped 0 duplicate\(s\), rejected 20000\.$/m)
    assert.equal(run.err.split('\n').filter((l) => l.startsWith('rejected manifest.json gifs[')).length, 200)
    assert.match(run.err, /^… and 19800 more refused not shown \(20000 in all; the first 200 are above\)$/m)
  })

  it('20,000 entries naming one gif: read and decoded once, added once per category', async () => {
    const entries = Array.from({ length: 20_000 }, (_, i) => ({ file: 'hug/a.gif', category: GIF_TYPES[i % GIF_TYPES.length] }))
    const pack = writePack('same.tar.gz', tarGz([{ name: 'manifest.json', data: manifestOf(entries) }, { name: 'hug/a.gif', data: GIF }]))
    assert.ok(fs.statSync(pack).size < 100_000)
    const run = await importPack(pack)
    assertBounded(run, 2)
    assert.equal(run.code, 0, run.err.slice(0, 2000))
    assert.match(run.out, new RegExp(`^Added ${GIF_TYPES.length}, skipped ${20_000 - GIF_TYPES.length} duplicate\\(s\\), rejected 0\\.`, 'm'))
  })

  it('a name too long for the file system is refused alone; the others are imported', async () => {
    const long = `${'n'.repeat(300)}.gif`
    const pack = writePack('long.tar.gz', tarGz([
      { name: 'manifest.json', data: manifestOf([{ file: `hug/${long}`, category: 'hug' }, { file: 'hug/a.gif', category: 'hug' }]) },
      { name: `hug/${long}`, data: GIF },
      { name: 'hug/a.gif', data: GIF }
    ]))
    const run = await importPack(pack)
    assertBounded(run, 2)
    assert.equal(run.code, 1)
    assert.match(run.out, /^Added 1, skipped 0 duplicate\(s\), rejected 2\.$/m)
    assert.match(run.err, /^rejected .*long\.tar\.gz: hug\/n{100,}.*: a name of 304 bytes: file systems take at most 255$/m)
    assert.match(run.err, /^rejected manifest\.json gifs\[0\] .*: cannot read the file \(ENAMETOOLONG/m)
  })

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} while unpacking removes the unpacked folder`, async () => {
      const pack = writePack('big.tar.gz', tarGz([
        { name: 'manifest.json', data: manifestOf([]) },
        ...Array.from({ length: UNPACK_FILES }, (_, i) => ({ name: `hug/${i}.gif`, data: 'x' }))
      ]))
      let sent = false
      const run = await importPack(pack, {
        onTmp: (child, names) => {
          if (!sent && names.some((n) => n.startsWith('uma-pack-'))) { sent = true; child.kill(signal) }
        }
      })
      assert.ok(sent, 'the unpack folder was seen')
      assert.equal(run.signal, signal, `the import ended by ${signal} (code ${run.code}): ${run.err.slice(0, 500)}`)
      assertBounded(run, 2)
    })
  }

  it('a folder left by a killed import (SIGKILL) is removed by the next import', async () => {
    const pack = writePack('big.tar.gz', tarGz([
      { name: 'manifest.json', data: manifestOf([{ file: 'hug/a.gif', category: 'hug' }]) },
      { name: 'hug/a.gif', data: GIF },
      ...Array.from({ length: UNPACK_FILES }, (_, i) => ({ name: `pat/${i}.gif`, data: 'x' }))
    ]))
    let killed = false
    const first = await importPack(pack, {
      onTmp: (child, names) => {
        if (!killed && names.some((n) => n.startsWith('uma-pack-'))) { killed = true; child.kill('SIGKILL') }
      }
    })
    assert.equal(first.signal, 'SIGKILL')
    const left = fs.readdirSync(tmp)
    assert.equal(left.length, 1)
    assert.match(left[0]!, /^uma-pack-\d+-[A-Za-z0-9]{6}$/)
    const second = await importPack(pack)
    assertBounded(second, 3)
    assert.equal(second.code, 0, second.err.slice(0, 2000))
    assert.match(second.err, new RegExp(`^cleaned ${path.join(tmp, left[0]!).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: left by an interrupted import$`, 'm'))
  })

  it('tar size fields read as GNU tar reads them: "12abc" and pax size "0x10" refuse the archive', async () => {
    for (const [name, entry, why] of [
      ['octal.tar.gz', { name: 'hug/a.gif', data: 'x'.repeat(10), sizeField: '12abc\0' }, /has a size that is not a number \("12abc"\)/],
      ['pax.tar.gz', { name: 'hug/a.gif', data: 'x'.repeat(16), pax: { size: '0x10' } }, /has a size that is not a number \(pax size "0x10"\)/]
    ] as const) {
      const run = await importPack(writePack(name, tarGz([{ name: 'manifest.json', data: manifestOf([]) }, entry])))
      assertBounded(run, 2)
      assert.equal(run.code, 1)
      assert.match(run.err, why)
    }
  })

  it('a second manifest.json is refused as ambiguous', async () => {
    const run = await importPack(writePack('two.tar.gz', tarGz([
      { name: 'manifest.json', data: manifestOf([]) },
      { name: 'hug/a.gif', data: GIF },
      { name: './manifest.json', data: manifestOf([{ file: 'hug/a.gif', category: 'hug' }]) }
    ])))
    assertBounded(run, 2)
    assert.equal(run.code, 1)
    assert.match(run.err, /^Error: Cannot unpack .*: the archive holds manifest\.json twice: which one is meant is ambiguous/m)
  })

  it('a fake end record in a zip comment does not make a valid zip unreadable', async () => {
    const fake = Buffer.alloc(22)
    fake.writeUInt32LE(0x06054b50, 0)
    const pack = writePack('comment.zip', zip([
      { name: 'manifest.json', data: manifestOf([{ file: 'hug/a.gif', category: 'hug' }]) },
      { name: 'hug/a.gif', data: GIF, deflate: true }
    ], { comment: Buffer.concat([Buffer.from('a comment '), fake]) }))
    const run = await importPack(pack)
    assertBounded(run, 2)
    assert.equal(run.code, 0, run.err)
    assert.match(run.out, /^Added 1, skipped 0 duplicate\(s\), rejected 0\.$/m)
  })

  it('a gif whose logical screen is 4097² or 65535² (with a 1×1 frame) is refused from its header', async () => {
    const tiny = renderStarterGif('hug', 0, 1, 1)
    const screen = (side: number): Buffer => {
      const bytes = Buffer.from(tiny)
      bytes.writeUInt16LE(side, 6)
      bytes.writeUInt16LE(side, 8)
      return bytes
    }
    const pack = writePack('screen.tar.gz', tarGz([
      { name: 'manifest.json', data: manifestOf([{ file: 'hug/big.gif', category: 'hug' }, { file: 'hug/huge.gif', category: 'hug' }, { file: 'hug/ok.gif', category: 'hug' }]) },
      { name: 'hug/big.gif', data: screen(4097) },
      { name: 'hug/huge.gif', data: screen(65535) },
      { name: 'hug/ok.gif', data: tiny }
    ]))
    const run = await importPack(pack)
    assertBounded(run, 2)
    assert.equal(run.code, 1)
    assert.match(run.out, /^Added 1, skipped 0 duplicate\(s\), rejected 2\.$/m)
    assert.match(run.err, /^rejected manifest\.json gifs\[0\] \(hug\/big\.gif\): too large: its logical screen is 4097×4097 pixels/m)
    assert.match(run.err, /^rejected manifest\.json gifs\[1\] \(hug\/huge\.gif\): too large: its logical screen is 65535×65535 pixels/m)
  })

  it('url entries: held to the add-url rule, and 50,000 of them refuse the manifest', async () => {
    const many = Array.from({ length: 50_000 }, (_, i) => ({ url: `https://cdn.example.test/${i}.gif`, category: 'hug' }))
    const flood = await importPack(writePack('urls.tar.gz', tarGz([{ name: 'manifest.json', data: manifestOf(many) }])))
    assertBounded(flood, 1)
    assert.equal(flood.code, 1)
    assert.match(flood.err, /^Error: manifest\.json lists more than 20000 gifs/m)
    const over = await importPack(writePack('urls2.tar.gz', tarGz([{ name: 'manifest.json', data: manifestOf(many.slice(0, 5001)) }])))
    assertBounded(over, 1)
    assert.match(over.err, /^Error: manifest\.json lists 5001 "url" entries \(at most 5000\): split the pack$/m)
    const run = await importPack(writePack('bad-urls.tar.gz', tarGz([{
      name: 'manifest.json',
      data: manifestOf([
        { url: 'https://user:secret@cdn.example.test/a.gif', category: 'hug' },
        { url: 'http://127.0.0.1:6379/a.gif', category: 'hug' },
        { url: 'http://[fd00::1]/a.gif', category: 'hug' },
        { url: 'https://cdn.example.test/ok.gif', category: 'hug' }
      ])
    }])))
    assertBounded(run, 1)
    assert.equal(run.code, 1)
    assert.match(run.out, /^Added 1, skipped 0 duplicate\(s\), rejected 3\.$/m)
    assert.match(run.err, /gifs\[0\].*carries credentials/)
    assert.match(run.err, /gifs\[1\].*127\.0\.0\.1, a loopback address/)
    assert.match(run.err, /gifs\[2\].*unique-local/)
  })

  it('terminal escapes in entry names, manifest file names, URLs and reasons are printed escaped', async () => {
    const evil = 'hug/\x1b]0;owned\x07\x1b[2J\x1b[1A\rAdded 50 of 50.gif'
    const pack = writePack('escapes.tar.gz', tarGz([
      { name: 'manifest.json', data: manifestOf([{ file: evil, category: 'hug' }, { url: 'https://cdn.example.test/\x1b[2J.gif', category: '\x1b[31mhug' }, { file: 'hug/a.gif', category: '\x1b[2Jnope' }]) },
      { name: evil, data: 'not a gif' },
      { name: 'hug/a.gif', data: GIF },
      { name: 'hug/\x1b[2J', type: '2', linkName: '/etc/passwd' }
    ]))
    const run = await importPack(pack)
    assertBounded(run, 2)
    assert.equal(run.code, 1)
    assert.match(run.err, /\\x1b\]0;owned\\x07\\x1b\[2J\\x1b\[1A\\rAdded 50 of 50\.gif/)
    assert.ok(!/^Added 50/m.test(run.err), 'no forged line')
  })
})
