// Gif packs (docs/gif-packs.md): a manifest with attribution imports from a folder, a
// .tar.gz or a .zip; its wrong entries are refused one by one; a re-import adds nothing
// but fills in missing attribution; near-duplicates are flagged by look; and a pack
// exported from one install imports identically into another, on SQLite and PostgreSQL.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, it } from 'node:test'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import sharp from 'sharp'
import { exportPack } from '../../../src/gifs/exporter.js'
import { importGifs } from '../../../src/gifs/importer.js'
import { renderStarterGif } from '../../../src/gifs/starter-art.js'
import { sha256 } from '../../../src/store/gif-files.js'
import type { GifRecord, Store } from '../../../src/store/interface.js'
import { gifDirOf } from '../../../src/store/local-gif-files.js'
import { openPostgresStore } from '../../../src/store/postgres/index.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { dropSchema, postgresMissing, TEST_DATABASE_URL, uniqueName } from '../../support/backends.js'
import { tempDir } from '../../support/helpers.js'
import { gifsCli, noiseGif } from '../../fixtures/gifs.js'

let dataDir: string
let src: string
beforeEach(() => {
  dataDir = tempDir('uma-packs-data-')
  src = tempDir('uma-packs-src-')
})
afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true })
  fs.rmSync(src, { recursive: true, force: true })
})

const cli = gifsCli(() => ({ DATA_DIR: dataDir, GIF_STARTER_CATALOG: 'false' }))

function put (rel: string, content: Buffer | string): void {
  const file = path.join(src, rel)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, content)
}

function manifest (gifs: unknown[], extra: Record<string, unknown> = {}): void {
  put('manifest.json', JSON.stringify({ version: 1, ...extra, gifs }))
}

async function rows (dir = dataDir): Promise<GifRecord[]> {
  const store = openSqliteStore(dir)
  try {
    return await store.gifs.list({ limit: 100_000 })
  } finally {
    await store.close()
  }
}

const ATTRIBUTION = { anime_name: 'Some Anime', artist: 'Someone', artist_url: 'https://artist.example/someone', source_url: 'https://source.example/post/1' }

