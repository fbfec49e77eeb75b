// Signed links in process: the server key's rotation (every key of LINK_SIGNING_KEYS
// verifies, the first derives), links off in scale-out mode without a shared key, the
// link id migration of older keys, and the signature check itself.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { createApp } from '../../../src/app.js'
import { createLinkSigner, linkSignature, loadLinkKeys, signedMessage } from '../../../src/access/link-secrets.js'
import { createKeyService } from '../../../src/access/keys.js'
import { createMemoryCounterStore } from '../../../src/store/counters/memory.js'
import { openSqliteDatabase } from '../../../src/store/sqlite/database.js'
import { SQLITE_MIGRATIONS } from '../../../src/store/sqlite/migrations.js'
import { openSqliteStore } from '../../../src/store/sqlite/index.js'
import { testConfig } from '../../support/config.js'
import { createTestApp, json, sharedColors, tempDirs } from '../../support/helpers.js'
import { assertErrorEnvelope } from '../../support/envelope.js'

const dirs = tempDirs()
after(() => dirs.removeAll())

const OLD = 'old-server-key-0123456789abcdefghijkl'
const NEW = 'new-server-key-0123456789abcdefghijkl'
const KEY = { linkId: 'AAAAAAAAAAAAAAAA', linkSeed: 'seed' }

describe('the link signer', () => {
  it('verifies a signature made with the secret of any server key, and derives secrets with the first', () => {
    const before = createLinkSigner([OLD])
    const during = createLinkSigner([NEW, OLD])
    const afterwards = createLinkSigner([NEW])
    const message = signedMessage(KEY.linkId, 0, '/gen/welcome?username=Ana')
    const oldSig = linkSignature(before.secret(KEY), message)
    const newSig = linkSignature(during.secret(KEY), message)
    assert.match(before.secret(KEY), /^ls_[A-Za-z0-9_-]{43}$/)
    assert.equal(oldSig.length, 43)
    assert.notEqual(during.secret(KEY), before.secret(KEY))
    assert.equal(during.secret(KEY), afterwards.secret(KEY))
    assert.ok(during.verify(KEY, message, oldSig))
    assert.ok(during.verify(KEY, message, newSig))
    assert.ok(!afterwards.verify(KEY, message, oldSig))
    assert.ok(!before.verify(KEY, `${message}&x=1`, oldSig))
    assert.ok(!before.verify({ ...KEY, linkSeed: 'rolled' }, message, oldSig))
    assert.ok(!before.verify(KEY, message, oldSig.slice(0, 42)))
    assert.ok(!before.verify(KEY, message, `${oldSig.slice(0, 42)}é`))
  })

  it('makes one server key per install in DATA_DIR (mode 0600) and keeps it; with DATABASE_URL and no LINK_SIGNING_KEYS, none', () => {
    const dataDir = dirs.make()
    const first = loadLinkKeys({ configured: [], dataDir, scaleOut: false })
    const again = loadLinkKeys({ configured: [], dataDir, scaleOut: false })
    assert.equal(first.state, 'ready')
    assert.deepEqual(again, first)
    assert.equal(fs.statSync(path.join(dataDir, 'link-signing-key')).mode & 0o777, 0o600)
    assert.deepEqual(loadLinkKeys({ configured: [NEW, OLD], dataDir, scaleOut: true }), { state: 'ready', keys: [NEW, OLD], source: 'LINK_SIGNING_KEYS' })
    const off = loadLinkKeys({ configured: [], dataDir: dirs.make(), scaleOut: true })
    assert.equal(off.state, 'off')
    assert.match((off as { reason: string }).reason, /LINK_SIGNING_KEYS/)
  })
})

