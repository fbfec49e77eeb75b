// The error envelope every failure answers (docs/compatibility.md, "Errors"), asserted
// in one place: an in-process answer (`app.inject`), one read off a socket
// (raw-http.ts) or one from `request()` (processes.ts) all pass through it.
import assert from 'node:assert/strict'

/** What the assertion reads of an answer, whichever way it came. */
type Answer =
  | { statusCode: number, headers: Record<string, unknown>, body: string } // app.inject
  | { status: number, headers: Record<string, unknown>, body: string | Buffer, json?: unknown, noAnswer?: boolean } // a socket, request()

export interface EnvelopeExpectations {
  /** The message matches it. */
  message?: RegExp
  /** The envelope names this field. */
  field?: string
}

/**
 * Asserts that `answer` is the JSON error envelope with `status` (and the catalogue code
 * `error` when given): `success` false, `code` equal to the status, an actionable
 * message, and the request id of the X-Request-Id header when there is one. Returns the
 * parsed envelope for further checks.
 */
export function assertErrorEnvelope (answer: Answer, status: number, error?: string, expect: EnvelopeExpectations = {}): any {
  assert.ok(!('noAnswer' in answer && answer.noAnswer === true), 'the server answered')
  const actualStatus = 'statusCode' in answer ? answer.statusCode : answer.status
  const text = Buffer.isBuffer(answer.body) ? answer.body.toString('utf8') : answer.body
  assert.equal(actualStatus, status, `status ${actualStatus}, body ${text.slice(0, 300)}`)
  assert.match(String(answer.headers['content-type']), /^application\/json/, `a JSON answer, got ${String(answer.headers['content-type'])}`)
  let body: any
  try { body = JSON.parse(text) } catch { assert.fail(`a JSON body, got ${text.slice(0, 200)}`) }
  assert.equal(body.success, false)
  assert.equal(body.code, status)
  if (error !== undefined) assert.equal(body.error, error, `error code; message: ${String(body.message)}`)
  assert.equal(typeof body.message, 'string')
  assert.ok(body.message.length > 0, 'a message')
  const requestId = answer.headers['x-request-id']
  if (requestId !== undefined) assert.equal(body.requestId, requestId, 'the envelope names the request id of X-Request-Id')
  if (expect.message !== undefined) assert.match(body.message, expect.message)
  if (expect.field !== undefined) assert.equal(body.field, expect.field)
  return body
}
