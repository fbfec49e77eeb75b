// A loopback server of pictures, for tests that hand the server image URLs: each path
// answers its bytes, typed by its extension (.gif, .webp, .jpg; PNG otherwise), any other
// path the fallback or 404, and every path asked is recorded in order.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ImageServer {
  /** http://127.0.0.1:<port> */
  origin: string
  /** The paths asked, in order. */
  served: string[]
  close (): void
}

const TYPES: Record<string, string> = { gif: 'image/gif', webp: 'image/webp', jpg: 'image/jpeg', jpeg: 'image/jpeg' }

export async function startImageServer (files: Record<string, Buffer>, fallback?: Buffer): Promise<ImageServer> {
  const served: string[] = []
  const server = http.createServer((req, res) => {
    const url = req.url ?? ''
    served.push(url)
    const body = files[url] ?? fallback
    if (body === undefined) {
      res.writeHead(404).end()
      return
    }
    const type = TYPES[url.split('.').pop()!.toLowerCase()] ?? 'image/png'
    res.writeHead(200, { 'content-type': type }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close () {
      server.closeAllConnections()
      server.close()
    }
  }
}
