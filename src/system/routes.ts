// The service's own description (GET /), liveness, readiness, and the specification's
// deliberate test error.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { ServiceInfo } from '../config.js'
import { AppError } from '../errors.js'
import { Envelope, ok } from '../http/envelope.js'
import type { DatabaseState, Store } from '../store/interface.js'

export const TEST_ERROR_MIN_STATUS = 400
export const TEST_ERROR_MAX_STATUS = 599

const infoField = (description: string) => Type.String({ description: `${description}; "" when the operator set none` })

export const InfoSchema = Envelope({
  website: infoField('The operator\'s website (INFO_WEBSITE)'),
  discord: infoField('Invitation to the operator\'s Discord server (INFO_DISCORD)'),
  docs: Type.String({ description: 'The interactive API reference', format: 'uri' }),
  twitter: infoField('The operator\'s Twitter/X page (INFO_TWITTER)'),
  reddit: infoField('The operator\'s Reddit page (INFO_REDDIT)'),
  email: infoField('Contact address (INFO_EMAIL)'),
  donate: infoField('Where to support the operator (INFO_DONATE)')
})

const DependencySchema = (description: string) => Type.Object({
  state: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')], { description: 'degraded: the counters count in this instance alone while Redis does not answer (still ready)' }),
  kind: Type.Optional(Type.String({ description: 'Which backend (memory, redis)' })),
  path: Type.Optional(Type.String({ description: 'The SQLite database file' })),
  device: Type.Optional(Type.Number({ description: 'Device of the database file the server has open' })),
  inode: Type.Optional(Type.Number({ description: 'Inode of the database file the server has open' })),
  problem: Type.Optional(Type.String({ description: 'What is wrong, when down' }))
}, { description })

export const ReadinessSchema = Envelope({
  status: Type.Literal('ready'),
  store: Type.String({ description: 'The store backend: sqlite or postgres' }),
  database: DependencySchema('The database: with SQLite, the file at its path is still the one the server opened'),
  counters: DependencySchema('The rate-limit counters')
})

const STORE_SILENT = 'the store does not answer'

async function databaseReadiness (store: Store): Promise<DependencyState> {
  try {
    await store.ping()
  } catch {
    return { state: 'down', problem: STORE_SILENT }
  }
  return store.database?.() ?? { state: 'ok' }
}

/** A dependency's state as readiness reports it. */
export type DependencyState = Omit<DatabaseState, 'state'> & { state: 'ok' | 'degraded' | 'down', kind?: string }

/**
 * The rate-limit counters' state: the counter store's own state() where it has one
 * (src/access/counter-store.ts: 'ok', or 'degraded' while Redis does not answer and this
 * instance counts alone, which still serves: ready); one without (this process's memory)
 * is ok while the process runs.
 */
async function countersReadiness (counters: ReadinessCounters | undefined): Promise<DependencyState> {
  if (counters === undefined) return { state: 'ok' }
  if (typeof counters.state !== 'function') return { kind: counters.kind, state: 'ok' }
  let said: unknown
  try {
    said = await counters.state()
  } catch (err) {
    return { kind: counters.kind, state: 'down', problem: `the rate-limit counters do not answer (${(err as Error).message})` }
  }
  if (said === 'ok' || said === 'degraded') return { kind: counters.kind, state: said }
  if (typeof said === 'object' && said !== null) return { kind: counters.kind, ...(said as DependencyState) }
  return { kind: counters.kind, state: 'down', problem: `the rate-limit counters report ${String(said)}` }
}

/** The counter store as readiness sees it: its kind, and its own state() when it has one. */
export interface ReadinessCounters {
  readonly kind: string
  state?: () => unknown
}

export interface SystemOptions {
  store: Store
  /** The rate-limit counters (src/access/counter-store.ts), for readiness. */
  counters?: ReadinessCounters
  /** Absolute base of the URLs handed out (PUBLIC_URL). */
  publicUrl: string
  info: ServiceInfo
}

export const systemRoutes: FastifyPluginAsyncTypebox<SystemOptions> = async (app, { store, counters, publicUrl, info }) => {
  // One TypeScript client's getAPIInfo reads these fields (docs/compatibility.md, "GET /").
  // Public: it says only what the operator publishes anyway, and a browser opening the
  // server's address (no key to send) finds the docs from here. The clients' key is ignored.
  const about = ok({ ...info, docs: `${publicUrl}/docs` })
  app.get('/', {
    config: { public: true },
    schema: {
      tags: ['system'],
      summary: 'About this service: its docs and the operator\'s addresses (no key needed)',
      response: { 200: InfoSchema }
    }
  }, async () => about)

  app.get('/healthz', {
    config: { public: true, rateLimit: false },
    schema: {
      tags: ['system'],
      summary: 'Liveness: the process answers',
      response: { 200: Type.Object({ status: Type.Literal('ok') }) }
    }
  }, async () => ({ status: 'ok' as const }))

  // Readiness: each dependency's state; 503 naming the problem when one is down. Public and
  // never rate-limited (probes call it every few seconds from one address).
  app.get('/readyz', {
    config: { public: true, rateLimit: false, errors: ['SERVICE_UNAVAILABLE'] },
    schema: {
      tags: ['system'],
      summary: 'Readiness: the store answers and the database file is the one opened',
      description: 'Answers 503 (SERVICE_UNAVAILABLE, with the same fields) when a dependency is down: ' +
        'the store does not answer, or the SQLite file was deleted or replaced while the server had it open.',
      response: { 200: ReadinessSchema }
    }
  }, async (request) => {
    const database = await databaseReadiness(store)
    const counterState = await countersReadiness(counters)
    const fields = { store: store.kind, database, counters: counterState }
    const down = [database, counterState].find((d) => d.state === 'down')
    if (down !== undefined) {
      // The SQLite watch logs its problem once itself; a store that does not answer is
      // logged at each probe, as before.
      if (database.problem === STORE_SILENT) request.log.error({ database }, 'store does not answer')
      throw new AppError('SERVICE_UNAVAILABLE', `The service is not ready: ${down.problem ?? 'a dependency is down'}`, { details: { status: 'not ready', ...fields } })
    }
    return ok({ status: 'ready' as const, ...fields })
  })

  app.get('/gen/html', {
    config: { errors: ['TEST_ERROR'] },
    schema: {
      tags: ['system'],
      summary: 'Test error: always fails with the error envelope',
      description: 'The specification\'s deliberate test error, so client authors can exercise their error handling. ' +
        `Answers 500 by default; \`code\` (${TEST_ERROR_MIN_STATUS} to ${TEST_ERROR_MAX_STATUS}) chooses the status.`,
      querystring: Type.Object({
        code: Type.Optional(Type.Integer({ minimum: TEST_ERROR_MIN_STATUS, maximum: TEST_ERROR_MAX_STATUS, description: 'The status to answer with' }))
      })
    }
  }, async (request) => {
    const status = request.query.code ?? 500
    throw new AppError('TEST_ERROR', undefined, { status })
  })
}
