// One contract, both places gif bytes live (src/store/gif-files.ts): the same cases over
// the local disk (SQLite mode) and the local disk plus PostgreSQL (scale-out mode).
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { type GifFileStore, sha256 } from '../../../src/store/gif-files.js'
import { createLocalGifFileStore, gifDirOf, ORPHAN_GRACE_MS } from '../../../src/store/local-gif-files.js'
import { openPostgresStore } from '../../../src/store/postgres/index.js'
import { dropSchema, postgresMissing, TEST_DATABASE_URL, uniqueName } from '../../support/backends.js'
import { tempDir } from '../../support/helpers.js'

interface Opened { files: GifFileStore, dataDir: string, cleanup (): Promise<void> }
interface Backend { name: string, skip: Promise<string | undefined>, open (): Promise<Opened> }

const backends: Backend[] = [
  {
    name: 'local disk',
    skip: Promise.resolve(undefined),
    async open () {
      const dataDir = tempDir('uma-gif-files-')
      return { files: createLocalGifFileStore(dataDir), dataDir, async cleanup () { fs.rmSync(dataDir, { recursive: true, force: true }) } }
    }
  },
  {
    name: 'local disk plus PostgreSQL',
    skip: postgresMissing(),
    async open () {
      const dataDir = tempDir('uma-gif-files-')
      const schema = uniqueName('gif_files')
      const store = await openPostgresStore(TEST_DATABASE_URL, { schema, dataDir })
      return {
        files: store.gifFiles,
        dataDir,
        async cleanup () {
          await store.close()
          await dropSchema(schema)
          fs.rmSync(dataDir, { recursive: true, force: true })
        }
      }
    }
  }
]

/** Some bytes and their name; distinct per call, so cases do not see each other's files. */
function someGif (): { bytes: Buffer, hash: string } {
  const bytes = Buffer.concat([Buffer.from('GIF89a'), randomBytes(64)])
  return { bytes, hash: sha256(bytes) }
}

