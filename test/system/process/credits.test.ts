// Prepaid credits, expiry and roll on the built server over real sockets, with keys made
// and changed by the built CLI (another process on the same database, as an operator
// does): docs/keys.md and docs/billing.md.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { lastLine, runBuiltCli } from '../../support/cli.js'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, startServerProcess, until } from '../../support/processes.js'

/** The server reads a key changed elsewhere within these (KEY_CACHE_TTL_MS, USAGE_FLUSH_MS). */
const KEY_CACHE_TTL_MS = 200
const USAGE_FLUSH_MS = 200
const OPERATOR = 'um_credits-process-test-operator-01'

describe('credits, expiry and roll in the built server', () => {
  const dataDir = tempDir('uma-credits-')
  let server: ServerProcess
  const cli = (...args: string[]) => {
    const r = runBuiltCli(dataDir, args, { GIF_STARTER_CATALOG: 'false' })
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`)
    return r
  }

  before(async () => {
    server = await startServerProcess({
      DATA_DIR: dataDir,
      API_KEYS: OPERATOR,
      GIF_STARTER_CATALOG: 'false',
      KEY_CACHE_TTL_MS: String(KEY_CACHE_TTL_MS),
      USAGE_FLUSH_MS: String(USAGE_FLUSH_MS),
      // Every picture is drawn: none is served from the result cache for 1 unit.
      RESULT_CACHE_MAX_BYTES: '0'
    })
  })
  after(async () => {
    await server?.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  const picture = (key: string, name: string) => request(`${server.url}/gen/welcome?username=${encodeURIComponent(name)}`, { headers: { authorization: key } })
  const me = async (key: string) => JSON.parse((await request(`${server.url}/me`, { headers: { authorization: key } })).body.toString())
  const error = (res: { body: Buffer }) => JSON.parse(res.body.toString()).error as string

  it('serves two pictures of 10 credits, refuses the third with nothing drawn, and serves again once 10 are added', async () => {
    const key = lastLine(cli('keys', 'create', '--name', 'buyer', '--credits', '10').out)
    const first = await picture(key, 'First Buyer')
    assert.equal(first.status, 200)
    assert.equal(first.headers['content-type'], 'image/png')
    assert.equal(first.headers['x-credits-remaining'], '5')
    const second = await picture(key, 'Second Buyer')
    assert.equal(second.status, 200)
    assert.equal(second.headers['x-credits-remaining'], '0')
    const third = await picture(key, 'Third Buyer')
    assert.equal(third.status, 402)
    assert.equal(third.headers['content-type'], 'application/json; charset=utf-8')
    assert.equal(error(third), 'CREDITS_EXHAUSTED')
    assert.equal(third.headers['x-credits-remaining'], '0')
    // Nothing drawn for the refusal: the key was billed the two pictures only (a refusal,
    // like a 429, is not counted as a request either).
    const before = await me(key)
    assert.equal(before.credits.remaining, 0)
    assert.deepEqual(before.usage.today.generation, { requests: 2, units: 10 })

    const added = cli('keys', 'update', 'buyer', '--add-credits', '10')
    assert.match(added.out, /credits 10/)
    // The server reads the key again within its refresh (USAGE_FLUSH_MS, KEY_CACHE_TTL_MS).
    await until(async () => (await me(key)).credits?.remaining === 10, 10_000, 'the added credits seen by the server')
    const again = await picture(key, 'Fourth Buyer')
    assert.equal(again.status, 200)
    assert.equal(again.headers['x-credits-remaining'], '5')
  })

  it('refuses a key after its expiry with its own code and message', async () => {
    const expiresAt = new Date(Date.now() + 2000).toISOString()
    const key = lastLine(cli('keys', 'create', '--name', 'short-lived', '--expires', expiresAt).out)
    // Before: served, and /me says when it ends (unless this loaded machine took the 2 s to make the key).
    if (Date.now() < Date.parse(expiresAt) - 500) {
      assert.equal((await request(`${server.url}/color/random`, { headers: { authorization: key } })).status, 200)
      assert.equal((await me(key)).expiresAt, expiresAt)
    }
    await until(() => Date.now() > Date.parse(expiresAt), 5000, 'the expiry')
    const refused = await request(`${server.url}/color/random`, { headers: { authorization: key } })
    assert.equal(refused.status, 401)
    const body = JSON.parse(refused.body.toString())
    assert.equal(body.error, 'AUTH_KEY_EXPIRED')
    assert.match(body.message, new RegExp(`expired at ${expiresAt.replace(/[.]/g, '\\.')}`))
  })

  it('keeps a rolled key\'s old secret working within the grace and refuses it after', async () => {
    const oldKey = lastLine(cli('keys', 'create', '--name', 'roller', '--credits', '100').out)
    assert.equal((await request(`${server.url}/color/random`, { headers: { authorization: oldKey } })).status, 200)
    const rolledAt = Date.now()
    const rolled = cli('keys', 'roll', 'roller', '--grace', '8')
    const newKey = lastLine(rolled.out)
    const until8 = /until (\S+)\./.exec(rolled.out)![1]!
    // The new secret is the same key: its credits and usage carry on.
    const withNew = await request(`${server.url}/color/random`, { headers: { authorization: newKey } })
    assert.equal(withNew.status, 200)
    assert.equal(withNew.headers['x-credits-remaining'], '98')
    if (Date.now() < Date.parse(until8) - 500) {
      const withOld = await request(`${server.url}/color/random`, { headers: { authorization: oldKey } })
      assert.equal(withOld.status, 200, `old key at ${Date.now() - rolledAt} ms into an 8 s grace`)
    }
    await until(() => Date.now() > Date.parse(until8), 15_000, 'the end of the grace')
    const refused = await request(`${server.url}/color/random`, { headers: { authorization: oldKey } })
    assert.equal(refused.status, 401)
    assert.equal(error(refused), 'AUTH_KEY_ROLLED')
    assert.equal((await request(`${server.url}/color/random`, { headers: { authorization: newKey } })).status, 200)
  })
})
