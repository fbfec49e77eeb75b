// Builds the Fastify application from a configuration and a store. Never listens:
// src/server.ts owns the process; tests build the app in-process and use inject.
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import Fastify, { type FastifyInstance, LogController } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config } from './config.js'
import { createKeyService, type KeyService } from './access/keys.js'
import { createCreditLedger, type CreditLedger } from './access/credits.js'
import type { AccessEvents } from './access/events.js'
import { isStoreUnavailable, type Store } from './store/interface.js'
import './http/route-config.js'
import { bodyPlugin } from './http/body.js'
import { corsPlugin } from './http/cors.js'
import { createConnectionGate, installConnectionGate } from './http/connection-gate.js'
import { addressMatcher } from './http/client-address.js'
import { clientErrorHandler, errorHandlerPlugin, frameworkErrorHandler, notFoundPlugin } from './http/error-handler.js'
import { openApiPlugin } from './http/openapi.js'
import { genRequestId } from './http/request-id.js'
import { requestGatePlugin } from './access/request-gate.js'
import type { CounterStore } from './store/counters/interface.js'
import { createUsageRecorder, type UsageRecorder } from './access/usage-recorder.js'
import { createMetrics, type Metrics, NO_METRICS } from './metrics/metrics.js'
import { accountRoutes } from './account/routes.js'
import { createInternalCredential } from './access/internal-credential.js'
import { createLinkSigner, loadLinkKeys } from './access/link-secrets.js'
import { linkRoutes } from './links/routes.js'
import { gifRoutes } from './gifs/routes.js'
import { systemRoutes } from './system/routes.js'
import { COLOR_IMAGE_PRIORS, pictureColorRoutes } from './colors/picture-routes.js'
import { colorRoutes } from './colors/routes.js'
import { createColorService, type ColorService } from './colors/service.js'
import { TEXT_PRIORS, textConversionRoutes } from './conversion/text/routes.js'
import { createAssetCatalog } from './generation/assets/asset-catalog.js'
import { generationRoutes } from './generation/routes.js'
import { createFetchedImagesBudget, createGenerationService, createPreviewCache, GENERATION_PRIORS, type GenerationService } from './generation/service.js'
import { createFontRegistry } from './generation/text/fonts.js'
import { createPictureCache, remoteImageFreshness } from './generation/pipeline/picture-cache.js'
import { createRemoteFetcher } from './remote-fetch/fetcher.js'
import { createImageFetcher } from './remote-fetch/image-fetcher.js'
import { GIF_WEBP_PRIORS } from './gifs/webp.js'
import { createWork, type Work } from './work/work.js'
import { createUploadBudget, IMAGE_PRIORS, imageConversionRoutes } from './conversion/image/routes.js'
import { playgroundRoutes } from './playground/routes.js'
import { adminPlugin } from './admin/plugin.js'
import { startWebhooks } from './webhooks/webhooks.js'
import { consoleRoutes } from './admin/console-routes.js'
import type { RequestActivity } from './runtime/garbage.js'
import { createResultCache } from './result-cache/result-cache.js'
import { contentFingerprint } from './result-cache/fingerprint.js'

/** Usage that cannot be written because the store does not answer is logged at most this often. */
const USAGE_STORE_WARN_MS = 10_000

const pkg = createRequire(import.meta.url)('../package.json') as { version: string }

/** The folder of the server's code (dist/, or src/ under tsx) and the project's root (package.json, package-lock.json). */
const CODE_DIR = path.dirname(fileURLToPath(import.meta.url))
const PROJECT_DIR = path.dirname(CODE_DIR)

/** Socket-level limit for receiving a whole request (slow clients cannot hold a slot). */
const RECEIVE_TIMEOUT_MS = 60_000

/**
 * Node's connection timeouts from the configuration (docs/operations.md, "Connections"): idle
 * keep-alive sockets close after KEEP_ALIVE_TIMEOUT_MS, a connection that has not sent
 * its headers within HEADERS_TIMEOUT_MS is answered 408 and closed (also one that never
 * sends a byte), and a socket silent for longer than any request may run is dropped.
 * Node checks the header and request timers on an interval (30 s by default): a fifth
 * of the header timeout keeps the check within 20 % of it. The shared-path benchmark
 * gives its reference server the same.
 */
