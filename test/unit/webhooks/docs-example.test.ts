// The verification example of docs/webhooks.md, run as written: it accepts what the sender
// signs and refuses a changed body, another secret and an old timestamp.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { after, describe, it } from 'node:test'
import { signature, secretKey } from '../../../src/webhooks/signature.js'
import { tempDirs } from '../../support/helpers.js'

const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`
const dirs = tempDirs()
after(() => dirs.removeAll())

type Verify = (headers: Record<string, string>, rawBody: string) => { id: string, event: unknown }

async function docsExample (): Promise<Verify> {
  const page = fs.readFileSync('docs/webhooks.md', 'utf8')
  const code = /<!-- verify-example:[^>]*-->\n```js\n([\s\S]*?)```/.exec(page)?.[1]
  assert.ok(code !== undefined, 'docs/webhooks.md has its verification example')
  assert.ok(code.split('\n').filter((l) => l.trim() !== '').length <= 20, 'the example stays short')
  const file = path.join(dirs.make('uma-docs-example-'), 'verify.mjs')
  fs.writeFileSync(file, code)
  process.env.WEBHOOK_SECRET = SECRET
  return ((await import(pathToFileURL(file).href)) as { verifyWebhook: Verify }).verifyWebhook
}

function signed (body: string, secret = SECRET, at = Math.floor(Date.now() / 1000)): Record<string, string> {
  const id = 'msg_0123456789abcdef0123456789abcdef'
  return { 'webhook-id': id, 'webhook-timestamp': String(at), 'webhook-signature': signature(secretKey(secret), id, at, body) }
}

describe('the verification example of docs/webhooks.md', () => {
  it('accepts what the sender signs, and nothing else', async () => {
    const verify = await docsExample()
    const body = JSON.stringify({ type: 'key.expired', timestamp: new Date().toISOString(), data: { key: { id: '1', name: 'a', owner: null }, expired_at: new Date().toISOString() } })
    assert.deepEqual(verify(signed(body), body), { id: 'msg_0123456789abcdef0123456789abcdef', event: JSON.parse(body) })
    // Several signatures (a secret being rotated): one that matches is enough.
    const headers = signed(body)
    assert.deepEqual(verify({ ...headers, 'webhook-signature': `v1,bm90IGl0 ${headers['webhook-signature']!}` }, body).id, headers['webhook-id'])
    assert.throws(() => verify(signed(body), body.replace('"a"', '"b"')), /bad webhook signature/)
    assert.throws(() => verify(signed(body, `whsec_${Buffer.alloc(32, 1).toString('base64')}`), body), /bad webhook signature/)
    assert.throws(() => verify(signed(body, SECRET, Math.floor(Date.now() / 1000) - 3600), body), /stale or incomplete/)
    assert.throws(() => verify({ ...signed(body), 'webhook-id': '' }, body), /stale or incomplete/)
  })
})
