// The service's own description (GET /), liveness, readiness, and the specification's
// deliberate test error.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { ServiceInfo } from '../config.js'
import { AppError } from '../errors.js'
import { Envelope, ok } from '../http/envelope.js'
import type { Store } from '../store/interface.js'

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

export interface SystemOptions {
  store: Store
  /** Absolute base of the URLs handed out (PUBLIC_URL). */
  publicUrl: string
  info: ServiceInfo
}

export const systemRoutes: FastifyPluginAsyncTypebox<SystemOptions> = async (app, { store, publicUrl, info }) => {
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

  app.get('/readyz', {
    config: { public: true, rateLimit: false, errors: ['SERVICE_UNAVAILABLE'] },
    schema: {
      tags: ['system'],
      summary: 'Readiness: the store answers',
      response: { 200: Type.Object({ status: Type.Literal('ready'), store: Type.String() }) }
    }
  }, async (request) => {
    try {
      await store.ping()
    } catch (err) {
      request.log.error({ err }, 'store does not answer')
      throw new AppError('SERVICE_UNAVAILABLE', 'The service is not ready: its store does not answer')
    }
    return { status: 'ready' as const, store: store.kind }
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
