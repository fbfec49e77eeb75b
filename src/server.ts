// The process: configuration from the environment, the store and the rate-limit
// counters, the first key, listen, and a graceful close on SIGTERM/SIGINT (stop
// accepting, finish requests in flight, close the store and the counters).
import { ConfigError, loadConfig, retiredSettingsIn, type Config } from './config.js'
import { loadEnvFile } from './env-file.js'
import type { CounterLog } from './store/counters/interface.js'
import { DatabaseStartError, type DatabaseState, EXIT_STORE_UNAVAILABLE, isStoreUnavailable, type Store } from './store/interface.js'
import { runningAllocator } from './runtime/allocator.js'

async function main (): Promise<void> {
  let config: Config
  let envFile: string | undefined
  try {
    envFile = loadEnvFile()
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`)
      process.exit(78) // EX_CONFIG
    }
    throw err
  }
  // The rest is loaded once the configuration is known good: a bad setting is refused in
  // a fraction of a second instead of after loading sharp, canvas and Fastify.
  const [{ createApp }, { ensureStarterCatalog }, { prepareKeys }, { startMetricsServer }, { openStore }, { openCounterStore }, { emojiFontInDataDir }, { createQuietCollector }, { readinessReport }, { default: pino }] = await Promise.all([
    import('./app.js'), import('./gifs/starter.js'), import('./access/bootstrap.js'), import('./metrics/server.js'), import('./store/index.js'),
    import('./store/counters/index.js'), import('./generation/text/emoji-font.js'), import('./runtime/garbage.js'), import('./system/routes.js'), import('pino')
  ])

  if (envFile !== undefined) process.stdout.write(`Settings read from ${envFile} (variables set in the environment win)\n`)
  for (const sentence of retiredSettingsIn()) process.stderr.write(`Warning: ${sentence}\n`)
  // A problem with the database file seen while serving is logged once, by the app's
  // logger once there is one.
  let reportDatabaseProblem = (state: DatabaseState): void => { process.stderr.write(`${state.problem ?? 'the database is down'}\n`) }
  let store: Store
  try {
    store = await openStore(config, { onDatabaseProblem: (state) => reportDatabaseProblem(state) })
  } catch (err) {
    // A start refused to keep data safe, a DATA_DIR that cannot be used, or PostgreSQL
    // not answering (DATABASE_URL): one sentence and the documented exit code (docs/operations.md,
    // "Exit codes"; docs/operations-faults.md), no stack.
    if (err instanceof DatabaseStartError) {
      process.stderr.write(`${err.message}\n`)
      process.exit(err.exitCode)
    }
    if (isStoreUnavailable(err)) {
      process.stderr.write(`${err.message}\n`)
      process.exit(EXIT_STORE_UNAVAILABLE)
    }
    throw err
  }
  if (config.gifStarterCatalog) {
    const starter = await ensureStarterCatalog(store.gifs, store.gifFiles)
    if (starter.generated) process.stdout.write(`Gif catalog was empty: generated a starter catalog of ${starter.added} gifs (replace it with "npm run cli -- gifs import <folder>", see docs/gifs.md)\n`)
  }
  await prepareKeys(config, store, (text) => process.stdout.write(text + '\n'))
  // Unpacked here, once per data folder, rather than by the first drawing thread, which
  // would keep the unpacking's garbage for its life.
  emojiFontInDataDir(config.dataDir)

  // Rate-limit counters: in this process, or in Redis when REDIS_URL is set. Redis
  // failing (at start or later) is one line each way, by the app's logger once there is one.
  let counterLog: CounterLog = {
    warn: (_fields, message) => { process.stderr.write(`Warning: ${message}\n`) },
    info: (_fields, message) => { process.stdout.write(`${message}\n`) }
  }
  const counters = await openCounterStore(config, { warn: (f, m) => counterLog.warn(f, m), info: (f, m) => counterLog.info(f, m) })
  // pino's own destination, writing each line to stdout synchronously: nothing is lost
  // when the process dies. Batching the writes measured no faster (docs/performance.md,
  // "The shared request path").
  // The event loop's heap is collected, compacted, after each quiet half second that follows
  // requests that grew it (src/runtime/garbage.ts): what a burst left goes back to the
  // system then, not at V8's own pace (docs/memory.md).
  const quiet = createQuietCollector()
  const app = await createApp({ config, store, counters, logger: { level: config.logLevel, stream: pino.destination({ dest: 1, sync: true }) }, requestActivity: quiet })
  app.addHook('onClose', async () => quiet.stop())
  counterLog = { warn: (fields, message) => app.log.warn(fields, message), info: (fields, message) => app.log.info(fields, message) }
  reportDatabaseProblem = (state) => app.log.error({ database: state }, `database down: ${state.problem ?? ''}`)
  // The app first (it finishes requests and writes pending usage), then what it was given.
  const close = async (): Promise<void> => {
    await app.close()
    await Promise.all([store.close(), counters.close()])
  }

  let closing = false
  const shutdown = (signal: string): void => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down: finishing requests in flight')
    const force = setTimeout(() => {
      app.log.error('requests still in flight after SHUTDOWN_TIMEOUT_MS: exiting anyway')
      process.exit(1)
    }, config.shutdownTimeoutMs)
    force.unref()
    close().then(() => {
      app.log.info('closed')
      process.exit(0)
    }, (err: unknown) => {
      app.log.error({ err }, 'error while closing')
      process.exit(1)
    })
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))

  // The metrics port first, its close hook added before listen (Fastify refuses hooks on
  // a listening instance), so a taken METRICS_PORT stops the start before the public port opens.
  const registry = app.services.metrics.registry
  if (config.metricsPort !== undefined && registry !== undefined) {
    let metricsServer: { port: number, close: () => Promise<void> }
    try {
      metricsServer = await startMetricsServer(registry, config.metricsPort, config.metricsHost, { readiness: () => readinessReport(store, counters) })
    } catch (err) {
      await failToListen('METRICS_PORT', config.metricsHost, config.metricsPort, err, close)
      return
    }
    app.addHook('onClose', metricsServer.close)
    app.log.info(`Prometheus metrics at http://${config.metricsHost}:${metricsServer.port}/metrics`)
  }
  // What starting left behind goes before the first request (src/runtime/garbage.ts).
  quiet.collectNow()
  try {
    await app.listen({ port: config.port, host: config.host })
  } catch (err) {
    await failToListen('PORT', config.host, config.port, err, close)
    return
  }
  app.log.info({ publicUrl: config.publicUrl, dataDir: config.dataDir, store: store.kind, allocator: runningAllocator() }, `Utility Media API ready: docs at ${config.publicUrl}/docs`)
}

/** One sentence naming the setting and the address instead of a logged stack, then exit 1. */
async function failToListen (variable: string, host: string, port: number, err: unknown, cleanup: () => Promise<void>): Promise<void> {
  const code = (err as NodeJS.ErrnoException | undefined)?.code
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`
  const why = code === 'EADDRINUSE'
    ? 'the address is already in use (another process listens there); stop it or choose another'
    : code === 'EACCES'
      ? 'permission denied (ports below 1024 need privileges); choose another'
      : code === 'EADDRNOTAVAIL'
        ? 'the address is not one of this machine\'s (check HOST/METRICS_HOST); choose another'
        : `${err instanceof Error ? err.message : String(err)}; choose another`
  process.stderr.write(`Cannot listen on ${address} (${variable}=${port}): ${why} ${variable}.\n`)
  await cleanup().catch(() => {})
  process.exit(1)
}

main().catch((err: unknown) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`)
  process.exit(1)
})
