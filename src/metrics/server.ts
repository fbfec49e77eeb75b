// The operator's port (METRICS_PORT), never the public one: GET /metrics (Prometheus)
// and GET /readyz with the details the public /readyz leaves out (the store's kind, the
// database file's path, device and inode, what is wrong), no key (bind it to a private
// interface).
import http from 'node:http'
import type { Registry } from 'prom-client'

export interface OperatorRoutes {
  /** The full readiness report (src/system/routes.ts readinessReport): 200 when ready, 503 otherwise. */
  readiness?: () => Promise<{ status: string }>
}

export async function startMetricsServer (registry: Registry, port: number, host: string, routes: OperatorRoutes = {}): Promise<{ server: http.Server, port: number, close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const path = req.url?.split('?')[0]
    if (req.method === 'GET' && path === '/readyz' && routes.readiness !== undefined) {
      routes.readiness().then((report) => {
        res.writeHead(report.status === 'ready' ? 200 : 503, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(report))
      }, (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`readiness failed: ${err instanceof Error ? err.message : String(err)}\n`)
      })
      return
    }
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`Only GET /metrics${routes.readiness === undefined ? '' : ' and GET /readyz'} are served here\n`)
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
