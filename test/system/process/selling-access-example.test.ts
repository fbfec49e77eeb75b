// The Stripe storefront of docs/selling-access.md, extracted from the page and run as it
// is (node, as a process) against the built server: a checkout.session.completed event
// signed as Stripe signs it (the official `stripe` package's test signer, not our
// reading of the scheme) sent twice makes one key; the thank-you page shows its secret
// once and the key draws a picture; a wrong or stale signature makes nothing;
// customer.subscription.deleted revokes the key.
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import Stripe from 'stripe'
import { tempDir } from '../../support/helpers.js'
import { freePort, request, type ServerProcess, startServerProcess, until } from '../../support/processes.js'
import { lastLine, runBuiltCli } from '../../support/cli.js'

const PAGE = path.join('docs', 'selling-access.md')
const MARKER = '<!-- test/system/process/selling-access-example.test.ts runs this block as it is -->'
const WEBHOOK_SECRET = 'whsec_test_selling_access_0123456789abcdef'
const SESSION = 'cs_test_a1B2c3D4e5F6g7H8i9J0'
const CUSTOMER = 'cus_TestBuyer42'
const SUBSCRIPTION = 'sub_TestPlan42'
/** What the example gives a buyer: a monthly plan of 50,000 units. */
const PLAN = { remaining: 50_000, refill: { amount: 50_000, period: 'month' } }

const stripe = new Stripe('sk_test_never_used_offline')
let server: ServerProcess
let shop: ChildProcess
let shopUrl: string
let shopOutput = ''
let dataDir: string
let workDir: string
let token: string

/** The first ```js block after the marker, as the page shows it. */
function exampleFromPage (): string {
  const text = fs.readFileSync(PAGE, 'utf8')
  const at = text.indexOf(MARKER)
  assert.ok(at >= 0, `${PAGE} has the marker before its example`)
  const block = /^```js\n([\s\S]*?)^```$/m.exec(text.slice(at))
  assert.ok(block, 'a ```js block follows the marker')
  return block[1]!
}

async function admin (pathAndQuery: string): Promise<any> {
  const res = await request(`${server.url}/admin/v1${pathAndQuery}`, { headers: { authorization: `Bearer ${token}` } })
  assert.equal(res.status, 200, res.body.toString())
  return JSON.parse(res.body.toString())
}

/** POSTs an event to the shop's /stripe, signed by Stripe's own test signer. */
async function sendEvent (event: object, options: { secret?: string, timestamp?: number } = {}): Promise<{ status: number, body: string }> {
  const payload = JSON.stringify(event, null, 2)
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, timestamp: options.timestamp })
  const res = await request(`${shopUrl}/stripe`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload })
  return { status: res.status, body: res.body.toString() }
}

function checkoutCompleted (session: string, customer: string) {
  return {
    id: `evt_${session}`,
    object: 'event',
    type: 'checkout.session.completed',
    data: { object: { id: session, object: 'checkout.session', customer, subscription: SUBSCRIPTION, mode: 'subscription', payment_status: 'paid' } }
  }
}

async function keysOf (customer: string): Promise<any[]> {
  return (await admin(`/keys?owner=${encodeURIComponent(customer)}`)).keys
}

