// Local stand-ins for the public gif APIs `gifs pull` reads, each with its answer's
// shape (src/gifs/sources.ts), on one loopback server: /nekos (nekos.best v2), /waifu
// (waifu.pics), /otaku (OtakuGIFs), /purr (PurrBot v2), and /files/<n>.gif, the gifs
// they point at. Each list answer hands out the next gifs of a pool in turn, so a pool
// of N gifs gives N distinct ones and then repeats itself; with `dead`, each list answer
// of /nekos and /waifu lists that many new URLs (/dead/<n>.gif) that answer 404 instead.
import http from 'node:http'
import type net from 'node:net'
import { noiseGif } from '../fixtures/gifs.js'

export interface FakeRequest { method: string, path: string, userAgent: string, body: string, at: number }

export interface FakeGifApis {
  url: string
  requests: FakeRequest[]
  /** Gif files served so far. */
  downloads: () => number
  /** Called before a gif file is answered, with the count of files served so far (this one included). */
  onDownload?: (n: number) => void
  /** Called before any request is answered, with its path (the client waits meanwhile). */
  onRequest?: (path: string) => void
  gif: (n: number) => Buffer
  close: () => Promise<void>
}

export async function startFakeGifApis (options: { pool?: number, offset?: number, dead?: number } = {}): Promise<FakeGifApis> {
  const pool = options.pool ?? 40
  const offset = options.offset ?? 1000
  const gifs = await Promise.all(Array.from({ length: pool }, (_, i) => noiseGif(offset + i)))
  let next = 0
  let nextDead = 0
  let downloads = 0
  const take = (n: number): number[] => Array.from({ length: n }, () => next++ % pool)
  const api: FakeGifApis = {
    url: '',
    requests: [],
    downloads: () => downloads,
    gif: (n) => gifs[n]!,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => { body += c })
    req.on('end', () => {
      const u = new URL(req.url!, 'http://x')
      api.requests.push({ method: req.method!, path: u.pathname + u.search, userAgent: String(req.headers['user-agent']), body, at: Date.now() })
      api.onRequest?.(u.pathname + u.search)
      const fileUrl = (i: number): string => `${api.url}/files/${i}.gif`
      const dead = (): string[] => Array.from({ length: options.dead ?? 0 }, () => `${api.url}/dead/${nextDead++}.gif`)
      const json = (value: unknown): void => { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value)) }
      let m: RegExpExecArray | null
      if ((m = /^\/files\/(\d+)\.gif$/.exec(u.pathname)) !== null && gifs[Number(m[1])] !== undefined) {
        api.onDownload?.(++downloads)
        res.writeHead(200, { 'content-type': 'image/gif' }).end(gifs[Number(m[1])])
      } else if ((m = /^\/nekos\/(\w+)$/.exec(u.pathname)) !== null && req.method === 'GET') {
        const amount = Math.min(20, Math.max(1, Number(u.searchParams.get('amount') ?? 1)))
        if (options.dead !== undefined) { json({ results: dead().map((url) => ({ url, anime_name: 'Dead' })) }); return }
        // Gifs carry the anime's name; images their artist: both shapes, alternating.
        json({ results: take(amount).map((i) => i % 2 === 0 ? { url: fileUrl(i), anime_name: `Anime ${i}` } : { url: fileUrl(i), artist_name: `Artist ${i}`, artist_href: `https://artists.example/${i}`, source_url: `https://source.example/${i}` }) })
      } else if ((m = /^\/waifu\/many\/sfw\/(\w+)$/.exec(u.pathname)) !== null && req.method === 'POST') {
        if (!Array.isArray(JSON.parse(body).exclude)) { res.writeHead(400).end(); return }
        json({ files: options.dead !== undefined ? dead() : take(30).map(fileUrl) })
      } else if ((m = /^\/waifu\/sfw\/(\w+)$/.exec(u.pathname)) !== null) {
        json({ url: fileUrl(take(1)[0]!) })
      } else if (u.pathname === '/otaku/gif' && u.searchParams.get('format') === 'gif' && u.searchParams.get('reaction')) {
        json({ url: fileUrl(take(1)[0]!) })
      } else if ((m = /^\/purr\/img\/sfw\/(\w+)\/gif$/.exec(u.pathname)) !== null) {
        json({ link: fileUrl(take(1)[0]!), error: false, time: 1 })
      } else {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":true,"message":"not found"}')
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  api.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`
  return api
}
