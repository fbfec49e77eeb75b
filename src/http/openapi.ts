// The OpenAPI 3.1 document, generated from the route schemas (so the docs cannot drift
// from the code), at /openapi.json, and an interactive reference at /docs. Every route's
// documented answers include the error envelope for each status it can fail with.
import type { FastifyInstance, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { ERROR_CATALOGUE, type ErrorCode } from '../errors.js'
import { ErrorEnvelopeSchema } from './envelope.js'

/** The codes every route can answer, given what it declares. */
export function routeErrorCodes (route: Pick<RouteOptions, 'config' | 'schema' | 'method'>): ErrorCode[] {
  const config = route.config ?? {}
  const schema = route.schema ?? {}
  const codes: ErrorCode[] = []
  if (config.public !== true) codes.push('AUTH_MISSING', 'AUTH_EMPTY', 'AUTH_UNKNOWN_KEY', 'AUTH_KEY_DISABLED', 'AUTH_KEY_REVOKED')
  if (schema.querystring || schema.params || schema.body || config.body) codes.push('VALIDATION')
  if (config.body === 'json' || config.body === 'json-or-text') codes.push('MALFORMED_JSON', 'INVALID_UTF8')
  if (config.body) codes.push('BODY_TOO_LARGE')
  codes.push(...(config.errors ?? []))
  codes.push('INTERNAL', 'TIMEOUT')
  return [...new Set(codes)]
}

function errorResponses (codes: ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of codes) {
    const status = ERROR_CATALOGUE[code].status
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  const responses: Record<string, unknown> = {}
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = {
      ...ErrorEnvelopeSchema,
      $id: undefined,
      description: list.map((c) => `\`${c}\`: ${ERROR_CATALOGUE[c].message}`).join('\n\n')
    }
  }
  return responses
}

export interface OpenApiOptions { publicUrl: string, version: string }

export const openApiPlugin = fp(async function openApi (app: FastifyInstance, opts: OpenApiOptions) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Utility Media API',
        version: opts.version,
        description: 'Conversions (HTML and Markdown, images), safe-for-work gifs, image generation and colours. ' +
          'Every call carries an API key in the Authorization header, bare or as "Bearer <key>". ' +
          'Every JSON answer carries success, code (the HTTP status) and message; every failure is that envelope.'
      },
      servers: [{ url: opts.publicUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Your API key, bare or as "Bearer <key>"' }
        }
      }
    },
    transform ({ schema, url, route }) {
      const s = { ...(schema ?? {}) } as Record<string, unknown>
      const response = { ...((s.response as Record<string, unknown>) ?? {}) }
      for (const [status, body] of Object.entries(errorResponses(routeErrorCodes(route)))) {
        if (!(status in response)) response[status] = body
      }
      s.response = response
      if (route.config?.public !== true) s.security = [{ apiKey: [] }]
      return { schema: s as typeof schema, url }
    }
  })
  // The reference page and its assets are public, like the document itself.
  app.addHook('onRoute', function docsArePublic (route) {
    if (route.url === '/docs' || route.url.startsWith('/docs/')) route.config = { ...route.config, public: true }
  })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    // The page is served by us, from the package's own files: nothing external loads.
    staticCSP: true,
    uiHooks: {},
    logLevel: 'warn'
  })
  app.get('/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => app.swagger())
}, { name: 'openapi' })