before(async () => {
  dataDir = tempDir('uma-selling-')
  workDir = tempDir('uma-shop-')
  server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', GIF_STARTER_CATALOG: 'false', KEY_CACHE_TTL_MS: '200' })
  const made = runBuiltCli(dataDir, ['admin', 'tokens', 'create', '--name', 'stripe', '--scope', 'keys'])
  assert.equal(made.code, 0, made.err)
  token = lastLine(made.out)
  assert.match(token, /^umo_/)

  const file = path.join(workDir, 'stripe-shop.mjs')
  fs.writeFileSync(file, exampleFromPage())
  const port = await freePort()
  shopUrl = `http://127.0.0.1:${port}`
  shop = spawn(process.execPath, [file], {
    cwd: workDir,
    env: { PATH: process.env.PATH ?? '', MEDIA_API_URL: server.url, MEDIA_API_TOKEN: token, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  shop.stdout!.on('data', (d) => { shopOutput += d })
  shop.stderr!.on('data', (d) => { shopOutput += d })
  await until(async () => await request(`${shopUrl}/thanks`).then(() => true, () => false), 20_000, `the example shop to listen (${shopOutput})`)
})

after(async () => {
  shop?.kill()
  await server?.stop()
  for (const dir of [dataDir, workDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

describe('docs/selling-access.md: the Stripe storefront, run as the page shows it', () => {
  it('is about 30 lines of code', () => {
    const lines = exampleFromPage().split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('//'))
    assert.ok(lines.length <= 55, `${lines.length} lines of code`)
  })

  it('makes one key for a checkout, however often Stripe sends the event, and the buyer sees its secret once', async () => {
    assert.match((await request(`${shopUrl}/thanks?session_id=${SESSION}`)).body.toString(), /on its way/)
    const event = checkoutCompleted(SESSION, CUSTOMER)
    const first = await sendEvent(event)
    assert.deepEqual(first, { status: 200, body: 'ok\n' }, shopOutput)
    const again = await sendEvent(event)
    assert.deepEqual(again, { status: 200, body: 'ok\n' }, shopOutput)

    const keys = await keysOf(CUSTOMER)
    assert.equal(keys.length, 1, JSON.stringify(keys))
    const key = keys[0]
    assert.equal(key.name, `stripe-${SESSION}`)
    assert.equal(key.status, 'active')
    assert.deepEqual(key.meta, { subscription: SUBSCRIPTION })
    assert.deepEqual(key.credits, PLAN)

    const thanks = (await request(`${shopUrl}/thanks?session_id=${SESSION}`)).body.toString()
    const secret = /Your API key, shown once: (\S+)\n/.exec(thanks)?.[1]
    assert.ok(secret !== undefined, thanks)
    assert.match((await request(`${shopUrl}/thanks?session_id=${SESSION}`)).body.toString(), /on its way/, 'shown once')

    const picture = await request(`${server.url}/gen/welcome`, { method: 'POST', headers: { authorization: secret, 'content-type': 'application/json' }, body: '{"username":"Buyer"}' })
    assert.equal(picture.status, 200, picture.body.toString().slice(0, 300))
    assert.match(String(picture.headers['content-type']), /^image\//)
    // The picture is paid from the plan's credits.
    assert.equal((await admin(`/keys/${key.id}`)).credits.remaining, PLAN.remaining - 5)

    // Both deliveries are in the audit log under the token's name; one creation.
    const { entries } = await admin('/audit')
    const creations = entries.filter((e: any) => e.actor === 'token:stripe' && e.target === `key:${key.id}` && /create/.test(e.action))
    assert.equal(creations.length, 1, JSON.stringify(entries))
  })

  it('makes nothing for an event signed with another secret, or signed too long ago', async () => {
    const forged = await sendEvent(checkoutCompleted('cs_test_forged', 'cus_Forger'), { secret: 'whsec_not_the_endpoints_secret' })
    assert.equal(forged.status, 400)
    const stale = await sendEvent(checkoutCompleted('cs_test_stale', 'cus_Forger'), { timestamp: Math.floor(Date.now() / 1000) - 600 })
    assert.equal(stale.status, 400)
    const unsigned = await request(`${shopUrl}/stripe`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(checkoutCompleted('cs_test_unsigned', 'cus_Forger')) })
    assert.equal(unsigned.status, 400)
    assert.deepEqual(await keysOf('cus_Forger'), [])
  })

  it('revokes the subscription\'s key when Stripe says it was cancelled, and leaves the customer\'s other keys', async () => {
    const other = await request(`${server.url}/admin/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'other-plan', owner: CUSTOMER, meta: { subscription: 'sub_Other' } })
    })
    assert.equal(other.status, 201, other.body.toString())
    const [subscriptionKey] = (await keysOf(CUSTOMER)).filter((k) => k.meta?.subscription === SUBSCRIPTION)
    const cancelled = await sendEvent({ id: 'evt_cancel', object: 'event', type: 'customer.subscription.deleted', data: { object: { id: SUBSCRIPTION, object: 'subscription', customer: CUSTOMER, status: 'canceled' } } })
    assert.deepEqual(cancelled, { status: 200, body: 'ok\n' }, shopOutput)
    const after = await keysOf(CUSTOMER)
    assert.equal(after.find((k) => k.id === subscriptionKey.id).status, 'revoked')
    assert.equal(after.find((k) => k.name === 'other-plan').status, 'active')
  })
})
