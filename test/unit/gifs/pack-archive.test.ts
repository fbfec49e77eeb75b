// Unpacking a pack archive (.tar.gz, .zip) refuses what could write outside the fresh
// folder or fill the disk: traversal, absolute paths, links, devices, too many or too
// large entries, zip bombs (lying sizes, shared data), and reads what real tools make.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { gunzipSync, gzipSync } from 'node:zlib'
import { ArchiveError, DEFAULT_ARCHIVE_LIMITS, safeEntryPath, tarNumber, unpackArchive } from '../../../src/gifs/pack-archive.js'
import { tempDir } from '../../support/helpers.js'
import { tarGz, zip } from '../../fixtures/archives.js'

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
      assert.deepEqual(report, { files: ['manifest.json', 'hug/a.gif'], folders: 1, refused: [] })
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

    it('refuses names deeper than <category>/<file> before making any folder', async () => {
      const deep = Array.from({ length: 2000 }, () => 'a').join('/')
      const file = write(`deep.${kind}`, make([{ name: `${deep}/x.gif`, data: 'x' }, { name: 'a/b/c.gif', data: 'x' }, { name: 'a/b/', data: '' }, { name: 'hug/ok.gif', data: 'y' }]))
      const report = await unpackArchive(file, dest)
      assert.deepEqual(report.files, ['hug/ok.gif'])
      assert.deepEqual(report.refused.map((r) => r.reason), [
        '2001 levels deep: a pack holds manifest.json and <category>/<file> only',
        '3 levels deep: a pack holds manifest.json and <category>/<file> only',
        'a folder inside a folder: a pack holds manifest.json and <category>/<file> only'
      ])
      assert.deepEqual(tree(dest), ['hug', 'hug/ok.gif'])
      assert.equal(report.folders, 1)
    })

    it('counts the folders made for files against the entries', async () => {
      // 3 files in 3 folders named by no entry of their own: 6 entries.
      const file = write(`folders.${kind}`, make(['hug', 'pat', 'wave'].map((c) => ({ name: `${c}/a.gif`, data: 'x' }))))
      await assert.rejects(unpackArchive(file, dest, { ...DEFAULT_ARCHIVE_LIMITS, maxEntries: 5 }), /more than 5 entries and folders/)
      const ok = await unpackArchive(file, fs.mkdtempSync(path.join(work, 'f-')), { ...DEFAULT_ARCHIVE_LIMITS, maxEntries: 6 })
      assert.deepEqual([ok.files.length, ok.folders], [3, 3])
    })

    it('refuses a name too long for the file system alone, and unpacks the others', async () => {
      const long = `${'é'.repeat(128)}.gif`
      const file = write(`long.${kind}`, make([{ name: `hug/${long}`, data: 'x' }, { name: `${'d'.repeat(300)}/a.gif`, data: 'x' }, { name: 'hug/ok.gif', data: 'y' }]))
      const report = await unpackArchive(file, dest)
      assert.deepEqual(report.files, ['hug/ok.gif'])
      assert.deepEqual(report.refused.map((r) => r.reason), ['a name of 260 bytes: file systems take at most 255', 'a name of 300 bytes: file systems take at most 255'])
    })

    it('refuses an archive holding manifest.json twice, as ambiguous', async () => {
      const file = write(`two.${kind}`, make([{ name: 'manifest.json', data: '{"version":1,"gifs":[]}' }, { name: './manifest.json', data: '{"version":1,"gifs":[{"url":"https://x.example/a.gif"}]}' }]))
      await assert.rejects(unpackArchive(file, dest), (err: Error) => err instanceof ArchiveError && /holds manifest\.json twice: which one is meant is ambiguous/.test(err.message))
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

  it('refuses a central directory over 64 MiB before reading it', async () => {
    // A sparse file of 80 MB whose end record claims a 70 MB directory.
    const file = path.join(work, 'huge-directory.zip')
    const size = 80 * 1024 * 1024
    fs.writeFileSync(file, Buffer.from([0x50, 0x4b, 0x03, 0x04]))
    fs.truncateSync(file, size - 22)
    const eocd = Buffer.alloc(22)
    eocd.writeUInt32LE(0x06054b50, 0)
    eocd.writeUInt16LE(1, 8)
    eocd.writeUInt16LE(1, 10)
    eocd.writeUInt32LE(70 * 1024 * 1024, 12)
    eocd.writeUInt32LE(1024, 16)
    fs.appendFileSync(file, eocd)
    await assert.rejects(unpackArchive(file, dest), /a central directory of 73400320 bytes \(at most 67108864\)/)
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

describe('the end of a .tar.gz', () => {
  it('is its first zero block: entries after it are not read, as GNU tar lists none of them', async () => {
    // tar-stream reads on past the end-of-archive blocks: one reason the reader is ours.
    const file = write('after-end.tar.gz', gzipSync(Buffer.concat([gunzipSync(tarGz([{ name: 'a.gif', data: 'a' }])), gunzipSync(tarGz([{ name: 'hidden.gif', data: 'h' }]))])))
    assert.deepEqual(execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).split('\n').filter((l) => l !== ''), ['a.gif'])
    const report = await unpackArchive(file, dest)
    assert.deepEqual(report, { files: ['a.gif'], folders: 0, refused: [] })
  })
})

describe('tar numbers, read as GNU tar reads them', () => {
  const field = (text: string): Buffer => Buffer.concat([Buffer.from(text, 'latin1'), Buffer.alloc(12)]).subarray(0, 12)

  it('reads octal digits with leading spaces and a NUL or space after them, and base-256', () => {
    assert.equal(tarNumber(field('00000000012\0')), 10)
    assert.equal(tarNumber(field('     12 \0')), 10)
    assert.equal(tarNumber(Buffer.alloc(12)), 0)
    const b256 = Buffer.alloc(12)
    b256[0] = 0x80
    b256.writeUInt32BE(5000, 8)
    assert.equal(tarNumber(b256), 5000)
  })

  it('refuses letters, hex, signs, blanks and negative base-256', () => {
    for (const text of ['12abc', '0x10', '8', '-1', '+1', '            ', '1 2']) {
      assert.equal(tarNumber(field(text)), text === '1 2' ? 1 : undefined, JSON.stringify(text))
    }
    const negative = Buffer.alloc(12, 0xff)
    assert.equal(tarNumber(negative), undefined)
  })

  it('refuses an archive whose size field is "12abc" or whose pax size is "0x10", as GNU tar does', async () => {
    const bad = write('bad-size.tar.gz', tarGz([{ name: 'a.gif', data: 'x'.repeat(10), sizeField: '12abc\0' }]))
    await assert.rejects(unpackArchive(bad, dest), /"a\.gif" has a size that is not a number \("12abc"\)/)
    const pax = write('pax-size.tar.gz', tarGz([{ name: 'b.gif', data: 'x'.repeat(16), pax: { size: '0x10' } }]))
    await assert.rejects(unpackArchive(pax, dest), /pax size "0x10"/)
    const good = write('pax-ok.tar.gz', tarGz([{ name: 'c.gif', data: 'y'.repeat(16), pax: { size: '16', path: 'hug/c.gif' } }]))
    assert.deepEqual((await unpackArchive(good, dest)).files, ['hug/c.gif'])
  })
})

describe('a zip whose comment holds a fake end record', () => {
  it('is read from the end record whose comment reaches the end of the file', async () => {
    const fake = Buffer.alloc(22)
    fake.writeUInt32LE(0x06054b50, 0)
    fake.writeUInt16LE(7, 10)
    fake.writeUInt32LE(0xffff, 12)
    const file = write('comment.zip', zip([{ name: 'manifest.json', data: '{}' }, { name: 'hug/a.gif', data: 'GIF89a', deflate: true }], { comment: Buffer.concat([Buffer.from('made by hand '), fake]) }))
    const report = await unpackArchive(file, dest)
    assert.deepEqual(report.files, ['manifest.json', 'hug/a.gif'])
    assert.equal(fs.readFileSync(path.join(dest, 'hug/a.gif'), 'utf8'), 'GIF89a')
  })
})

describe('a zip\'s central directory, as the end record gives it', () => {
  const entries = [{ name: 'manifest.json', data: '{}' }, { name: 'hug/a.gif', data: 'GIF89a', deflate: true }]

  it('is read even after a ZIP64 record and locator that name another (empty) one', async () => {
    const plain = zip(entries)
    const eocd = plain.length - 22
    // A ZIP64 end record listing no entries, and its locator, between the directory and the end record.
    const record = Buffer.alloc(56)
    record.writeUInt32LE(0x06064b50, 0)
    record.writeBigUInt64LE(44n, 4)
    const locator = Buffer.alloc(20)
    locator.writeUInt32LE(0x07064b50, 0)
    locator.writeBigUInt64LE(BigInt(eocd), 8)
    locator.writeUInt32LE(1, 16)
    const file = write('zip64-locator.zip', Buffer.concat([plain.subarray(0, eocd), record, locator, plain.subarray(eocd)]))
    const report = await unpackArchive(file, dest)
    assert.deepEqual(report.files, ['manifest.json', 'hug/a.gif'])
  })

  it('refuses the archive when a directory record is damaged', async () => {
    const bytes = zip(entries)
    const cd = bytes.readUInt32LE(bytes.length - 6)
    bytes.writeUInt32LE(0, cd + 46 + 'manifest.json'.length)
    await assert.rejects(unpackArchive(write('damaged.zip', bytes), dest), (err: Error) => err instanceof ArchiveError && /^not a readable \.zip archive \(invalid central directory file header signature/.test(err.message))
    assert.deepEqual(tree(dest), [])
  })
})
