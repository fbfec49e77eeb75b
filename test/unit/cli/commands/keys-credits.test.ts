// The key commands of selling access: credits, refill, expiry, owner, update and roll.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { runCli } from '../../../../src/cli/main.js'
import { hashKey } from '../../../../src/access/keys.js'
import { openSqliteStore } from '../../../../src/store/sqlite/index.js'
import { storedCredits } from '../../../../src/store/interface.js'
import { tempDir } from '../../../support/helpers.js'

let dataDir: string
// The server's first start makes the store; the CLI makes none unless asked (--create-store).
before(async () => {
  dataDir = tempDir('uma-cli-credits-')
  await openSqliteStore(dataDir).close()
})
after(() => fs.rmSync(dataDir, { recursive: true, force: true }))

async function cli (...argv: string[]): Promise<{ code: number, out: string[], err: string[] }> {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(argv, { DATA_DIR: dataDir }, { out: (s) => out.push(...s.split('\n')), err: (s) => err.push(...s.split('\n')), interactive: false })
  return { code, out, err }
}

async function stored (name: string) {
  const store = openSqliteStore(dataDir, { keyCacheTtlMs: 0 })
  try {
    return (await store.keys.findByName(name))!
  } finally {
    await store.close()
  }
}

describe('npm run cli -- keys: credits, expiry, owner, roll', () => {
  it('creates a key with credits, a refill, an expiry and an owner', async () => {
    const before = Date.now()
    const r = await cli('keys', 'create', '--name', 'shop-1', '--credits', '10', '--refill', '100/month', '--expires', '+30d', '--owner', 'cus_42')
    assert.equal(r.code, 0, r.err.join('\n'))
    assert.match(r.out[0]!, /credits 10 \(\+100\/month\), expires \d{4}-.*, owner cus_42/)
    const k = await stored('shop-1')
    assert.equal(storedCredits(k), 10)
    assert.deepEqual(k.credits!.refill, { amount: 100, period: 'month' })
    assert.equal(k.credits!.refilledPeriod, new Date().toISOString().slice(0, 7))
    assert.equal(k.owner, 'cus_42')
    const expires = k.expiresAt!.getTime() - before
    assert.ok(expires >= 30 * 86_400_000 && expires < 30 * 86_400_000 + 60_000, `expires in ${expires} ms`)
    const list = (await cli('keys', 'list')).out.join('\n')
    assert.match(list, /shop-1\s+um_\S{4}…\s+active\s+default\s+none\s+10 \(\+100\/month\)\s+\d{4}-/)
  })

  it('updates credits (set, add, none), refill, expiry and owner', async () => {
    assert.equal((await cli('keys', 'update', 'shop-1', '--add-credits', '5')).code, 0)
    assert.equal(storedCredits(await stored('shop-1')), 15)
    assert.equal((await cli('keys', 'update', 'shop-1', '--credits', '3', '--refill', 'none', '--expires', 'never', '--owner', 'none')).code, 0)
    const k = await stored('shop-1')
    assert.equal(storedCredits(k), 3)
    assert.equal(k.credits!.refill, null)
    assert.equal(k.expiresAt, null)
    assert.equal(k.owner, null)
    assert.equal((await cli('keys', 'update', 'shop-1', '--expires', '2031-02-03T04:05:06Z')).code, 0)
    assert.deepEqual((await stored('shop-1')).expiresAt, new Date('2031-02-03T04:05:06Z'))
    assert.equal((await cli('keys', 'update', 'shop-1', '--credits', 'none')).code, 0)
    assert.equal((await stored('shop-1')).credits, null)
  })

  it('rolls a key: a new secret printed once, the same key behind it, the old one kept for the grace', async () => {
    const created = await cli('keys', 'create', '--name', 'rolling', '--credits', '7')
    const oldKey = created.out.filter((l) => l !== '').at(-1)!
    const r = await cli('keys', 'roll', 'rolling', '--grace', '3600')
    assert.equal(r.code, 0, r.err.join('\n'))
    const newKey = r.out.filter((l) => l !== '').at(-1)!
    assert.match(newKey, /^um_[A-Za-z0-9_-]{32}$/)
    assert.notEqual(newKey, oldKey)
    assert.match(r.out[0]!, /keeps working until \d{4}-/)
    const k = await stored('rolling')
    assert.equal(k.hash, hashKey(newKey))
    assert.equal(k.previousHash, hashKey(oldKey))
    assert.equal(storedCredits(k), 7)
  })

  it('fails clearly on every mistake', async () => {
    for (const [args, message] of [
      [['keys', 'create', '--name', 'x1', '--credits=-3'], /--credits must be a whole number/],
      [['keys', 'create', '--name', 'x2', '--refill', '10/week'], /--refill must look like 100\/day/],
      [['keys', 'create', '--name', 'x3', '--expires', 'tomorrow'], /--expires must be an ISO 8601 date/],
      [['keys', 'create', '--name', 'x4', '--expires', '2027-01-31T12:00:00'], /with a zone/],
      [['keys', 'update', 'rolling', '--credits', '1', '--add-credits', '1'], /either --credits .* or --add-credits/],
      [['keys', 'update', 'rolling'], /needs something to change/],
      [['keys', 'roll', 'rolling', '--grace', '604801'], /--grace must be a whole number of seconds from 0 to 604800/],
      [['keys', 'roll', 'rolling', '--grace', 'soon'], /--grace must be/]
    ] as const) {
      const r = await cli(...args)
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err.join('\n')}`)
      assert.match(r.err.join('\n'), message)
    }
    const unknown = await cli('keys', 'roll', 'nobody')
    assert.equal(unknown.code, 1)
    assert.match(unknown.err.join('\n'), /No key named "nobody"/)
  })
})
