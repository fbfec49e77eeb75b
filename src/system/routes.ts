// Liveness, readiness, and the specification's deliberate test error.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AppError } from '../errors.js'
import type { Store } from '../store/interface.js'

export const TEST_ERROR_MIN_STATUS = 400
export const TEST_ERROR_MAX_STATUS = 599

export const systemRoutes: FastifyPluginAsyncTypebox<{ store: Store }> = async (app, { store }) => {
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
