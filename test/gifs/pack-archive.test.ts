// Unpacking a pack archive (.tar.gz, .zip) refuses what could write outside the fresh
// folder or fill the disk: traversal, absolute paths, links, devices, too many or too
// large entries, zip bombs (lying sizes, shared data), and reads what real tools make.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { ArchiveError, DEFAULT_ARCHIVE_LIMITS, safeEntryPath, unpackArchive } from '../../src/gifs/pack-archive.js'
import { tempDir } from '../helpers.js'
import { tarGz, zip } from './archives.js'

let work: string
let dest: string
beforeEach(() => {
  work = tempDir('uma-archive-')
  dest = path.join(work, 'out')
  fs.mkdirSync(dest)
})
afterEach(() => fs.rmSync(work, { recursive: true, force: true }))

function write (name: string, bytes: Buffer): string {
  const file = path.join(work, name)
  fs.writeFileSync(file, bytes)
  return file
}

function tree (dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).map((p) => p.split(path.sep).join('/')).sort()
}

describe('safeEntryPath', () => {
  it('normalises harmless spellings and refuses escaping ones', () => {
    assert.deepEqual(safeEntryPath('./hug//a.gif'), { path: 'hug/a.gif' })
    for (const name of ['/etc/passwd', '../a.gif', 'hug/../../a.gif', 'C:evil.gif', 'hug\\..\\a.gif', 'a\0b', '', './']) {
      assert.ok('reason' in safeEntryPath(name), name)
    }
  })
})

for (const kind of ['tar.gz', 'zip'] as const) {
  const make = (entries: Array<{ name: string, data?: string | Buffer }>): Buffer => kind === 'zip' ? zip(entries.map((e) => ({ ...e, deflate: true }))) : tarGz(entries)

  describe(`a .${kind} pack`, () => {
    it('unpacks files and folders into the folder', async () => {
      const file = write(`pack.${kind}`, make([{ name: 'manifest.json', data: '{}' }, { name: 'hug/' }, { name: 'hug/a.gif', data: 'GIF89a' }]))
      const report = await unpackArchive(file, dest)
      assert.deepEqual(report, { files: ['manifest.json', 'hug/a.gif'], refused: [] })
      assert.deepEqual(tree(dest), ['hug', 'hug/a.gif', 'manifest.json'])
      assert.equal(fs.readFileSync(path.join(dest, 'hug/a.gif'), 'utf8'), 'GIF89a')
    })

    it('refuses entries whose path leaves the folder, and writes nothing outside it', async () => {
      const file = write(`evil.${kind}`, make([{ name: '../escaped.gif', data: 'x' }, { name: '/tmp/abs.gif', data: 'x' }, { name: 'hug/../../up.gif', data: 'x' }, { name: 'ok.gif', data: 'y' }]))
      const report = await unpackArchive(file, dest)
      assert.deepEqual(report.files, ['ok.gif'])
      assert.deepEqual(report.refused.map((r) => r.entry), ['../escaped.gif', '/tmp/abs.gif', 'hug/../../up.gif'])
      assert.deepEqual(fs.readdirSync(work).sort(), ['evil.' + kind, 'out'])
      assert.equal(fs.existsSync('/tmp/abs.gif'), false)
    })

    it('refuses a second entry of the same path, never writing through the first', async () => {
      const file = write(`dup.${kind}`, make([{ name: 'a.gif', data: 'first' }, { name: './a.gif', data: 'second' }]))
      const report = await unpackArchive(file, dest)
      assert.deepEqual(report.refused, [{ entry: './a.gif', reason: 'a second entry with the same path' }])
      assert.equal(fs.readFileSync(path.join(dest, 'a.gif'), 'utf8'), 'first')
    })

    it('bounds the number of entries, the size of one and the total', async () => {
      const many = write(`many.${kind}`, make(Array.from({ length: 6 }, (_, i) => ({ name: `${i}.gif`, data: 'x' }))))
      await assert.rejects(unpackArchive(many, dest, { ...DEFAULT_ARCHIVE_LIMITS, maxEntries: 5 }), (err: Error) => err instanceof ArchiveError && /more than 5 entries/.test(err.message))
      const big = write(`big.${kind}`, make([{ name: 'big.gif', data: Buffer.alloc(5000) }, { name: 'small.gif', data: 'x' }]))
      const report = await unpackArchive(big, fs.mkdtempSync(path.join(work, 'b-')), { ...DEFAULT_ARCHIVE_LIMITS, maxEntryBytes: 4096 })
      assert.deepEqual(report.files, ['small.gif'])
      assert.match(report.refused[0]!.reason, /5000 bytes, over the limit of 4096/)
      const total = write(`total.${kind}`, make(Array.from({ length: 4 }, (_, i) => ({ name: `${i}.gif`, data: Buffer.alloc(3000) }))))
      await assert.rejects(unpackArchive(total, fs.mkdtempSync(path.join(work, 't-')), { ...DEFAULT_ARCHIVE_LIMITS, maxBytes: 10_000 }), /unpacks to .*10000/)
    })

    it('refuses a damaged archive whole', async () => {
      const good = make([{ name: 'a.gif', data: Buffer.alloc(3000, 7) }])
      const file = write(`cut.${kind}`, good.subarray(0, Math.floor(good.length / 2)))
      await assert.rejects(unpackArchive(file, dest), ArchiveError)
    })
  })
}

