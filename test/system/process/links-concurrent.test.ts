// Issue 38: a new link posted in a busy channel is fetched by many clients at once. 30
// concurrent first fetches of one offline-signed link (signed here with the secret of
// GET /me, as docs/links.md shows: a minted link would already be drawn at mint time),
// over real sockets with no header, against the built server: 30 × 200 with identical
// bytes, drawn once (one X-Cache: miss, 29 hits, and /metrics agrees), and the key is
// charged the drawing once plus 1 unit per hit (docs/result-cache.md#what-it-costs).
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { tempDir } from '../../support/helpers.js'
import { freePort, request, type ServerProcess, startServerProcess } from '../../support/processes.js'
import { lastLine, runBuiltCli } from '../../support/cli.js'

const OPERATOR = 'links-concurrent-operator-0123456789'
let server: ServerProcess
let dataDir: string
let metricsUrl: string
let bot: { key: string, links: { id: string, secret: string } }

async function me (key: string): Promise<any> {
  const res = await request(`${server.url}/me`, { headers: { authorization: key } })
  assert.equal(res.status, 200, res.body.toString())
  return JSON.parse(res.body.toString())
}

/** A Prometheus counter without labels, read from /metrics. */
async function metric (name: string): Promise<number> {
  const text = (await request(`${metricsUrl}/metrics`)).body.toString()
  const line = text.split('\n').find((l) => l.startsWith(`${name} `))
  assert.ok(line !== undefined, `${name} in /metrics`)
  return Number(line.split(' ')[1])
}

/** The scheme of docs/links.md, written here independently of the server's code. */
function sign (links: { id: string, secret: string }, target: string, expires = 0): string {
  const sig = createHmac('sha256', links.secret).update(`${links.id}/${expires}${target}`).digest('base64url')
  return `${server.url}/l/${links.id}/${expires}/${sig}${target}`
}

before(async () => {
  dataDir = tempDir('uma-links-concurrent-')
  const made = runBuiltCli(dataDir, ['keys', 'create', '--name', 'bot', '--rate', '1000/1m'], { GIF_STARTER_CATALOG: 'false' })
  assert.equal(made.code, 0, made.err)
  const metricsPort = await freePort()
  metricsUrl = `http://127.0.0.1:${metricsPort}`
  server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: OPERATOR, GIF_STARTER_CATALOG: 'false', LOG_LEVEL: 'warn', METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' })
  const key = lastLine(made.out)
  bot = { key, links: (await me(key)).links }
})
after(async () => {
  await server?.stop()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('one new link fetched 30 times at once', () => {
  it('answers 30 × 200 with identical bytes, drawn once, and charges the drawing once plus 1 unit per hit', async () => {
    const before = (await me(bot.key)).usage.today.generation ?? { requests: 0, units: 0 }
    assert.equal(await metric('result_cache_misses_total'), 0, 'nothing drawn before the fetches')
    const link = sign(bot.links, '/gen/welcome?username=Thirty%20at%20Once&members=Member%20%2330')

    const answers = await Promise.all(Array.from({ length: 30 }, async () => await request(link)))
    assert.deepEqual(answers.map((a) => a.status), Array(30).fill(200), answers.map((a) => a.body.toString().slice(0, 200)).join('\n'))
    const original = answers[0]!.body
    assert.equal(original.subarray(1, 4).toString(), 'PNG')
    for (const a of answers) {
      assert.equal(a.headers['content-type'], 'image/png')
      assert.ok(a.body.equals(original), 'every answer has the same bytes')
    }
    const outcomes = answers.map((a) => String(a.headers['x-cache']))
    assert.deepEqual([outcomes.filter((o) => o === 'miss').length, outcomes.filter((o) => o === 'hit').length], [1, 29], outcomes.join(' '))
    assert.equal(await metric('result_cache_misses_total'), 1, 'one drawing')
    assert.equal(await metric('result_cache_hits_total'), 29)

    // The keyed request of the same picture is a hit with the same bytes: the link drew it.
    const keyed = await request(`${server.url}/gen/welcome?username=Thirty%20at%20Once&members=Member%20%2330`, { headers: { authorization: bot.key } })
    assert.deepEqual([keyed.status, keyed.headers['x-cache']], [200, 'hit'])
    assert.ok(keyed.body.equals(original))

    const after = (await me(bot.key)).usage.today.generation
    assert.deepEqual({ requests: after.requests - before.requests, units: after.units - before.units }, { requests: 31, units: 5 + 29 + 1 })
  })
})
