// The management API against the built server over real sockets, as a storefront meets
// it: 404 throughout until the operator makes a token with the built CLI (another
// process: the server sees it within TOKENS_EXIST_TTL_MS), then operator tokens and
// scopes, an Idempotency-Key that makes one key, a roll with its grace, the CSV export of
// a known mix of requests, the audit log of every change and the failed-attempt limit.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, it } from 'node:test'
import { FAILED_ATTEMPTS_MAX } from '../../../src/admin/gate.js'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, startServerProcess, until } from '../../support/processes.js'
import { lastLine, runBuiltCli } from '../../support/cli.js'

let dataDir: string
let server: ServerProcess
let token = ''

before(async () => {
  dataDir = tempDir('uma-admin-proc-')
  server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' })
})
after(async () => {
  await server?.stop()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

async function call (path: string, options: { method?: string, body?: unknown, auth?: string, headers?: Record<string, string> } = {}): Promise<{ status: number, headers: Record<string, unknown>, text: string, body: any }> {
  const res = await request(`${server.url}${path}`, {
    method: options.method,
    headers: { ...(options.auth === undefined ? {} : { authorization: options.auth }), ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body)
  })
  const text = res.body.toString('utf8')
  let body: unknown
  try { body = JSON.parse(text) } catch { body = undefined }
  return { status: res.status, headers: res.headers, text, body }
}
const admin = async (path: string, options: { method?: string, body?: unknown, headers?: Record<string, string> } = {}) => await call(path, { ...options, auth: `Bearer ${token}` })

it('answers 404 on every /admin path while no operator token exists', async () => {
  for (const path of ['/admin/v1/keys', '/admin/v1/whoami', '/admin/openapi.json', '/admin/v1/audit']) {
    const res = await call(path, { auth: 'Bearer umo_guess' })
    assert.equal(res.status, 404, path)
    assert.equal(res.body.error, 'NOT_FOUND')
  }
  const created = runBuiltCli(dataDir, ['admin', 'tokens', 'list'])
  assert.equal(created.code, 0, created.err)
  assert.match(created.out, /No operator tokens/)
})

it('takes the token the CLI makes (shown once, stored hashed), and no API key', async () => {
  const made = runBuiltCli(dataDir, ['admin', 'tokens', 'create', '--name', 'shop', '--scope', 'keys,usage'])
  assert.equal(made.code, 0, made.err)
  token = lastLine(made.out)
  assert.match(token, /^umo_[A-Za-z0-9_-]{32}$/)
  assert.equal(fs.readFileSync(`${dataDir}/utility-media.sqlite`).includes(token), false, 'only its hash is stored')
  await until(async () => (await admin('/admin/v1/whoami')).status === 200, 5_000, 'the server sees the new token')
  assert.deepEqual((await admin('/admin/v1/whoami')).body.token, { name: 'shop', scopes: ['keys', 'usage'] })
  const listed = runBuiltCli(dataDir, ['admin', 'tokens', 'list'])
  assert.match(listed.out, /shop\s+umo_\S+\s+keys,usage\s+active/)

  const key = (await admin('/admin/v1/keys', { method: 'POST', body: { name: 'plain' } })).body.key
  const withKey = await call('/admin/v1/keys', { auth: `Bearer ${key}` })
  assert.equal(withKey.status, 401)
  assert.equal(withKey.body.error, 'ADMIN_AUTH_INVALID')
  const gifsOnly = lastLine(runBuiltCli(dataDir, ['admin', 'tokens', 'create', '--name', 'moderator', '--scope', 'gifs']).out)
  await until(async () => (await call('/admin/v1/whoami', { auth: `Bearer ${gifsOnly}` })).status === 200, 5_000, 'the second token')
  const scoped = await call('/admin/v1/keys', { auth: `Bearer ${gifsOnly}` })
  assert.equal(scoped.status, 403)
  assert.equal(scoped.body.error, 'ADMIN_SCOPE')
  const doc = await call('/admin/openapi.json')
  assert.equal(doc.status, 200)
  assert.ok(doc.body.paths['/admin/v1/keys'])
  assert.deepEqual(Object.keys((await call('/openapi.json')).body.paths).filter((p) => p.startsWith('/admin')), [])
})

it('makes one key for two POSTs with the same Idempotency-Key, and refuses another body with it', async () => {
  const headers = { 'idempotency-key': 'evt_1NZ2checkout' }
  const body = { owner: 'cus_9', quota: { max: 100, period: 'day' } }
  const [a, b] = await Promise.all([admin('/admin/v1/keys', { method: 'POST', body, headers }), admin('/admin/v1/keys', { method: 'POST', body, headers })])
  // Both at once: one makes the key (201); the other gets its answer (200) or, while it is
  // still being made, 409 IDEMPOTENCY_IN_PROGRESS; a retry then gets the first answer.
  const statuses = [a.status, b.status].sort((x, y) => x - y)
  assert.ok(statuses[1] === 201 && (statuses[0] === 200 || statuses[0] === 409), `statuses ${statuses}`)
  const retry = await admin('/admin/v1/keys', { method: 'POST', body, headers })
  assert.equal(retry.status, 200)
  assert.equal(retry.headers['idempotent-replayed'], 'true')
  const first = a.status === 201 ? a : b
  assert.equal(retry.body.id, first.body.id)
  assert.equal(retry.body.key, first.body.key)
  const owned = await admin('/admin/v1/keys?owner=cus_9')
  assert.equal(owned.body.keys.length, 1)
  const mismatch = await admin('/admin/v1/keys', { method: 'POST', body: { owner: 'cus_10' }, headers })
  assert.equal(mismatch.status, 409)
  assert.equal(mismatch.body.error, 'IDEMPOTENCY_MISMATCH')
})

it('serves a key made over HTTP with 10 credits two pictures, refuses the third before drawing, and serves again once PATCH adds 10', async () => {
  const made = await admin('/admin/v1/keys', { method: 'POST', body: { owner: 'cus_credits', credits: 10 } })
  assert.equal(made.status, 201, made.text)
  assert.equal(made.body.credits.remaining, 10)
  // Different pictures: the result cache would serve a repeat for 1 unit.
  const picture = (name: string) => call(`/gen/welcome?username=${encodeURIComponent(name)}`, { auth: made.body.key })
  const first = await picture('Credit One')
  assert.equal(first.status, 200)
  assert.equal(first.headers['x-credits-remaining'], '5')
  const second = await picture('Credit Two')
  assert.equal(second.status, 200)
  assert.equal(second.headers['x-credits-remaining'], '0')
  const refused = await picture('Credit Three')
  assert.equal(refused.status, 402)
  assert.equal(refused.body.error, 'CREDITS_EXHAUSTED')
  assert.equal(refused.headers['x-cache'], undefined, 'refused before any work')
  const added = await admin(`/admin/v1/keys/${made.body.id}`, { method: 'PATCH', body: { add_credits: 10 } })
  assert.equal(added.status, 200, added.text)
  assert.equal(added.body.credits.remaining, 10)
  const again = await picture('Credit Three')
  assert.equal(again.status, 200)
  assert.equal(again.headers['x-credits-remaining'], '5')
})

it('refuses a key made over HTTP with expires_at 2 s ahead once that moment has passed, with its own message', async () => {
  const made = await admin('/admin/v1/keys', { method: 'POST', body: { expires_at: new Date(Date.now() + 2_000).toISOString() } })
  assert.equal(made.status, 201, made.text)
  assert.equal((await call('/me', { auth: made.body.key })).status, 200)
  await until(async () => (await call('/me', { auth: made.body.key })).status === 401, 10_000, 'the key expires')
  const refused = await call('/me', { auth: made.body.key })
  assert.equal(refused.body.error, 'AUTH_KEY_EXPIRED')
  assert.match(refused.body.message, /expired/)
  assert.equal((await admin(`/admin/v1/keys/${made.body.id}`)).body.status, 'expired')
})

it('rolls a key: the old secret works within the grace and is refused after it', async () => {
  const made = (await admin('/admin/v1/keys', { method: 'POST', body: { name: 'rolling' } })).body
  const rolled = await admin(`/admin/v1/keys/${made.id}/roll`, { method: 'POST', body: { grace_seconds: 2 } })
  assert.equal(rolled.status, 200)
  assert.equal(rolled.body.id, made.id)
  assert.equal((await call('/me', { auth: made.key })).status, 200, 'within the grace')
  assert.equal((await call('/me', { auth: rolled.body.key })).status, 200)
  await until(async () => (await call('/me', { auth: made.key })).status === 401, 6_000, 'the old secret refused after the grace')
  assert.equal((await call('/me', { auth: rolled.body.key })).status, 200)
})

it('exports today\'s usage as CSV: per key, exactly the requests and units answered', async () => {
  const a = (await admin('/admin/v1/keys', { method: 'POST', body: { name: 'billing-a' } })).body
  const b = (await admin('/admin/v1/keys', { method: 'POST', body: { name: 'billing-b' } })).body
  // a: 3 served colours (1 unit each), 2 refused for a bad hex (a caller's 4xx: 1 unit each);
  // b: 1 served colour. /me is free and not counted.
  for (let i = 0; i < 3; i++) assert.equal((await call('/color/random', { auth: a.key })).status, 200)
  for (let i = 0; i < 2; i++) assert.equal((await call('/color/info?hex=zz', { auth: a.key })).status, 400)
  assert.equal((await call('/color/random', { auth: b.key })).status, 200)
  assert.equal((await call('/me', { auth: b.key })).status, 200)
  const today = new Date().toISOString().slice(0, 10)
  const csv = await admin(`/admin/v1/usage?from=${today}&to=${today}&format=csv`)
  assert.equal(csv.status, 200)
  assert.match(String(csv.headers['content-type']), /^text\/csv/)
  const lines = csv.text.trimEnd().split('\r\n')
  assert.equal(lines[0], 'period,key_id,key_name,endpoint_group,requests,units')
  const mine = lines.slice(1).filter((l) => l.includes(',billing-'))
  assert.deepEqual(mine, [`${today},${a.id},billing-a,colors,5,5`, `${today},${b.id},billing-b,colors,1,1`])
  const json = await admin(`/admin/v1/usage?from=${today}&to=${today}&key=${a.id}`)
  assert.deepEqual(json.body.rows, [{ period: today, key_id: a.id, key_name: 'billing-a', endpoint_group: 'colors', requests: 5, units: 5 }])
})

it('writes every change to the audit log, readable by the API and the CLI', async () => {
  const made = (await admin('/admin/v1/keys', { method: 'POST', body: { name: 'audited' } })).body
  await admin(`/admin/v1/keys/${made.id}`, { method: 'PATCH', body: { quota: { max: 10, period: 'day' } } })
  await admin(`/admin/v1/keys/${made.id}`, { method: 'DELETE' })
  const entries = (await admin('/admin/v1/audit?limit=3')).body.entries
  assert.deepEqual(entries.map((e: { action: string, target: string, actor: string }) => [e.action, e.target, e.actor]),
    [['key.revoke', `key:${made.id}`, 'token:shop'], ['key.update', `key:${made.id}`, 'token:shop'], ['key.create', `key:${made.id}`, 'token:shop']])
  assert.equal(entries[0].address, '127.0.0.1')
  const cli = runBuiltCli(dataDir, ['admin', 'audit', '--limit', '50'])
  assert.equal(cli.code, 0, cli.err)
  assert.match(cli.out, /token:shop\s+key\.revoke\s+key:\d+\s+127\.0\.0\.1/)
  assert.match(cli.out, /cli\s+token\.create\s+token:moderator/)
})

it('limits failed attempts per address: 429 with Retry-After, then even a good token waits', async () => {
  // The API key refused above counted as a failed attempt of this address already.
  let refused = 0
  for (;;) {
    const res = await call('/admin/v1/keys', { auth: `Bearer umo_wrong${refused}` })
    if (res.status === 429) break
    assert.equal(res.status, 401)
    assert.ok(++refused < FAILED_ATTEMPTS_MAX, 'refused by the limit within FAILED_ATTEMPTS_MAX attempts')
  }
  assert.ok(refused >= FAILED_ATTEMPTS_MAX - 2, `only ${refused} attempts were allowed`)
  const limited = await admin('/admin/v1/keys')
  assert.equal(limited.status, 429)
  assert.equal(limited.body.error, 'ADMIN_AUTH_LIMITED')
  assert.ok(Number(limited.headers['retry-after']) > 0)
  const revoked = runBuiltCli(dataDir, ['admin', 'tokens', 'revoke', 'moderator'])
  assert.equal(revoked.code, 0, revoked.err)
})