describe('links and special files', () => {
  it('.tar.gz: symbolic and hard links, devices are refused, never created', async () => {
    const file = write('links.tar.gz', tarGz([
      { name: 'hug/', type: '5' },
      { name: 'hug/link.gif', type: '2', linkName: '/etc/passwd' },
      { name: 'hug/hard.gif', type: '1', linkName: 'hug/a.gif' },
      { name: 'dev', type: '3' },
      // A link to a folder outside, then a file "through" it: the file lands inside.
      { name: 'out', type: '2', linkName: '/tmp' },
      { name: 'out/x.gif', data: 'x' }
    ]))
    const report = await unpackArchive(file, dest)
    assert.deepEqual(report.refused.map((r) => [r.entry, r.reason.split(':')[0]]), [
      ['hug/link.gif', 'a symbolic link'], ['hug/hard.gif', 'a hard link'], ['dev', 'a character device'], ['out', 'a symbolic link']
    ])
    assert.deepEqual(tree(dest), ['hug', 'out', 'out/x.gif'])
    assert.ok(fs.lstatSync(path.join(dest, 'out')).isDirectory())
  })

  it('.zip: a symbolic link entry is refused, an encrypted one too', async () => {
    const file = write('links.zip', zip([{ name: 'link.gif', data: '/etc/passwd', mode: 0o120777 }, { name: 'secret.gif', data: 'x', encrypted: true }, { name: 'a.gif', data: 'a' }]))
    const report = await unpackArchive(file, dest)
    assert.deepEqual(report.files, ['a.gif'])
    assert.deepEqual(report.refused.map((r) => r.reason), ['a symbolic link: only files and folders are unpacked', 'encrypted: not unpacked'])
  })
})

describe('zip bombs', () => {
  it('refuses an entry that inflates past its declared size', async () => {
    const file = write('bomb.zip', zip([{ name: 'bomb.gif', data: Buffer.alloc(10 * 1024 * 1024), deflate: true, declaredSize: 1000 }]))
    assert.ok(fs.statSync(file).size < 20_000)
    const report = await unpackArchive(file, dest)
    assert.deepEqual(report.refused, [{ entry: 'bomb.gif', reason: 'it inflates to more than its declared size (a zip bomb)' }])
    assert.deepEqual(tree(dest), [])
  })

  it('refuses an archive whose honest sizes add up past the total', async () => {
    const entries = Array.from({ length: 3 }, (_, i) => ({ name: `${i}.gif`, data: Buffer.alloc(4 * 1024 * 1024), deflate: true }))
    const file = write('honest.zip', zip(entries))
    await assert.rejects(unpackArchive(file, dest, { ...DEFAULT_ARCHIVE_LIMITS, maxBytes: 10 * 1024 * 1024 }), /unpacks to 12582912 bytes/)
  })

  it('refuses entries that share their compressed data (overlapping files)', async () => {
    const file = write('overlap.zip', zip([{ name: 'a.gif', data: Buffer.alloc(100_000), deflate: true }, { name: 'b.gif', data: Buffer.alloc(100_000), deflate: true }], { shareData: true }))
    await assert.rejects(unpackArchive(file, dest), /share their data \(a zip bomb\)/)
  })
})

describe('archives made by real tools', () => {
  it('reads GNU tar (with a long name) and Info-ZIP archives', async () => {
    const srcDir = path.join(work, 'src')
    const longName = `${'x'.repeat(120)}.gif`
    fs.mkdirSync(path.join(srcDir, 'hug'), { recursive: true })
    fs.writeFileSync(path.join(srcDir, 'manifest.json'), '{"version":1,"gifs":[]}')
    fs.writeFileSync(path.join(srcDir, 'hug', longName), 'GIF89a')
    execFileSync('tar', ['-czf', path.join(work, 'real.tar.gz'), '-C', srcDir, '.'])
    const a = await unpackArchive(path.join(work, 'real.tar.gz'), dest)
    assert.deepEqual(a.refused, [])
    assert.deepEqual(tree(dest), ['hug', `hug/${longName}`, 'manifest.json'])
    execFileSync('zip', ['-qr', path.join(work, 'real.zip'), '.'], { cwd: srcDir })
    const zdest = fs.mkdtempSync(path.join(work, 'z-'))
    const b = await unpackArchive(path.join(work, 'real.zip'), zdest)
    assert.deepEqual(b.refused, [])
    assert.deepEqual(tree(zdest), ['hug', `hug/${longName}`, 'manifest.json'])
  })
})