export function connectionOptions (config: Config) {
  const requestTimeout = Math.max(RECEIVE_TIMEOUT_MS, config.headersTimeoutMs)
  return {
    keepAliveTimeout: config.keepAliveTimeoutMs,
    requestTimeout,
    // Longer than REQUEST_TIMEOUT_MS: a conversion in progress keeps its socket quiet.
    connectionTimeout: config.requestTimeoutMs === 0 ? 0 : Math.max(RECEIVE_TIMEOUT_MS, config.requestTimeoutMs + 10_000),
    http: {
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(config.headersTimeoutMs / 5)))
    }
  }
}

export interface AppDeps {
  config: Config
  store: Store
  /** Rate-limit counters (src/store/counters/index.ts, openCounterStore): the caller closes them after the app, as the store. */
  counters: CounterStore
  /** Logger options or instance; defaults to pino at config.logLevel on stdout. */
  logger?: boolean | object
  /**
   * The colour catalogue and its nearest-name index (built when absent, about 0.4 s):
   * the tests build many apps and share one.
   */
  colors?: ColorService
  /** Told of every request's start and end: the process's collection after requests (src/runtime/garbage.ts, createQuietCollector). */
  requestActivity?: RequestActivity
  /** Where access events go (quota used up, credits low, key expired: src/access/events.ts); by default the webhooks (nowhere without WEBHOOK_URL). */
  events?: AccessEvents
}

export interface AppServices {
  config: Config
  store: Store
  keys: KeyService
  /** NO_METRICS unless METRICS_PORT is set: nothing is counted that nobody can read. */
  metrics: Metrics
  usage: UsageRecorder
  /** Prepaid credits per key, reserved at admission and settled at the answer (src/access/credits.ts). */
  credits: CreditLedger
  counters: CounterStore
  /** What access tells the operator's storefront (quota used up, credits low, key expired): the webhooks, or nothing without WEBHOOK_URL. */
  events: AccessEvents
  /** The engine every heavy job passes through (src/work/work.ts). */
  work: Work
  /** What the features' routes do, built here and handed to their routes. */
  colors: ColorService
  generation: GenerationService
}

/** A route as registered: what the auth and docs tests walk over. */
export interface RouteInfo {
  method: string
  url: string
  public: boolean
  hidden: boolean
  /** A route of the management API (config `admin`): operator tokens, its own document (src/admin/). */
  admin: boolean
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices
    routeTable: RouteInfo[]
  }
}

