// WEBHOOK_*: off by default, the URL refused without its secret, the secret read in the
// Standard Webhooks form only, and messages that never repeat a secret.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ConfigError, loadConfig, WEBHOOK_EVENT_TYPES } from '../../../src/config.js'

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`

function refusal (env: Record<string, string>): ConfigError {
  try {
    loadConfig(env)
  } catch (err) {
    if (err instanceof ConfigError) return err
    throw err
  }
  assert.fail(`accepted ${JSON.stringify(env)}`)
}

describe('webhook settings', () => {
  it('are off by default, every event type when on', () => {
    const off = loadConfig({})
    assert.equal(off.webhookUrl, undefined)
    assert.equal(off.webhookSecret, undefined)
    const on = loadConfig({ WEBHOOK_URL: 'https://shop.example.com/hooks', WEBHOOK_SECRET: SECRET })
    assert.equal(on.webhookUrl, 'https://shop.example.com/hooks')
    assert.equal(on.webhookSecret, SECRET)
    assert.deepEqual(on.webhookEvents, [...WEBHOOK_EVENT_TYPES])
    assert.equal(on.webhookTimeoutMs, 10_000)
    assert.equal(on.webhookRetryForMs, 86_400_000)
  })

  it('refuse a URL without its secret, naming WEBHOOK_SECRET and how to make one', () => {
    const err = refusal({ WEBHOOK_URL: 'https://shop.example.com/hooks' })
    assert.equal(err.variable, 'WEBHOOK_SECRET')
    assert.match(err.message, /must be set when WEBHOOK_URL is.*openssl rand -base64 32/)
  })

  it('read the secret with or without whsec_, as base64 of 24 to 64 bytes, and never quote it', () => {
    const bare = Buffer.alloc(24, 1).toString('base64')
    assert.equal(loadConfig({ WEBHOOK_SECRET: bare }).webhookSecret, `whsec_${bare}`)
    for (const [secret, why] of [
      ['whsec_c2hvcnQgc2VjcmV0', /got 12 bytes/],
      [`whsec_${Buffer.alloc(65).toString('base64')}`, /got 65 bytes/],
      ['a secret that is long enough but no base64 at all', /got text that is not base64/]
    ] as const) {
      const err = refusal({ WEBHOOK_SECRET: secret })
      assert.equal(err.variable, 'WEBHOOK_SECRET')
      assert.match(err.message, why)
      assert.ok(!err.message.includes(secret), 'the message does not repeat the secret')
    }
  })

  it('read WEBHOOK_EVENTS as a list of known types', () => {
    assert.deepEqual(loadConfig({ WEBHOOK_EVENTS: 'key.expired, quota.exhausted' }).webhookEvents, ['key.expired', 'quota.exhausted'])
    assert.match(refusal({ WEBHOOK_EVENTS: 'key.created' }).message, /WEBHOOK_EVENTS must be a comma-separated list of quota.exhausted, credits.low, key.expired, got "key.created"/)
  })

  it('bound the deadline and the retry window', () => {
    assert.equal(loadConfig({ WEBHOOK_RETRY_FOR: '6h', WEBHOOK_TIMEOUT_MS: '2500' }).webhookRetryForMs, 21_600_000)
    assert.equal(refusal({ WEBHOOK_RETRY_FOR: '8 days' }).variable, 'WEBHOOK_RETRY_FOR')
    assert.equal(refusal({ WEBHOOK_TIMEOUT_MS: '60001' }).variable, 'WEBHOOK_TIMEOUT_MS')
  })
})