describe('gifs import of a pack', () => {
  it('imports the documented shape with its attribution, ignoring fields it does not know', async () => {
    const a = await noiseGif(1)
    const b = await noiseGif(2)
    put('hug/a.gif', a)
    put('files/b.gif', b)
    manifest([
      { file: 'hug/a.gif', category: 'hug', ...ATTRIBUTION, rating: 'safe', tags: ['x'] },
      { file: './files/b.gif', category: 'Pat', anime_name: 'Other' }
    ], { name: 'my pack', homepage: 'https://example.test' })
    const res = await cli('import', src)
    assert.equal(res.code, 0, res.err)
    assert.match(res.out, /^Added 2, skipped 0 duplicate\(s\), rejected 0\.$/)
    assert.match(res.err, /pack: 2 gif\(s\) in its manifest/)
    const list = await rows()
    assert.deepEqual(list.map((g) => [g.category, g.hash, g.animeName, g.artist, g.artistUrl, g.sourceUrl]), [
      ['hug', sha256(a), 'Some Anime', 'Someone', 'https://artist.example/someone', 'https://source.example/post/1'],
      ['pat', sha256(b), 'Other', null, null, null]
    ])
    assert.ok(list.every((g) => typeof g.phash === 'string' && g.phash.length === 48))
  })

  it('refuses wrong entries one by one, with their reason, and imports the others', async () => {
    const good = await noiseGif(3)
    put('hug/good.gif', good)
    put('hug/other.gif', await noiseGif(4))
    fs.writeFileSync(path.join(tempDir('uma-outside-'), 'x.gif'), good)
    fs.symlinkSync('/etc/hostname', path.join(src, 'hug', 'link.gif'))
    manifest([
      { file: 'hug/good.gif', category: 'hug' },
      { file: '../outside.gif', category: 'hug' },
      { file: '/etc/passwd', category: 'hug' },
      { file: 'hug/link.gif', category: 'hug' },
      { file: 'hug/missing.gif', category: 'hug' },
      { file: 'hug/other.gif', category: 'nope' },
      { file: 'hug/other.gif' },
      { file: 'hug/other.gif', category: 'hug', sha256: '0'.repeat(64) },
      { category: 'hug' },
      'just a string',
      { file: 'hug/other.gif', category: 'hug', artist_url: 'javascript:alert(1)' }
    ])
    const res = await cli('import', src)
    assert.equal(res.code, 1)
    assert.match(res.out, /^Added 1, skipped 0 duplicate\(s\), rejected 10\./)
    const lines = res.err.split('\n').filter((l) => l.startsWith('rejected '))
    const reasons = Object.fromEntries(lines.map((l) => [Number(/gifs\[(\d+)\]/.exec(l)![1]), l]))
    assert.match(reasons[1]!, /leaves the pack/)
    assert.match(reasons[2]!, /absolute/)
    assert.match(reasons[3]!, /link leading out of the pack/)
    assert.match(reasons[4]!, /cannot read the file \(ENOENT/)
    assert.match(reasons[5]!, /"nope" is not a gif type/)
    assert.match(reasons[6]!, /no "category", and no --category given/)
    assert.match(reasons[7]!, /not the 0{64} its manifest gives/)
    assert.match(reasons[8]!, /exactly one of "file" and "url"/)
    assert.match(reasons[9]!, /must be an object/)
    assert.match(reasons[10]!, /"artist_url" must be an http\(s\) URL/)
    assert.deepEqual((await rows()).map((g) => g.hash), [sha256(good)])
  })

  it('refuses a manifest of another version, or not JSON, whole', async () => {
    manifest([], { version: 2 })
    let res = await cli('import', src)
    assert.equal(res.code, 1)
    assert.match(res.err, /pack version 2; this importer reads version 1/)
    put('manifest.json', '{"version": 1, "gifs": [')
    res = await cli('import', src)
    assert.equal(res.code, 1)
    assert.match(res.err, /manifest\.json is not valid JSON/)
  })

  it('imports the same pack packed as .tar.gz and as .zip; a re-import is a no-op', async () => {
    put('hug/a.gif', await noiseGif(5))
    put('wave/b.gif', await noiseGif(6))
    manifest([{ file: 'hug/a.gif', category: 'hug', ...ATTRIBUTION }, { file: 'wave/b.gif', category: 'wave' }])
    const work = tempDir('uma-pack-archives-')
    try {
      execFileSync('tar', ['-czf', path.join(work, 'pack.tar.gz'), '-C', src, '.'])
      execFileSync('zip', ['-qr', path.join(work, 'pack.zip'), '.'], { cwd: src })
      const first = await cli('import', path.join(work, 'pack.tar.gz'))
      assert.equal(first.code, 0, first.err)
      assert.match(first.out, /^Added 2, skipped 0/)
      const again = await cli('import', path.join(work, 'pack.zip'))
      assert.equal(again.code, 0, again.err)
      assert.match(again.out, /^Added 0, skipped 2 duplicate\(s\), rejected 0\.$/)
      assert.equal((await rows()).length, 2)
      // Nothing unpacked is left in the working folder's temporary space.
      assert.deepEqual(fs.readdirSync(work).sort(), ['pack.tar.gz', 'pack.zip'])
      // An archive without a manifest at its top is refused with how to make one.
      execFileSync('tar', ['-czf', path.join(work, 'nested.tar.gz'), '-C', path.dirname(src), path.basename(src)])
      const nested = await cli('import', path.join(work, 'nested.tar.gz'))
      assert.equal(nested.code, 1)
      assert.match(nested.err, /holds no manifest\.json at its top/)
    } finally {
      fs.rmSync(work, { recursive: true, force: true })
    }
  })

  it('a re-import fills in the attribution the catalog lacks, and changes nothing else', async () => {
    const a = await noiseGif(7)
    put('kiss/a.gif', a)
    assert.equal((await cli('import', src)).code, 0)
    assert.equal((await rows())[0]!.artist, null)
    manifest([{ file: 'kiss/a.gif', category: 'kiss', ...ATTRIBUTION }])
    const res = await cli('import', src)
    assert.equal(res.code, 0, res.err)
    assert.match(res.out, /^Added 0, skipped 1 duplicate\(s\), rejected 0\. attribution filled in for 1\.$/)
    const [g] = await rows()
    assert.deepEqual([g!.animeName, g!.artist, g!.artistUrl, g!.sourceUrl], ['Some Anime', 'Someone', 'https://artist.example/someone', 'https://source.example/post/1'])
    // Known attribution is kept: another manifest does not overwrite it.
    manifest([{ file: 'kiss/a.gif', category: 'kiss', artist: 'Someone Else' }])
    assert.match((await cli('import', src)).out, /^Added 0, skipped 1 duplicate\(s\), rejected 0\.$/)
    assert.equal((await rows())[0]!.artist, 'Someone')
  })
})

describe('near-duplicates', () => {
  async function fixtures (): Promise<{ original: Buffer, resized: Buffer, other: Buffer }> {
    const original = renderStarterGif('hug', 0, 96, 64)
    const resized = await sharp(original, { animated: true }).resize(77, 51, { fit: 'fill' }).gif({ colours: 64, effort: 1 }).toBuffer()
    return { original, resized, other: renderStarterGif('pat', 1, 96, 64) }
  }

  it('reports a resized, re-encoded copy by default and adds it; a different gif is not flagged', async () => {
    const { original, resized, other } = await fixtures()
    put('hug/1-original.gif', original)
    put('hug/2-resized.gif', resized)
    put('hug/3-other.gif', other)
    const res = await cli('import', src)
    assert.equal(res.code, 0, res.err)
    assert.match(res.out, /^Added 3, skipped 0 duplicate\(s\), rejected 0\. 1 near-duplicate\(s\) added\.$/)
    const ids = (await rows()).map((g) => g.id)
    assert.match(res.err, new RegExp(`near-duplicate .*2-resized\\.gif: looks like gif ${ids[0]} \\(\\d+ bits apart\\), added anyway`))
    assert.doesNotMatch(res.err, /3-other/)
  })

  it('skips it with --near-duplicates skip, keeps it silently with keep', async () => {
    const { original, resized } = await fixtures()
    put('hug/1-original.gif', original)
    put('hug/2-resized.gif', resized)
    const skip = await cli('import', src, '--near-duplicates', 'skip')
    assert.equal(skip.code, 0, skip.err)
    assert.match(skip.out, /^Added 1, .* 1 near-duplicate\(s\) skipped\.$/)
    assert.match(skip.err, /2-resized\.gif: looks like gif \d+ \(\d+ bits apart\), skipped/)
    assert.equal((await rows()).length, 1)
    const keep = await cli('import', src, '--near-duplicates', 'keep')
    assert.match(keep.out, /^Added 1, skipped 1 duplicate\(s\), rejected 0\.$/)
    assert.doesNotMatch(keep.err, /near-duplicate/)
    assert.equal((await rows()).length, 2)
    assert.equal((await cli('import', src, '--near-duplicates', 'maybe')).code, 2)
  })
})

// The contract: pack → import → export → import into a fresh store gives the same
// categories, hashes, attribution and hidden flags, on each store.
const backends: Array<{ name: string, skip: Promise<string | undefined> | undefined, open: (dir: string) => Promise<{ store: Store, drop: () => Promise<void> }> }> = [
  { name: 'SQLite', skip: undefined, open: async (dir) => { const store = openSqliteStore(dir); return { store, drop: () => store.close() } } },
  {
    name: 'PostgreSQL',
    skip: postgresMissing(),
    open: async (dir) => {
      const schema = uniqueName('packs')
      const store = await openPostgresStore(TEST_DATABASE_URL, { schema, dataDir: dir })
      return { store, drop: async () => { await store.close(); await dropSchema(schema) } }
    }
  }
]

for (const backend of backends) {
  describe(`export and re-import (${backend.name})`, async () => {
    const skip = await backend.skip
    it('imports identically on a second install', { skip }, async () => {
      const gifs = await Promise.all([10, 11, 12, 13].map((i) => noiseGif(i)))
      gifs.forEach((g, i) => put(`p/${i}.gif`, g))
      manifest([
        { file: 'p/0.gif', category: 'hug', ...ATTRIBUTION },
        { file: 'p/1.gif', category: 'hug', anime_name: 'Only the anime' },
        { file: 'p/2.gif', category: 'wave', artist: 'A', artist_url: 'https://a.example/' },
        { file: 'p/0.gif', category: 'pat' },
        { file: 'p/3.gif', category: 'pat', hidden: true },
        { url: 'https://cdn.example.test/hug/far.gif', category: 'hug', width: 10, height: 8, frames: 2, source_url: 'https://source.example/far' }
      ])
      const firstDir = tempDir('uma-packs-first-')
      const secondDir = tempDir('uma-packs-second-')
      const exported = path.join(tempDir('uma-packs-export-'), 'pack')
      const first = await backend.open(firstDir)
      const second = await backend.open(secondDir)
      try {
        const a = await importGifs({ folder: src, store: first.store.gifs, files: first.store.gifFiles })
        assert.deepEqual(a.rejected, [])
        assert.equal(a.added.length, 6)
        const e = await exportPack({ store: first.store.gifs, files: first.store.gifFiles, dir: exported })
        assert.deepEqual(e, { files: 5, external: 1, missing: [] })
        const b = await importGifs({ folder: exported, store: second.store.gifs, files: second.store.gifFiles })
        assert.deepEqual(b.rejected, [])
        assert.equal(b.added.length, 6)
        const shape = (list: GifRecord[]) => list.map((g) => ({ category: g.category, hash: g.hash, url: g.url, size: g.size, width: g.width, height: g.height, frames: g.frames, animeName: g.animeName ?? null, artist: g.artist ?? null, artistUrl: g.artistUrl ?? null, sourceUrl: g.sourceUrl ?? null, phash: g.phash ?? null, hidden: g.hidden }))
        const before = shape(await first.store.gifs.list({ limit: 1000 }))
        const after = shape(await second.store.gifs.list({ limit: 1000 }))
        assert.deepEqual(after, before)
        assert.deepEqual(await second.store.gifs.counts(), await first.store.gifs.counts())
        for (const g of before) if (g.hash !== null) assert.ok((await second.store.gifFiles.read(g.hash))?.equals((await first.store.gifFiles.read(g.hash))!))
        // Importing the export again into the second install is a no-op.
        const c = await importGifs({ folder: exported, store: second.store.gifs, files: second.store.gifFiles })
        assert.deepEqual([c.added.length, c.duplicates.length, c.attributed.length], [0, 6, 0])
        // An export into a folder that holds something is refused.
        await assert.rejects(exportPack({ store: first.store.gifs, files: first.store.gifFiles, dir: exported }), /is not empty/)
      } finally {
        await first.drop()
        await second.drop()
        for (const d of [firstDir, secondDir, path.dirname(exported)]) fs.rmSync(d, { recursive: true, force: true })
      }
    })
  })
}

describe('gifs export', () => {
  it('writes <category>/<sha256>.gif and a manifest, one category with --category', async () => {
    const a = await noiseGif(20)
    put('hug/a.gif', a)
    put('pat/b.gif', await noiseGif(21))
    assert.equal((await cli('import', src)).code, 0)
    const out = path.join(tempDir('uma-export-'), 'pack')
    try {
      const res = await cli('export', out, '--category', 'hug')
      assert.equal(res.code, 0, res.err)
      assert.equal(res.out, `Exported 1 gif file(s) and 0 external entries to ${out}.`)
      assert.deepEqual(fs.readdirSync(out).sort(), ['hug', 'manifest.json'])
      const m = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'))
      assert.equal(m.version, 1)
      assert.match(m.generator, /^utility-media-api \d+\.\d+\.\d+$/)
      assert.deepEqual(m.gifs, [{ file: `hug/${sha256(a)}.gif`, category: 'hug', sha256: sha256(a) }])
      assert.ok(fs.readFileSync(path.join(out, 'hug', `${sha256(a)}.gif`)).equals(a))
      assert.equal(fs.readdirSync(gifDirOf(dataDir)).length, 2)
    } finally {
      fs.rmSync(path.dirname(out), { recursive: true, force: true })
    }
  })
})

describe('docs/gif-pack.schema.json', () => {
  // Ajv comes with Fastify (its validator); here it checks the published schema against
  // the example of docs/gif-packs.md and against what gifs export writes.
  const Ajv = Ajv2020.default
  const ajv = new Ajv({ allErrors: true, strict: false })
  addFormats.default(ajv)
  const validate = ajv.compile(JSON.parse(fs.readFileSync('docs/gif-pack.schema.json', 'utf8')))

  it('accepts the documented example and an exported manifest, and refuses a wrong one', async () => {
    const page = fs.readFileSync('docs/gif-packs.md', 'utf8')
    const example = JSON.parse(/```json\n([\s\S]*?)```/.exec(page)![1]!)
    assert.ok(validate(example), JSON.stringify(validate.errors))
    put('hug/a.gif', await noiseGif(30))
    manifest([{ file: 'hug/a.gif', category: 'hug', ...ATTRIBUTION, hidden: true }, { url: 'https://cdn.example.test/x.gif', category: 'pat', width: 1, height: 1, frames: 1 }])
    assert.equal((await cli('import', src)).code, 0)
    const out = path.join(tempDir('uma-schema-'), 'pack')
    try {
      assert.equal((await cli('export', out)).code, 0)
      const exported = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'))
      assert.equal(exported.gifs.length, 2)
      assert.ok(validate(exported), JSON.stringify(validate.errors))
    } finally {
      fs.rmSync(path.dirname(out), { recursive: true, force: true })
    }
    assert.equal(validate({ version: 2, gifs: [] }), false)
    assert.equal(validate({ version: 1, gifs: [{ file: 'a.gif', url: 'https://x.example/a.gif' }] }), false)
  })
})
