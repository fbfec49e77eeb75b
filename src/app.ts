// Builds the Fastify application from a configuration and a store. Never listens:
// src/server.ts owns the process; tests build the app in-process and use inject.
import { createRequire } from 'node:module'
import Fastify, { type FastifyInstance, LogController } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config } from './config.js'
import { createKeyService, type KeyService } from './keys/keys.js'
import type { Store } from './store/interface.js'
import './http/route-config.js'
import { authPlugin } from './http/auth.js'
import { bodyPlugin } from './http/body.js'
import { errorHandlerPlugin } from './http/error-handler.js'
import { openApiPlugin } from './http/openapi.js'
import { genRequestId } from './http/request-id.js'
import { requestLogPlugin } from './http/request-log.js'
import { systemRoutes } from './system/routes.js'
import { imageConversionRoutes } from './conversion/image/routes.js'

const pkg = createRequire(import.meta.url)('../package.json') as { version: string }

/** Socket-level limit for receiving a whole request (slow clients cannot hold a slot). */
const RECEIVE_TIMEOUT_MS = 60_000

export interface AppDeps {
  config: Config
  store: Store
  /** Logger options or instance; defaults to pino at config.logLevel on stdout. */
  logger?: boolean | object
}

export interface AppServices {
  config: Config
  store: Store
  keys: KeyService
}

/** A route as registered: what the auth and docs tests walk over. */
export interface RouteInfo {
  method: string
  url: string
  public: boolean
  hidden: boolean
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices
    routeTable: RouteInfo[]
  }
}

export async function createApp ({ config, store, logger }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    // One line per request, written by src/http/request-log.ts, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'reqId' }),
    genReqId: genRequestId,
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimit,
    requestTimeout: RECEIVE_TIMEOUT_MS,
    handlerTimeout: config.requestTimeoutMs > 0 ? config.requestTimeoutMs : undefined,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    ajv: { customOptions: { coerceTypes: true, useDefaults: true, removeAdditional: false, allErrors: false } }
  }).withTypeProvider<TypeBoxTypeProvider>()

  // The C# and Rust clients send GET requests with a JSON body
  // (../shared/compat/existing-clients.md): GET carries a body here.
  app.addHttpMethod('GET', { hasBody: true, overrideExisting: true })

  const keys = createKeyService(store.keys)
  app.decorate('services', { config, store, keys })

  const routeTable: RouteInfo[] = []
  app.decorate('routeTable', routeTable)
  app.addHook('onRoute', function recordRoute (route) {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue
      // Read lazily: later onRoute hooks (the docs plugin's) may still change the route.
      routeTable.push({
        method,
        url: route.url,
        get public () { return route.config?.public === true },
        get hidden () { return route.schema?.hide === true }
      })
    }
  })

  app.addHook('onRequest', function requestIdHeader (request, reply, done) {
    reply.header('x-request-id', request.id)
    done()
  })

  await app.register(errorHandlerPlugin)
  await app.register(bodyPlugin)
  await app.register(authPlugin, { keys })
  await app.register(requestLogPlugin)
  await app.register(openApiPlugin, { publicUrl: config.publicUrl, version: pkg.version })

  await app.register(systemRoutes, { store })
  await app.register(imageConversionRoutes, { image: config.image })

  return app
}