for (const backend of backends) {
  describe(`gif file store contract: ${backend.name}`, async () => {
    const skip = await backend.skip
    if (skip) {
      it(`skipped: ${skip}`, { skip })
      return
    }
    const { files, dataDir, cleanup } = await backend.open()
    after(cleanup)
    const onDisk = (hash: string): string => path.join(gifDirOf(dataDir), `${hash}.gif`)

    it('stores bytes under their hash and gives them back, opened and read whole', async () => {
      const { bytes, hash } = someGif()
      await files.put(hash, bytes)
      assert.ok(fs.readFileSync(onDisk(hash)).equals(bytes))
      assert.ok((await files.read(hash))!.equals(bytes))
      const file = (await files.open(hash))!
      try {
        assert.equal(file.size, bytes.length)
        assert.ok((await file.handle.readFile()).equals(bytes))
      } finally {
        await file.close()
      }
    })

    it('answers undefined for a gif it does not hold', async () => {
      const { hash } = someGif()
      assert.equal(await files.open(hash), undefined)
      assert.equal(await files.read(hash), undefined)
    })

    it('keeps a copy already stored when the same bytes are put again', async () => {
      const { bytes, hash } = someGif()
      await files.put(hash, bytes)
      const inode = fs.statSync(onDisk(hash)).ino
      await files.put(hash, bytes)
      assert.equal(fs.statSync(onDisk(hash)).ino, inode)
      assert.deepEqual(fs.readdirSync(gifDirOf(dataDir)).filter((n) => n.startsWith('.tmp-')), [])
    })

    it('refuses a name that is not a content hash', async () => {
      await assert.rejects(files.put('../secret', Buffer.from('x')), /not a content hash/)
      await assert.rejects(files.open('A'.repeat(64)), /not a content hash/)
    })

    it('treats a symbolic link in place of a gif as not stored, never reading what it names', async () => {
      const { hash } = someGif()
      fs.mkdirSync(gifDirOf(dataDir), { recursive: true })
      const secret = path.join(dataDir, 'secret.txt')
      fs.writeFileSync(secret, 'do not serve')
      fs.symlinkSync(secret, onDisk(hash))
      assert.equal(await files.open(hash), undefined)
      assert.equal(await files.read(hash), undefined)
    })

    // A FIFO opened for reading without O_NONBLOCK waits for a writer: the open would hold
    // one of libuv's four file-system threads for good.
    it('treats a FIFO in place of a gif as not stored, without waiting for a writer', { timeout: 10_000 }, async () => {
      const { hash } = someGif()
      fs.mkdirSync(gifDirOf(dataDir), { recursive: true })
      execFileSync('mkfifo', [onDisk(hash)])
      assert.equal(await files.open(hash), undefined)
      assert.equal(await files.read(hash), undefined)
    })

    it('treats a directory in place of a gif as not stored', async () => {
      const { hash } = someGif()
      fs.mkdirSync(onDisk(hash), { recursive: true })
      assert.equal(await files.open(hash), undefined)
      assert.equal(await files.read(hash), undefined)
    })

    it('deletes this machine\'s copy, and a missing one without error', async () => {
      const { bytes, hash } = someGif()
      await files.put(hash, bytes)
      await files.delete(hash)
      assert.equal(fs.existsSync(onDisk(hash)), false)
      await files.delete(hash)
    })

    it('cleans orphans older than the grace period: unreferenced files and temp files, never referenced or young ones', async () => {
      const kept = someGif()
      const orphan = someGif()
      await files.put(kept.hash, kept.bytes)
      await files.put(orphan.hash, orphan.bytes)
      const temp = path.join(gifDirOf(dataDir), '.tmp-left-behind')
      fs.writeFileSync(temp, 'half')
      const young = await files.cleanOrphans(new Set([kept.hash]), { now: Date.now() })
      assert.ok(!young.includes(`${orphan.hash}.gif`) && !young.includes('.tmp-left-behind'))
      const removed = await files.cleanOrphans(new Set([kept.hash]), { now: Date.now() + ORPHAN_GRACE_MS + 1000 })
      assert.ok(removed.includes(`${orphan.hash}.gif`))
      assert.ok(removed.includes('.tmp-left-behind'))
      assert.ok(!removed.includes(`${kept.hash}.gif`))
      assert.ok(fs.existsSync(onDisk(kept.hash)))
      assert.equal(fs.existsSync(onDisk(orphan.hash)), false)
    })

    it('keeps a format made from a gif beside it, deletes it with the gif, and cleans it as an orphan', async () => {
      const { bytes, hash } = someGif()
      await files.put(hash, bytes)
      assert.equal(await files.openDerived(hash, 'webp'), undefined)
      await files.putDerived(hash, 'webp', Buffer.from('RIFF....WEBP'))
      const opened = await files.openDerived(hash, 'webp')
      assert.equal(opened!.size, 12)
      assert.equal((await opened!.handle.readFile()).toString(), 'RIFF....WEBP')
      await opened!.close()
      assert.equal(fs.readFileSync(path.join(gifDirOf(dataDir), `${hash}.webp`)).toString(), 'RIFF....WEBP')
      assert.deepEqual(await files.read(hash), bytes, 'the gif itself unchanged')
      await files.delete(hash)
      assert.equal(await files.openDerived(hash, 'webp'), undefined)
      assert.equal(fs.existsSync(path.join(gifDirOf(dataDir), `${hash}.webp`)), false)
      await assert.rejects(files.putDerived('../x', 'webp', Buffer.from('x')), /not a content hash/)

      const orphan = someGif()
      await files.putDerived(orphan.hash, 'webp', Buffer.from('RIFF'))
      const removed = await files.cleanOrphans(new Set(), { now: Date.now() + ORPHAN_GRACE_MS + 1000 })
      assert.ok(removed.includes(`${orphan.hash}.webp`), removed.join(' '))
    })
  })
}

describe('gif file store: local disk plus PostgreSQL, across instances', async () => {
  const skip = await postgresMissing()
  if (skip) {
    it(`skipped: ${skip}`, { skip })
    return
  }
  const schema = uniqueName('gif_files_shared')
  const dirA = tempDir('uma-gif-files-a-')
  const dirB = tempDir('uma-gif-files-b-')
  const a = await openPostgresStore(TEST_DATABASE_URL, { schema, dataDir: dirA })
  const b = await openPostgresStore(TEST_DATABASE_URL, { schema, dataDir: dirB })
  after(async () => {
    await a.close()
    await b.close()
    await dropSchema(schema)
    for (const dir of [dirA, dirB]) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('serves a gif put through another instance, keeping a local copy from the first use on', async () => {
    const { bytes, hash } = someGif()
    await a.gifFiles.put(hash, bytes)
    const local = path.join(gifDirOf(dirB), `${hash}.gif`)
    assert.equal(fs.existsSync(local), false)
    const file = (await b.gifFiles.open(hash))!
    try {
      assert.ok((await file.handle.readFile()).equals(bytes))
    } finally {
      await file.close()
    }
    assert.ok(fs.readFileSync(local).equals(bytes))
  })

  it('keeps the shared copy when one instance deletes its own', async () => {
    const { bytes, hash } = someGif()
    await a.gifFiles.put(hash, bytes)
    await a.gifFiles.delete(hash)
    assert.ok((await b.gifFiles.read(hash))!.equals(bytes))
  })
})