describe('links in scale-out mode without LINK_SIGNING_KEYS', () => {
  it('answer 503 LINKS_NOT_CONFIGURED naming the setting, and /me says links: null', async () => {
    const t = await createTestApp({ config: { databaseUrl: 'postgres://127.0.0.1:9/none' } })
    try {
      const me = json(await t.app.inject({ method: 'GET', url: '/me', headers: t.auth }))
      assert.equal(me.links, null)
      for (const req of [
        { method: 'POST' as const, url: '/links', payload: { path: '/gen/welcome' }, headers: t.auth },
        { method: 'POST' as const, url: '/me/links/roll', headers: t.auth },
        { method: 'GET' as const, url: `/l/AAAAAAAAAAAAAAAA/0/${'A'.repeat(43)}/gen/welcome` }
      ]) {
        const body = assertErrorEnvelope(await t.app.inject(req), 503, 'LINKS_NOT_CONFIGURED')
        assert.match(body.message, /LINK_SIGNING_KEYS/)
      }
    } finally {
      await t.close()
    }
  })
})

describe('link ids of keys made before migration 7', () => {
  it('are given when the store opens, one per key, distinct, with a seed', async () => {
    const dataDir = dirs.make()
    const db = openSqliteDatabase(dataDir, SQLITE_MIGRATIONS.filter((m) => m.version < 7))
    const insert = db.prepare("INSERT INTO api_keys (name, prefix, hash, status, source, created_at, updated_at) VALUES (?, 'um_x', ?, 'active', 'cli', 0, 0)")
    insert.run('a', 'a'.repeat(64))
    insert.run('b', 'b'.repeat(64))
    db.close()
    const store = openSqliteStore(dataDir)
    try {
      const keys = await store.keys.list()
      assert.equal(keys.length, 2)
      for (const k of keys) {
        assert.match(k.linkId, /^[A-Za-z0-9_-]{16}$/)
        assert.ok(k.linkSeed.length >= 16)
        assert.equal((await store.keys.findByLinkId(k.linkId))?.name, k.name)
      }
      assert.notEqual(keys[0]!.linkId, keys[1]!.linkId)
      // A key made now gets its own at once.
      const made = await createKeyService(store.keys).create('c')
      assert.match(made.record.linkId, /^[A-Za-z0-9_-]{16}$/)
    } finally {
      await store.close()
    }
  })
})

describe('rotating LINK_SIGNING_KEYS', () => {
  it('keeps links of the old key working while it is listed second, and ends them once it is dropped', async () => {
    const dataDir = dirs.make()
    const store = openSqliteStore(dataDir)
    const { key } = await createKeyService(store.keys).create('rotor')
    const appWith = async (keys: string[]) => await createApp({ config: testConfig(dataDir, { linkSigningKeys: keys }), store, counters: createMemoryCounterStore(), logger: false, colors: sharedColors() })
    const linkOf = async (app: Awaited<ReturnType<typeof appWith>>, target: string): Promise<string> => {
      const { links } = json(await app.inject({ method: 'GET', url: '/me', headers: { authorization: key } }))
      return `/l/${links.id}/0/${linkSignature(links.secret, signedMessage(links.id, 0, target))}${target}`
    }
    const target = '/gen/welcome?username=Rot'
    try {
      let app = await appWith([OLD])
      const oldLink = await linkOf(app, target)
      assert.equal((await app.inject({ method: 'GET', url: oldLink })).statusCode, 200)
      await app.close()

      app = await appWith([NEW, OLD])
      const newLink = await linkOf(app, target)
      assert.notEqual(newLink, oldLink)
      assert.equal((await app.inject({ method: 'GET', url: oldLink })).statusCode, 200)
      assert.equal((await app.inject({ method: 'GET', url: newLink })).statusCode, 200)
      await app.close()

      app = await appWith([NEW])
      assertErrorEnvelope(await app.inject({ method: 'GET', url: oldLink }), 403, 'LINK_INVALID')
      assert.equal((await app.inject({ method: 'GET', url: newLink })).statusCode, 200)
      await app.close()
    } finally {
      await store.close()
    }
  })
})
