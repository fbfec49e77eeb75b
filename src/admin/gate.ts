// The management API's gate, after the request gate (which asks routes declaring `admin`
// for no API key): while no operator token exists every such route answers 404 like an
// unknown path; then an operator token (never an API key), the route's scope, and a limit
// on failed attempts per client address kept in the shared counters (Redis with several
// instances), so guessing is as slow on ten instances as on one.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { AppError } from '../errors.js'
import { clientBucket } from '../http/client-address.js'
import { notFound } from '../http/error-handler.js'
import type { CounterStore } from '../store/counters/interface.js'
import { KEY_PREFIX } from '../access/keys.js'
import { type Operator, type OperatorTokens, tokenFromHeader } from './tokens.js'

/** Failed attempts one address may make per window before it is refused (429). */
export const FAILED_ATTEMPTS_MAX = 10
export const FAILED_ATTEMPTS_WINDOW_MS = 15 * 60_000
/**
 * How long whether tokens exist is remembered: the 404 of an install without any costs
 * no store call per request, and a token made by the CLI is seen within this.
 */
export const TOKENS_EXIST_TTL_MS = 2_000
/** A token's last use is written at most this often. */
const TOUCH_EVERY_MS = 60_000

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator a management API request came from (src/admin/gate.ts); null elsewhere. */
    operator: Operator | null
  }
}

export interface AdminGateOptions {
  tokens: OperatorTokens
  counters: CounterStore
  ipv6Prefix: number
  now?: () => number
}

export const adminGatePlugin = fp(async function adminGate (app: FastifyInstance, opts: AdminGateOptions) {
  const now = opts.now ?? Date.now
  app.decorateRequest('operator', null)
  let known: { exist: boolean, until: number } | undefined
  const touched = new Map<number, number>()

  async function tokensExist (at: number): Promise<boolean> {
    if (known !== undefined && at < known.until) return known.exist
    const exist = await opts.tokens.exist()
    known = { exist, until: at + TOKENS_EXIST_TTL_MS }
    return exist
  }

  async function refuse (request: FastifyRequest, bucket: string, at: number, error: AppError): Promise<never> {
    await opts.counters.hit(`admin-fail:${bucket}`, 1, FAILED_ATTEMPTS_WINDOW_MS, at)
    request.log.warn({ address: request.ip, error: error.code }, 'management API: refused an operator token')
    throw error
  }

  app.addHook('onRequest', async function admitOperator (request) {
    const access = request.policy?.admin
    if (access === undefined) return
    const at = now()
    if (!(await tokensExist(at))) throw notFound(request)
    if (access === 'page') return
    const bucket = clientBucket(request.ip, opts.ipv6Prefix)
    const failed = await opts.counters.hit(`admin-fail:${bucket}`, 0, FAILED_ATTEMPTS_WINDOW_MS, at)
    if (failed.count >= FAILED_ATTEMPTS_MAX) {
      const retry = Math.max(1, Math.ceil((failed.resetAt - at) / 1000))
      throw new AppError('ADMIN_AUTH_LIMITED', `Too many failed attempts with operator tokens from this address (${FAILED_ATTEMPTS_MAX} per ${FAILED_ATTEMPTS_WINDOW_MS / 60_000} minutes): retry in ${retry} s`, { headers: { 'retry-after': String(retry) } })
    }
    const header = request.headers.authorization
    if (header === undefined || header.trim() === '') return await refuse(request, bucket, at, new AppError('ADMIN_AUTH_MISSING'))
    const presented = tokenFromHeader(header)
    const operator = await opts.tokens.identify(presented)
    if (operator === undefined) {
      const message = presented.startsWith(KEY_PREFIX) ? 'This is an API key: the management API takes operator tokens (umo_...), never API keys; make one with "npm run cli -- admin tokens create --name NAME --scope keys"' : undefined
      return await refuse(request, bucket, at, new AppError('ADMIN_AUTH_INVALID', message))
    }
    if (access !== 'token' && !operator.scopes.includes(access)) {
      throw new AppError('ADMIN_SCOPE', `The operator token "${operator.name}" lacks the scope "${access}" (it has ${operator.scopes.join(', ') || 'none'}): make a token with it (admin tokens create --scope ${access})`)
    }
    request.operator = operator
    if (operator.tokenId !== undefined && at - (touched.get(operator.tokenId) ?? 0) >= TOUCH_EVERY_MS) {
      touched.set(operator.tokenId, at)
      // The last use is a hint for `admin tokens list`: its failure never fails the request.
      await opts.tokens.touch(operator.tokenId, new Date(at)).catch((err: unknown) => request.log.warn({ err }, 'could not record an operator token\'s last use'))
    }
  })
}, { name: 'admin-gate', dependencies: ['request-gate'] })
