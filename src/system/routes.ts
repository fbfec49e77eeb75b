// The service's own description (GET /), liveness, readiness, and the specification's
// deliberate test error.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { ServiceInfo } from '../config.js'
import { AppError } from '../errors.js'
import { Envelope, ok } from '../http/envelope.js'
import type { CounterState, CounterStore } from '../store/counters/interface.js'
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

const DatabaseStatusSchema = Type.Object({
  state: Type.Union([Type.Literal('ok'), Type.Literal('down')], { description: 'down: the store does not answer, or the SQLite file is no longer the one the server opened' })
}, { description: 'The database' })

const CountersStatusSchema = Type.Object({
  state: Type.Union([Type.Literal('ok'), Type.Literal('degraded')], { description: 'degraded: Redis does not answer and this instance counts alone (still ready)' })
}, { description: 'The rate-limit counters' })

// Public: only each dependency's state. Where the database lives (its path, device and
// inode), which backends run and what went wrong are the operator's: the metrics port's
// /readyz (readinessReport below) and the logs.
export const ReadinessSchema = Envelope({
  status: Type.Literal('ready'),
  database: DatabaseStatusSchema,
  counters: CountersStatusSchema
})

const STORE_SILENT = 'the store does not answer'

async function databaseReadiness (store: Store): Promise<DatabaseState> {
  try {
    await store.ping()
  } catch {
    return { state: 'down', problem: STORE_SILENT }
  }
  return store.database?.() ?? { state: 'ok' }
}

/** The counter store as readiness sees it. */
export type ReadinessCounters = Pick<CounterStore, 'kind' | 'state'>

/**
 * Everything readiness knows, for the operator: the store's kind, the database's state
 * (with SQLite its path, device and inode, and the problem when down), and the counters'
 * state (CounterStore.state(): ok, or degraded while Redis does not answer and this
 * instance counts alone; degraded still serves, so it stays ready). Served on the
 * metrics port (src/metrics/server.ts), never on the public one.
 */
export interface ReadinessReport {
  status: 'ready' | 'not ready'
  store: string
  database: DatabaseState
  counters: { state: CounterState, kind: string }
}

export async function readinessReport (store: Store, counters: ReadinessCounters): Promise<ReadinessReport> {
  const database = await databaseReadiness(store)
  return {
    status: database.state === 'down' ? 'not ready' : 'ready',
    store: store.kind,
    database,
    counters: { state: counters.state(), kind: counters.kind }
  }
}

export interface SystemOptions {
  store: Store
  /** The rate-limit counters (src/store/counters/interface.ts), for readiness. */
  counters: ReadinessCounters
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

  // Readiness: each dependency's state, and 503 when one is down. Public and never
  // rate-limited (probes call it every few seconds from one address); the details are the
  // operator's (readinessReport, on the metrics port).
  app.get('/readyz', {
    config: { public: true, rateLimit: false, errors: ['SERVICE_UNAVAILABLE'] },
    schema: {
      tags: ['system'],
      summary: 'Readiness: the store answers and the database file is the one opened',
      description: 'Answers 503 (SERVICE_UNAVAILABLE, with the same fields) when a dependency is down: ' +
        'the store does not answer, or the SQLite file was deleted or replaced while the server had it open. ' +
        'Only states are shown here; the operator finds the details on the metrics port\'s /readyz and in the logs.',
      response: { 200: ReadinessSchema }
    }
  }, async (request) => {
    const report = await readinessReport(store, counters)
    const fields = { database: { state: report.database.state }, counters: { state: report.counters.state } }
    if (report.status === 'not ready') {
      // The SQLite watch logs its problem once itself; a store that does not answer is
      // logged at each probe, as before.
      if (report.database.problem === STORE_SILENT) request.log.error({ database: report.database }, 'store does not answer')
      throw new AppError('SERVICE_UNAVAILABLE', 'The service is not ready: its database is down', { details: { status: 'not ready', ...fields } })
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
