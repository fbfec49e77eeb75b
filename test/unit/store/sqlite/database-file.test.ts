// The SQLite store and its file, in process (src/store/sqlite/database-file.ts): writes
// refused (503 STORE_UNAVAILABLE) once the file is deleted, replaced or overwritten, reads still
// answered; the start checks' refusals and the empty start that sets the old journal aside.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { toAppError } from '../../../../src/http/error-handler.js'
import { isStoreUnavailable } from '../../../../src/store/interface.js'
import { DATABASE_GONE_RETRY_AFTER_S, DatabaseFileGoneError, DatabaseStartError, EXIT_DATABASE_MISSING, EXIT_DATABASE_UNREADABLE } from '../../../../src/store/sqlite/database-file.js'
import { SQLITE_FILE } from '../../../../src/store/sqlite/database.js'
import { openSqliteStore } from '../../../../src/store/sqlite/index.js'
import { tempDir } from '../../../support/helpers.js'

const dirs: string[] = []
after(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }) })

function dataDir (): string {
  const d = tempDir('uma-sqlite-file-')
  dirs.push(d)
  return d
}

const key = (name: string) => ({ name, prefix: 'um_test', hash: name.padEnd(64, '0'), source: 'cli' as const })

async function refusesWrites (store: ReturnType<typeof openSqliteStore>): Promise<void> {
  for (const write of [
    () => store.usage.add([{ keyId: 1, day: '2026-11-25', group: 'colors', requests: 1, units: 1 }], 'batch-1'),
    () => store.keys.create(key('second')),
    () => store.gifs.remove(1)
  ]) {
    await assert.rejects(write(), (err: unknown) => {
      assert.ok(err instanceof DatabaseFileGoneError)
      // Answered 503 STORE_UNAVAILABLE with Retry-After by the one error handler.
      assert.ok(isStoreUnavailable(err))
      assert.equal(err.retryAfterSeconds, DATABASE_GONE_RETRY_AFTER_S)
      const answer = toAppError(err)
      assert.equal(answer.status, 503)
      assert.equal(answer.code, 'STORE_UNAVAILABLE')
      assert.equal(answer.headers?.['retry-after'], String(DATABASE_GONE_RETRY_AFTER_S))
      return true
    })
  }
}

describe('the open SQLite file', () => {
  for (const [what, change, expected] of [
    ['deleted', (file: string) => fs.rmSync(file), /was deleted while the server had it open/],
    ['replaced by another file', (file: string) => { fs.copyFileSync(file, `${file}.copy`); fs.renameSync(`${file}.copy`, file) }, /was replaced while the server had it open/],
    ['overwritten in place', (file: string) => { const fd = fs.openSync(file, 'r+'); fs.writeSync(fd, Buffer.from('not SQLite at all'), 0, 16, 0); fs.closeSync(fd) }, /was overwritten with something that is not SQLite/]
  ] as const) {
    it(`${what}: the state is down with the problem, reads answer, writes are refused with 503`, async () => {
      const dir = dataDir()
      const file = path.join(dir, SQLITE_FILE)
      const problems: unknown[] = []
      const store = openSqliteStore(dir, { keyCacheTtlMs: 0, onDatabaseProblem: (state) => problems.push(state) })
      try {
        await store.keys.create(key('first'))
        const before = store.database!()
        assert.deepEqual(before, { state: 'ok', path: file, device: fs.statSync(file).dev, inode: fs.statSync(file).ino })
        change(file)
        const state = store.database!()
        assert.equal(state.state, 'down')
        assert.equal(state.inode, before.inode)
        assert.match(state.problem ?? '', expected)
        assert.equal(store.database!().state, 'down', 'stays down')
        assert.equal(problems.length, 1, 'reported once')
        assert.equal((await store.keys.list()).length, 1, 'reads answer from the open file')
        await refusesWrites(store)
      } finally {
        await store.close()
      }
    })
  }
})

describe('opening', () => {
  it('refuses a DATA_DIR with an earlier install and no database, creating nothing; ALLOW_EMPTY_DATABASE starts empty and sets the old journal aside', async () => {
    const dir = dataDir()
    const first = openSqliteStore(dir)
    await first.keys.create(key('first'))
    await first.close()
    fs.mkdirSync(path.join(dir, 'cache'))
    fs.mkdirSync(path.join(dir, 'result-cache'))
    fs.rmSync(path.join(dir, SQLITE_FILE))
    fs.writeFileSync(path.join(dir, `${SQLITE_FILE}-wal`), 'a journal of the lost database')
    const before = fs.readdirSync(dir).sort()
    assert.throws(() => openSqliteStore(dir), (err: unknown) => {
      assert.ok(err instanceof DatabaseStartError)
      assert.equal(err.exitCode, EXIT_DATABASE_MISSING)
      assert.match(err.message, /is missing, but DATA_DIR holds an earlier install \(cache, result-cache, utility-media\.sqlite-wal\)/)
      return true
    })
    assert.deepEqual(fs.readdirSync(dir).sort(), before)

    const empty = openSqliteStore(dir, { allowEmptyDatabase: true })
    try {
      assert.equal(await empty.keys.count(), 0)
      assert.ok(fs.readdirSync(dir).some((n) => /^utility-media\.sqlite-wal\.before-empty-start-\d+$/.test(n)), fs.readdirSync(dir).join(', '))
    } finally {
      await empty.close()
    }
  })

  it('does not count the operator\'s fonts, banners and icons as an earlier install', async () => {
    const dir = dataDir()
    for (const d of ['fonts', 'banners', 'icons']) fs.mkdirSync(path.join(dir, d))
    const store = openSqliteStore(dir)
    await store.close()
  })

  it('refuses a file that is not SQLite, leaving it untouched', () => {
    const dir = dataDir()
    const file = path.join(dir, SQLITE_FILE)
    fs.writeFileSync(file, 'x'.repeat(4096))
    assert.throws(() => openSqliteStore(dir), (err: unknown) => err instanceof DatabaseStartError && err.exitCode === EXIT_DATABASE_UNREADABLE && err.message.includes(file))
    assert.equal(fs.readFileSync(file, 'utf8'), 'x'.repeat(4096))
    assert.deepEqual(fs.readdirSync(dir), [SQLITE_FILE])
  })
})
