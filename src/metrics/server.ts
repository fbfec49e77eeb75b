// The Prometheus endpoint, on its own port (METRICS_PORT), never on the public one:
// GET /metrics and nothing else, no key (bind it to a private interface).
import http from 'node:http'
import type { Registry } from 'prom-client'

export async function startMetricsServer (registry: Registry, port: number, host: string): Promise<{ server: http.Server, port: number, close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics is served here\n')
      return
    }
    registry.metrics().then((text) => {
      res.writeHead(200, { 'content-type': registry.contentType }).end(text)
    }, (err: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${err instanceof Error ? err.message : String(err)}\n`)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const address = server.address()
  return {
    server,
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}
