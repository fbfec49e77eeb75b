// Webhooks from the built server to a real HTTP receiver in this test (docs/webhooks.md):
// a key whose quota is used up sends quota.exhausted, signed per Standard Webhooks
// (checked with the standardwebhooks package); a receiver answering 500 then 200 gets it
// again under the same webhook-id; a receiver that hangs holds no request up; what is
// still queued at SIGTERM is spilled and sent by the next start; a WEBHOOK_URL without
// its secret stops the start.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { Webhook } from 'standardwebhooks'
import { lastLine, runBuiltCli } from '../../support/cli.js'
import { assertErrorEnvelope } from '../../support/envelope.js'
import { tempDirs } from '../../support/helpers.js'
import { freePort, request, type ServerProcess, startServerProcess, until } from '../../support/processes.js'

const SECRET = `whsec_${Buffer.from('process-test-secret-of-32-bytes!').toString('base64')}`
const dirs = tempDirs()
after(() => dirs.removeAll())

interface Received { headers: Record<string, string>, body: string }

/** A storefront's receiver: records each POST, answers with the next of `answers` (the last one again when they run out); 'hang' never answers. */
async function receiver (answers: Array<number | 'hang'>): Promise<{ url: string, got: Received[], answers: Array<number | 'hang'>, close: () => void }> {
  const got: Received[] = []
  const state = { answers }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      got.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') })
      const answer = state.answers[Math.min(got.length - 1, state.answers.length - 1)]!
      if (answer !== 'hang') res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer === 200 ? 'ok' : 'try again')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/usage`,
    got,
    get answers () { return state.answers },
    set answers (a) { state.answers = a },
    close () {
      server.closeAllConnections()
      server.close()
    }
  }
}

/** A key whose quota is 2 units a day, made with the built CLI beside the running server. */
function keyWithQuota (dataDir: string): string {
  const made = runBuiltCli(dataDir, ['keys', 'create', '--name', 'shop', '--quota', '2/day'])
  assert.equal(made.code, 0, made.err)
  return lastLine(made.out).trim()
}

async function useUpQuota (s: ServerProcess, key: string): Promise<void> {
  for (const expected of [200, 200, 429, 429]) {
    const res = await request(`${s.url}/color/random`, { headers: { authorization: key } })
    if (expected === 429) assertErrorEnvelope(res, 429, 'QUOTA_EXCEEDED')
    else assert.equal(res.status, expected, res.body.toString())
  }
}

function webhookLines (output: string): Array<Record<string, unknown>> {
  return output.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => typeof l.webhookId === 'string' || /webhook/.test(String(l.msg)))
}

describe('webhooks from the built server', () => {
  it('sends quota.exhausted once, signed; a 500 is retried under the same webhook-id', async () => {
    const hooks = await receiver([500, 200])
    const dataDir = dirs.make('uma-webhooks-')
    const metricsPort = await freePort()
    const s = await startServerProcess({ DATA_DIR: dataDir, GIF_STARTER_CATALOG: 'false', WEBHOOK_URL: hooks.url, WEBHOOK_SECRET: SECRET, METRICS_PORT: String(metricsPort) })
    try {
      const key = keyWithQuota(dataDir)
      await useUpQuota(s, key)
      // The first retry comes 2.5 to 5 s after the 500.
      await until(() => hooks.got.length >= 2, 20_000, 'the retry after the 500')
      const [first, second] = hooks.got as [Received, Received]
      assert.equal(first.headers['webhook-id'], second.headers['webhook-id'])
      assert.match(first.headers['webhook-id']!, /^msg_[0-9a-f]{32}$/)
      assert.equal(first.body, second.body, 'the same body')
      assert.equal(first.headers['content-type'], 'application/json')
      for (const r of [first, second]) {
        const payload = new Webhook(SECRET).verify(r.body, r.headers) as { type: string, timestamp: string, data: Record<string, unknown> }
        assert.equal(payload.type, 'quota.exhausted')
        const today = new Date().toISOString().slice(0, 10)
        assert.deepEqual({ ...payload.data, key: { ...(payload.data.key as object), id: 'id' } }, {
          key: { id: 'id', name: 'shop', owner: null },
          period: 'day',
          period_start: today,
          quota: 2,
          resets_at: new Date(Date.parse(today) + 86_400_000).toISOString()
        })
        assert.match((payload.data.key as { id: string }).id, /^\d+$/)
      }
      assert.ok(Number(second.headers['webhook-timestamp']) >= Number(first.headers['webhook-timestamp']) + 2, 'each attempt signed at its own time')

      await until(() => webhookLines(s.output()).some((l) => l.msg === 'webhook delivered'), 5000, 'the delivery logged')
      const lines = webhookLines(s.output())
      assert.deepEqual(lines.map((l) => [l.msg, l.status]), [['webhook not delivered: retried later', 500], ['webhook delivered', 200]])
      const metrics = (await request(`http://127.0.0.1:${metricsPort}/metrics`)).body.toString()
      assert.match(metrics, /^webhook_deliveries_total\{type="quota.exhausted"\} 1$/m)
      assert.match(metrics, /^webhook_retries_total\{type="quota.exhausted",reason="status_5xx"\} 1$/m)
      assert.match(metrics, /^webhook_queue_length 0$/m)
      // The refused requests that followed sent nothing more: one event per key and period.
      const more = await request(`${s.url}/color/random`, { headers: { authorization: key } })
      assert.equal(more.status, 429)
      assert.equal(await s.stop(), 0, s.output())
      assert.equal(hooks.got.length, 2)
      assert.ok(!fs.existsSync(path.join(dataDir, 'webhooks-pending')) || fs.readdirSync(path.join(dataDir, 'webhooks-pending')).every((f) => !f.startsWith('webhook-')), 'nothing left to send')
    } finally {
      if (s.child.exitCode === null) s.child.kill('SIGKILL')
      hooks.close()
    }
  })

  it('answers requests at once while the receiver hangs; SIGTERM spills the delivery and the next start sends it', async () => {
    const hooks = await receiver(['hang'])
    const dataDir = dirs.make('uma-webhooks-')
    const env = { DATA_DIR: dataDir, GIF_STARTER_CATALOG: 'false', WEBHOOK_URL: hooks.url, WEBHOOK_SECRET: SECRET, WEBHOOK_TIMEOUT_MS: '60000' }
    const s = await startServerProcess(env)
    let again: ServerProcess | undefined
    try {
      const key = keyWithQuota(dataDir)
      await useUpQuota(s, key)
      await until(() => hooks.got.length === 1, 10_000, 'the POST the receiver holds')
      // The receiver holds the POST: requests are answered as before.
      for (let i = 0; i < 5; i++) {
        const started = performance.now()
        const res = await request(`${s.url}/color/random`, { headers: { authorization: key } })
        const took = performance.now() - started
        assert.equal(res.status, 429)
        assert.ok(took < 1000, `answered in ${Math.round(took)} ms`)
      }
      const healthStarted = performance.now()
      assert.equal((await request(`${s.url}/healthz`)).status, 200)
      assert.ok(performance.now() - healthStarted < 1000)

      // SIGTERM ends the held POST at once (not after WEBHOOK_TIMEOUT_MS) and spills it.
      const stopping = performance.now()
      assert.equal(await s.stop(), 0, s.output())
      assert.ok(performance.now() - stopping < 10_000, 'stopped without waiting for the receiver')
      const pending = fs.readdirSync(path.join(dataDir, 'webhooks-pending')).filter((f) => f.startsWith('webhook-'))
      assert.equal(pending.length, 1, s.output())
      assert.ok(webhookLines(s.output()).some((l) => /spilled to DATA_DIR\/webhooks-pending/.test(String(l.msg))))

      // Started again, with a receiver that answers: the same delivery, the same id.
      hooks.answers = [204]
      again = await startServerProcess(env)
      await until(() => hooks.got.length === 2, 15_000, 'the spilled delivery')
      const [held, sent] = hooks.got as [Received, Received]
      assert.equal(sent.headers['webhook-id'], held.headers['webhook-id'])
      assert.equal(sent.body, held.body)
      assert.equal((new Webhook(SECRET).verify(sent.body, sent.headers) as { type: string }).type, 'quota.exhausted')
      await until(() => fs.readdirSync(path.join(dataDir, 'webhooks-pending')).every((f) => !f.startsWith('webhook-')), 5000, 'the spill file removed')
      assert.equal(await again.stop(), 0, again.output())
    } finally {
      if (s.child.exitCode === null) s.child.kill('SIGKILL')
      if (again !== undefined && again.child.exitCode === null) again.child.kill('SIGKILL')
      hooks.close()
    }
  })

  it('refuses to start with WEBHOOK_URL but no WEBHOOK_SECRET (exit 78, one line naming it)', () => {
    const r = spawnSync(process.execPath, ['dist/server.js'], {
      env: { ...process.env, DATA_DIR: path.join(dirs.make('uma-webhooks-'), 'unused'), PORT: '0', HOST: '127.0.0.1', WEBHOOK_URL: 'http://127.0.0.1:9/hooks', WEBHOOK_SECRET: '' },
      encoding: 'utf8',
      timeout: 30_000
    })
    assert.equal(r.status, 78, r.stderr)
    assert.match(r.stderr, /^Invalid configuration: WEBHOOK_SECRET must be set when WEBHOOK_URL is: .*\n$/)
  })
})