export async function createApp ({ config, store, counters, logger, colors = createColorService(), requestActivity, events: injectedEvents }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    // One line per request, written by src/http/request-log.ts (from src/access/request-gate.ts), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'reqId' }),
    genReqId: genRequestId,
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimit,
    ...connectionOptions(config),
    // Every failure before routing is our envelope too (src/http/error-handler.ts).
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // `//gen/welcome`: one Python client joins a base URL ending in / with a path
    // starting with / (docs/compatibility.md, "Paths").
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 },
    ajv: { customOptions: { coerceTypes: true, useDefaults: true, removeAdditional: false, allErrors: false } }
  }).withTypeProvider<TypeBoxTypeProvider>()
  // MAX_CONNECTIONS in all, a share per address and room for addresses holding none,
  // decided before Node's server sees a socket (src/http/connection-gate.ts). Idle ones
  // free their place within KEEP_ALIVE_TIMEOUT_MS / HEADERS_TIMEOUT_MS.
  const trusted = config.trustProxy
  installConnectionGate(app.server, createConnectionGate({
    max: config.maxConnections,
    perAddress: config.maxConnectionsPerAddress,
    idlePerAddress: config.maxIdleConnectionsPerAddress,
    ipv6Prefix: config.rateLimitIpv6Prefix,
    exempt: trusted === true ? () => true : trusted === false ? () => false : addressMatcher(trusted)
  }), app.log)

  // The C# and Rust clients send GET requests with a JSON body
  // (docs/compatibility.md, "Bodies"): GET carries a body here.
  app.addHttpMethod('GET', { hasBody: true, overrideExisting: true })
  // HEAD too: Fastify derives a HEAD route from every GET route, schemas included, and
  // refuses a body schema on a bodyless method.
  app.addHttpMethod('HEAD', { hasBody: true, overrideExisting: true })

  // Nothing is counted that nobody can read: the registry, Node's default collectors
  // (an event-loop delay sampler among them) and the per-request counting exist only
  // with a metrics port.
  const metrics = config.metricsPort === undefined ? NO_METRICS : await createMetrics()
  // Webhooks to the operator's storefront (docs/webhooks.md): access emits, the sender
  // delivers in the background; on close what is queued is spilled to DATA_DIR.
  const webhooks = startWebhooks({
    config,
    expiredBetween: async (fromMs, toMs) => (await store.keys.expiringBetween(fromMs, toMs)).map((key) => ({ key, expiredAt: key.expiresAt?.getTime() ?? toMs })),
    observer: metrics.webhooks,
    log: app.log,
    version: pkg.version
  })
  const events = injectedEvents ?? webhooks.events
  let lastUsageWarn = -Infinity
  const usage = createUsageRecorder(store.usage, {
    flushMs: config.usageFlushMs,
    onError: (err) => {
      // The store not answering (PostgreSQL down, docs/operations-faults.md) is said without
      // a stack and at most once per USAGE_STORE_WARN_MS, not at every flush (USAGE_FLUSH_MS).
      if (!isStoreUnavailable(err)) return app.log.error({ err }, 'could not write usage; kept for the next flush')
      const now = Date.now()
      if (now - lastUsageWarn < USAGE_STORE_WARN_MS) return
      lastUsageWarn = now
      app.log.warn({ problem: err.message, cause: (err.cause as Error | undefined)?.message }, 'could not write usage: the store does not answer; kept for the next flush')
    },
    // What the store has not taken when the app closes waits here for the next start.
    spillDir: path.join(config.dataDir, 'usage-pending'),
    onSpill: (event, batches) => event === 'replayed'
      ? app.log.info({ batches }, 'usage spilled by the last run: written again now (each batch at most once)')
      : app.log.warn({ batches }, 'the store did not take the pending usage: spilled to DATA_DIR/usage-pending, written at the next start')
  })
  const credits = createCreditLedger({ keys: store.keys, usage, refreshMs: config.usageFlushMs, events })
  // A key changed here is read again at its next request, not at its next refresh.
  const keys = createKeyService(store.keys, { events, onChange: (record) => credits.forget(record.id) })
  // Usage is written before the store closes (the store's owner closes it, and the
  // counters, after the app).
  app.addHook('onClose', async () => await usage.close())
  // After the requests (they may still emit), what the sender has not delivered is spilled.
  app.addHook('onClose', async () => await webhooks.close())

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
        get hidden () { return route.schema?.hide === true },
        get admin () { return route.config?.admin !== undefined }
      })
    }
  })

  // Signed links (docs/links.md): the server key every key's link secret is derived from,
  // and the credential a link's replay carries through the request gate.
  const linkKeys = loadLinkKeys({ configured: config.linkSigningKeys, dataDir: config.dataDir, scaleOut: config.databaseUrl !== undefined })
  if (linkKeys.state === 'off') app.log.warn(linkKeys.reason)
  const linkSigner = linkKeys.state === 'ready' ? createLinkSigner(linkKeys.keys) : undefined
  const internal = createInternalCredential()

  await app.register(errorHandlerPlugin)
  await app.register(bodyPlugin)
  // Before the key and the limits: preflights are answered without either.
  await app.register(corsPlugin, { origins: config.corsOrigins })
  await app.register(requestGatePlugin, {
    keys,
    metrics,
    requestTimeoutMs: config.requestTimeoutMs,
    activity: requestActivity,
    internal,
    rateLimit: {
      counters,
      usage,
      defaultMax: config.rateLimitMax,
      defaultWindowMs: config.rateLimitWindowMs,
      ipMax: config.rateLimitIpMax,
      ipv6Prefix: config.rateLimitIpv6Prefix,
      onReject: (reason, route) => metrics.rateLimitRejected(reason, route),
      credits,
      events
    }
  })
  // After the request gate's step: an unknown path is counted in, then answered 404 before its body is read.
  await app.register(notFoundPlugin)
  await app.register(openApiPlugin, { publicUrl: config.publicUrl, version: pkg.version })

  await app.register(systemRoutes, { store, counters, publicUrl: config.publicUrl, info: config.info })
  await app.register(accountRoutes, { config, usage, credits, store, links: linkSigner })
  await app.register(linkRoutes, { signer: linkSigner, publicUrl: config.publicUrl, keys: store.keys, minted: store.links, internal, inject: async (options) => await app.inject(options) })
  await app.register(colorRoutes, { service: colors })
  // Every heavy job passes through one engine (src/work/work.ts): drawing and text
  // conversion on WORKER_THREADS worker threads; image conversions, gifs' WebP and the
  // pictures' decoding and /color/image's on IMAGE_CONCURRENCY libvips lanes, which share IMAGE_MEMORY.
  const work = createWork({
    threads: config.workerThreads,
    timeoutMs: config.workTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    dataDir: config.dataDir,
    libvips: { lanes: config.image.concurrency, memoryBytes: config.image.memoryBytes },
    priors: {
      threads: { ...GENERATION_PRIORS.threads, ...TEXT_PRIORS },
      libvips: { ...IMAGE_PRIORS, ...GIF_WEBP_PRIORS, ...GENERATION_PRIORS.libvips, ...COLOR_IMAGE_PRIORS }
    },
    metrics
  })
  app.addHook('onClose', async () => await work.close())
  // Pictures by content address (src/result-cache/, docs/result-cache.md): the code and the
  // locked dependencies are part of every address, so a new build never serves a picture
  // an older one drew.
  const resultCache = createResultCache({
    dataDir: config.dataDir,
    maxBytes: config.resultCacheMaxBytes,
    diskTimeoutMs: config.resultCacheDiskTimeoutMs,
    observer: metrics.resultCache,
    warn: (message) => app.log.warn(message)
  })
  app.addHook('onClose', async () => await resultCache.close())
  const codeVersion = resultCache.enabled ? await contentFingerprint(CODE_DIR, ['.js', '.ts', '.mjs'], [path.join(PROJECT_DIR, 'package.json'), path.join(PROJECT_DIR, 'package-lock.json')]) : ''
  // Image generation's parts, built once here and handed to its service: the fonts' and
  // assets' names (this thread never draws: the drawing threads load their own), the
  // SSRF-safe fetcher for image URLs (and its cache times), the memory its fetched images
  // may hold, the previews kept and the pictures' way through the result cache.
  const assets = createAssetCatalog({ dataDir: config.dataDir })
  const fetcher = createRemoteFetcher({ allow: config.remoteFetchAllow, maxBytes: config.remoteFetchMaxBytes, timeoutMs: config.remoteFetchTimeoutMs })
  // One image fetcher (and its cache) for the pictures' images and /color/image's url=.
  const images = createImageFetcher({ fetcher, onOutcome: (outcome) => metrics.remoteFetched(outcome), ...remoteImageFreshness(config) })
  const generation = createGenerationService({
    work,
    fonts: createFontRegistry({ operatorDir: path.join(config.dataDir, 'fonts') }),
    assets,
    images,
    fetchedBytes: createFetchedImagesBudget({ limitBytes: config.remoteFetchMemoryBytes, fetchTimeoutMs: config.remoteFetchTimeoutMs, work }),
    previews: createPreviewCache(assets),
    pictures: createPictureCache({ cache: resultCache, codeVersion, dataDir: config.dataDir, assets }),
    discordCdn: config.discordCdnUrl,
    requestTimeoutMs: config.requestTimeoutMs
  })
  app.decorate('services', { config, store, keys, metrics, usage, credits, counters, events, work, colors, generation })
  await app.register(gifRoutes, { store: store.gifs, files: store.gifFiles, publicUrl: config.publicUrl, counters, work, requestTimeoutMs: config.requestTimeoutMs })
  await app.register(textConversionRoutes, { bodyLimit: config.textBodyLimit, work })
  await app.register(generationRoutes, { service: generation })
  // IMAGE_UPLOAD_MEMORY: the bytes of image uploads and downloads, conversions' and /color/image's.
  const uploads = createUploadBudget(config.image)
  await app.register(pictureColorRoutes, { catalog: colors.catalog, work, images, uploads })
  await app.register(imageConversionRoutes, {
    image: config.image,
    work,
    uploads,
    requestTimeoutMs: config.requestTimeoutMs,
    remote: { allow: config.remoteFetchAllow, timeoutMs: config.remoteFetchTimeoutMs }
  })
  await app.register(playgroundRoutes)
  // The management API (/admin/v1/, docs/admin-api.md): operator tokens, never keys; 404 while none exists.
  await app.register(adminPlugin, {
    store,
    keys,
    usage,
    counters,
    envToken: config.adminToken,
    answerKey: { configured: config.adminAnswerKey, dataDir: config.dataDir, scaleOut: config.databaseUrl !== undefined },
    ipv6Prefix: config.rateLimitIpv6Prefix
  })
  // The operator console (/admin, docs/console.md): its files behind the same gate.
  await app.register(consoleRoutes)

  return app
}
