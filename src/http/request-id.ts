// A request id on every answer (X-Request-Id). An incoming id is echoed when it is
// safe to log and to send back; anything else gets a fresh UUID.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

export const REQUEST_ID_HEADER = 'x-request-id'
const VALID_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/

export function genRequestId (req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER]
  if (typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming)) return incoming
  return randomUUID()
}
