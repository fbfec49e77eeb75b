// The process: configuration from the environment, the store, the first key, listen,
// and a graceful close on SIGTERM/SIGINT (stop accepting, finish requests in flight,
// close the store).
import { createApp } from './app.js'
import { ConfigError, loadConfig, type Config } from './config.js'
import { ensureStarterCatalog } from './gifs/starter.js'
import { prepareKeys } from './keys/bootstrap.js'
import { createLogStream } from './log-stream.js'
import { startMetricsServer } from './metrics/server.js'
import { openStore } from './store/index.js'

async function main (): Promise<void> {
  let config: Config
  try {
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`)
      process.exit(78) // EX_CONFIG
    }
    throw err
  }

  const store = await openStore(config)
  if (config.gifStarterCatalog) {
    const starter = await ensureStarterCatalog(store.gifs, config.dataDir, store.gifContent)
    if (starter.generated) process.stdout.write(`Gif catalog was empty: generated a starter catalog of ${starter.added} gifs (replace it with "npm run cli -- gifs import <folder>", see docs/gifs.md)\n`)
  }
  await prepareKeys(config, store, (text) => process.stdout.write(text + '\n'))

  const logs = createLogStream()
  const app = await createApp({ config, store, logger: { level: config.logLevel, stream: logs.stream } })

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
    // The app first (it finishes requests and writes pending usage), then the store.
    app.close().then(() => store.close()).then(() => {
      app.log.info('closed')
      logs.close()
      process.exit(0)
    }, (err: unknown) => {
      app.log.error({ err }, 'error while closing')
      process.exit(1)
    })
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))

  try {
    await app.listen({ port: config.port, host: config.host })
  } catch (err) {
    app.log.fatal({ err }, `cannot listen on ${config.host}:${config.port}`)
    await store.close()
    process.exit(1)
  }
  const metrics = app.services.metrics
  if (config.metricsPort !== undefined && metrics !== undefined) {
    const metricsServer = await startMetricsServer(metrics, config.metricsPort, config.metricsHost)
    app.addHook('onClose', metricsServer.close)
    app.log.info(`Prometheus metrics at http://${config.metricsHost}:${metricsServer.port}/metrics`)
  }
  app.log.info({ publicUrl: config.publicUrl, dataDir: config.dataDir, store: store.kind }, `Utility Media API ready: docs at ${config.publicUrl}/docs`)
}

main().catch((err: unknown) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`)
  process.exit(1)
})
