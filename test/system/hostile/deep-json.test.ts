// The hostile suite, deep JSON and slow JSON bodies (issue 35, item 4), over real sockets
// to the built server: a 4 KB body nesting 2,000 arrays answered 500 on /gen/* and the
// report route (the walk of src/http/body.ts overflowed its stack), and the 503 of a JSON
// body still arriving at REQUEST_TIMEOUT_MS was logged as a server error with a stack.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { until } from '../../support/processes.js'
import { assertHealthy, HOSTILE_KEY, type HostileServer, startHostileServer, startProbe } from './harness.js'
import { assertErrorEnvelope } from '../../support/envelope.js'
import { requestBytes, sendRaw } from '../../support/raw-http.js'

const OPEN = { keepOpen: true }

const nestedArrays = (levels: number, inner = '1'): string => '['.repeat(levels) + inner + ']'.repeat(levels)
const nestedObjects = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)

interface LogLine { level: number, reqId?: string, msg?: string, code?: string, err?: unknown }

function logLines (server: HostileServer): LogLine[] {
  return server.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogLine)
}

describe('hostile: deep and slow JSON bodies', () => {
  let server: HostileServer

  before(async () => {
    server = await startHostileServer({ LOG_LEVEL: 'debug', REQUEST_TIMEOUT_MS: '1500' })
  })
  after(async () => { await server?.stop() })

  const post = async (path: string, body: string): Promise<ReturnType<typeof sendRaw>> =>
    await sendRaw(server.port, [requestBytes({ method: 'POST', target: path, headers: { authorization: HOSTILE_KEY, 'content-type': 'application/json' }, body })], OPEN)

  it('answers JSON nested 2,000 deep (a 4 KB body) with 400 JSON_TOO_DEEP naming the limit, on /gen/*, the report route and the text conversions', async () => {
    const probe = startProbe(server)
    const bodies = [
      ['/gen/welcome', `{"username":"x","avatar":${nestedArrays(2000)}}`],
      ['/gen/welcome', nestedObjects(2000)],
      ['/gen/custom', `{"base":{"width":10,"height":10},"images":${nestedArrays(2000)}}`],
      ['/gen/goodbye', nestedArrays(2000)],
      ['/sfw/gif/1/report', `{"reason":${nestedArrays(2000)}}`],
      ['/convert/markdown-html', `{"markdown":${nestedArrays(2000)}}`]
    ] as const
    for (const [path, body] of bodies) {
      const answer = await post(path, body)
      assertErrorEnvelope(answer, 400, 'JSON_TOO_DEEP')
      assert.match(String(answer.json!.message), /more than 64 levels deep/, path)
      assert.match(String(answer.json!.message), /send only the fields the endpoint documents/, path)
      assert.equal(answer.json!.limit, 64, path)
    }
    await assertHealthy(server, await probe.stop())
    assert.deepEqual(logLines(server).filter((l) => l.level >= 50), [], 'nothing logged as an error')
  })

  it('reads a body nested exactly 64 deep: the limit is where the message says', async () => {
    // The report's reason must be a string: the 64-level array gets as far as validation.
    const at = await post('/sfw/gif/1/report', `{"reason":${nestedArrays(63)}}`)
    assertErrorEnvelope(at, 400, 'VALIDATION')
    const over = await post('/sfw/gif/1/report', `{"reason":${nestedArrays(64)}}`)
    assertErrorEnvelope(over, 400, 'JSON_TOO_DEEP')
  })

  it('logs the 503 of a JSON body still arriving at REQUEST_TIMEOUT_MS at debug, not as a server error', async () => {
    const body = JSON.stringify({ username: 'slow', members: 'Member #1' })
    const head = requestBytes({ method: 'POST', target: '/gen/welcome', headers: { authorization: HOSTILE_KEY, 'content-type': 'application/json', 'content-length': String(body.length) } })
    // A byte every 200 ms: the body would take 7 s, past the 1.5 s deadline.
    const chunks: Array<string | Buffer | number> = [head]
    for (const byte of body) chunks.push(byte, 200)
    const answer = await sendRaw(server.port, chunks, { ...OPEN, timeoutMs: 10_000 })
    assertErrorEnvelope(answer, 503, 'TIMEOUT')
    const requestId = String(answer.json!.requestId)
    await until(() => logLines(server).some((l) => l.reqId === requestId && l.msg === 'request'))
    const lines = logLines(server).filter((l) => l.reqId === requestId)
    const failure = lines.filter((l) => l.code === 'TIMEOUT')
    assert.equal(failure.length, 1, JSON.stringify(lines))
    assert.equal(failure[0]!.level, 20, 'at debug')
    assert.equal(failure[0]!.err, undefined, 'no stack')
    assert.deepEqual(lines.filter((l) => l.level >= 40), [], 'nothing at warn or above for this request')
    assert.equal((await sendRaw(server.port, [requestBytes({ method: 'GET', target: '/healthz', headers: {} })], OPEN)).status, 200)
  })
})
