// The management API as one plugin (docs/admin-api.md): its gate, its routes and its own
// OpenAPI document. Built by src/app.ts from the services it already holds.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { KeyService } from '../access/keys.js'
import type { UsageRecorder } from '../access/usage-recorder.js'
import { ADMIN_OPENAPI_PATH } from '../http/openapi.js'
import type { CounterStore } from '../store/counters/interface.js'
import type { Store } from '../store/interface.js'
import { type AuditLog, createAuditLog } from './audit.js'
import { adminGatePlugin } from './gate.js'
import { createIdempotency, loadAnswerKey } from './idempotency.js'
import { createKeyAdmin } from './key-admin.js'
import { adminRoutes } from './routes.js'
import { createOperatorTokens, type OperatorTokens } from './tokens.js'

export interface AdminOptions {
  store: Store
  keys: KeyService
  usage: UsageRecorder
  counters: CounterStore
  /** ADMIN_TOKEN. */
  envToken: string | undefined
  /** ADMIN_ANSWER_KEY, DATA_DIR and whether instances share the store (DATABASE_URL). */
  answerKey: { configured: string | undefined, dataDir: string, scaleOut: boolean }
  ipv6Prefix: number
  now?: () => number
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The management API's parts (src/admin/): what the console's page and tests reach. */
    admin: { tokens: OperatorTokens, audit: AuditLog }
  }
}

export const adminPlugin = fp(async function admin (app: FastifyInstance, opts: AdminOptions) {
  const tokens = createOperatorTokens(opts.store.admin, opts.envToken)
  const audit = createAuditLog(opts.store.admin, opts.now)
  const idempotency = createIdempotency({ store: opts.store.admin, answerKey: loadAnswerKey(opts.answerKey), now: opts.now })
  if (opts.answerKey.configured === undefined && opts.answerKey.scaleOut) {
    app.log.warn('ADMIN_ANSWER_KEY is unset with DATABASE_URL: a retried POST /admin/v1/keys with an Idempotency-Key gets its key without the secret (docs/admin-api.md, "Idempotency")')
  }
  app.decorate('admin', { tokens, audit })
  await app.register(adminGatePlugin, { tokens, counters: opts.counters, ipv6Prefix: opts.ipv6Prefix, now: opts.now })
  await app.register(adminRoutes, {
    keys: createKeyAdmin(opts.keys),
    keyStore: opts.store.keys,
    usageStore: opts.store.usage,
    usage: opts.usage,
    gifs: opts.store.gifs,
    files: opts.store.gifFiles,
    audit,
    idempotency,
    now: opts.now
  })
  app.get(ADMIN_OPENAPI_PATH, { schema: { hide: true }, config: { admin: 'page', cost: 0 } }, async () => app.adminOpenApi())
}, { name: 'admin', dependencies: ['request-gate', 'openapi'] })
