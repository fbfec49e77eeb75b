// Raw UTF-8 in a URL, as curl sends `?name=é` (the bytes C3 A9, not %C3%A9), over a socket
// to the built server: Node's HTTP parser refuses such a request line, and the server reads
// it percent-encoded instead (src/http/request-target.ts). What it cannot read is refused
// with a message naming the real problem. Issue 26, item 3.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { request, type ServerProcess, startServerProcess } from '../../support/processes.js'
import { assertErrorEnvelope } from '../../support/envelope.js'
import { exchange } from '../../support/raw-http.js'

const KEY = 'raw-utf8-url-key-0123456789'
// Short, so that a test can outlast it: a connection taken from Node's parser must not be
// timed out as the request that parser refused.
const HEADERS_TIMEOUT_MS = 1000

/** A request line and headers, the target given as bytes (latin1: one char per byte). */
function rawRequest (target: string, headers: Record<string, string> = {}): Buffer {
  const lines = [`GET ${target} HTTP/1.1`, 'Host: localhost', `Authorization: ${KEY}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)]
  return Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1')
}

/** The bytes of UTF-8 text, as a latin1 string for rawRequest. */
const bytes = (text: string): string => Buffer.from(text, 'utf8').toString('latin1')

describe('raw UTF-8 bytes in a URL, over a socket to the built server', () => {
  let server: ServerProcess
  let dataDir: string
  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-raw-url-'))
    server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn', HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) })
  })
  after(async () => {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('reads a query of raw UTF-8 as the same query percent-encoded', async () => {
    const { answers } = await exchange(server.port, [rawRequest(`/color/info?name=${bytes('À+l’Orange')}`)], { answers: 1, keepOpen: true })
    const [answer] = answers
    assert.equal(answer!.status, 200, JSON.stringify(answer!.json))
    assert.match(answer!.headers['content-type'] ?? '', /^application\/json/)
    // The answer went the whole way: the key's rate limit was counted.
    assert.ok(answer!.headers['x-ratelimit-remaining'])
    assert.deepEqual([answer!.json.success, answer!.json.code, answer!.json.message, answer!.json.name, answer!.json.hex], [true, 200, '', 'À l’Orange', '#f2850d'])
  })

  it('reads raw UTF-8 in the path too', async () => {
    const { answers } = await exchange(server.port, [rawRequest(`/sfw/gif/${bytes('é')}`)], { answers: 1, keepOpen: true })
    assertErrorEnvelope(answers[0]!, 400, 'GIF_UNKNOWN_TYPE')
    assert.match(String(answers[0]!.json.message), /"é"/)
  })

  it('keeps the connection: raw requests one after another, pipelined, and plain ones', async () => {
    const name = (text: string): Buffer => rawRequest(`/color/info?name=${bytes(text)}`)
    const { answers, closed } = await exchange(server.port, [
      name('À+l’Orange'), { answers: 1 },
      // Past the header timeout: the connection was taken from a parser whose request
      // never completed, and must not be timed out as that request.
      HEADERS_TIMEOUT_MS + 300,
      name('dark+slate+gräy'), { answers: 2 },
      // Pipelined: a raw request line behind one still being answered waits for it.
      Buffer.concat([name('À+l’Orange'), name('Âbi+Blue'), rawRequest('/color/info?hex=00ff00'), name('Âbi+Blue')]), { answers: 6 },
      rawRequest('/color/info?hex=ff0000')
    ], { answers: 7, keepOpen: true })
    // "gräy": names ignore accents, but only once the ä is read as one.
    assert.deepEqual(answers.map((a) => [a.status, a.json.name]), [[200, 'À l’Orange'], [200, 'Dark Slate Gray'], [200, 'À l’Orange'], [200, 'Âbi Blue'], [200, 'Lime'], [200, 'Âbi Blue'], [200, 'Red']])
    assert.equal(closed, false)
  })

  it('reads a raw request pipelined behind a plain one on a new connection', async () => {
    const { answers } = await exchange(server.port, [Buffer.concat([rawRequest('/color/info?hex=00ff00'), rawRequest(`/color/info?name=${bytes('Âbi+Blue')}`)])], { answers: 2, keepOpen: true })
    assert.deepEqual(answers.map((a) => [a.status, a.json.name]), [[200, 'Lime'], [200, 'Âbi Blue']])
  })

  it('reads a raw request line that arrives in two reads, split inside a character', async () => {
    const line = rawRequest(`/color/info?name=${bytes('À+l’Orange')}`)
    const cut = line.indexOf(0x80) // the second byte of À
    const { answers } = await exchange(server.port, [line.subarray(0, cut), 200, line.subarray(cut)], { answers: 1, keepOpen: true })
    assert.deepEqual([answers[0]!.status, answers[0]!.json.name], [200, 'À l’Orange'])
  })

  it('refuses bytes that are not UTF-8 with 400 MALFORMED_URL naming the byte, whole or split', async () => {
    for (const steps of [[rawRequest('/color/info?name=a\xffb')], [Buffer.from('GET /color/info?name=a\xc3', 'latin1'), 200, rawRequest('(b').subarray(4)]]) {
      // Two awaited: the answer, then the connection closing.
      const { answers, closed } = await exchange(server.port, steps, { answers: 2, keepOpen: true })
      assertErrorEnvelope(answers[0]!, 400, 'MALFORMED_URL')
      assert.match(String(answers[0]!.json.message), /^The request URL is not UTF-8 text: byte 19 of it, 0x(FF|C3), does not start or continue a UTF-8 character/)
      assert.doesNotMatch(String(answers[0]!.json.message), /two hex digits/)
      assert.equal(answers[0]!.headers.connection, 'close')
      assert.equal(closed, true)
    }
  })

  it('names the real problem of other URLs it refuses, echoing none of them', async () => {
    const cases: Array<[string, RegExp]> = [
      ['/color/%zz-secret', /^The request path has a "%" not followed by two hex digits \(byte 8 of the path\)/],
      ['/color/%FF-secret', /^The request path has percent-escapes whose bytes are not UTF-8 text/],
      ['/color/info?name=\x01secret', /^The request URL has a control character \(0x01\) in its query, at byte 18 of the URL/]
    ]
    for (const [target, message] of cases) {
      const { answers } = await exchange(server.port, [rawRequest(target)], { answers: 1, keepOpen: true })
      assertErrorEnvelope(answers[0]!, 400, 'MALFORMED_URL')
      assert.match(String(answers[0]!.json.message), message)
      assert.doesNotMatch(String(answers[0]!.json.message), /secret/)
    }
  })

  it('stays healthy and logs no error', async () => {
    assert.equal((await request(`${server.url}/healthz`)).status, 200)
    assert.doesNotMatch(server.output(), /"level":(50|60)/)
  })
})
