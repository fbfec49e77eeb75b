// Gifs (issue 5): GET /sfw/gif/{type} with a catalog of 100,000 entries against the
// bare Fastify route (target ≥ 0.8), and serving a 2 MB gif against @fastify/static
// serving the same file from a plain folder. And our file handler (src/gifs/routes.ts)
// swapped alone for @fastify/send on the same server, behind the same request path.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Fastify from 'fastify'
import send from '@fastify/send'
import fastifyStatic from '@fastify/static'
import { Type } from 'typebox'
import { Envelope, ok } from '../src/http/envelope.js'
import { sha256 } from '../src/store/gif-files.js'
import { gifDirOf } from '../src/store/local-gif-files.js'
import { renderStarterGif } from '../src/gifs/starter-art.js'
import { GIF_TYPES } from '../src/gifs/types.js'
import type { NewGif } from '../src/store/interface.js'
import { alternateLoads, type Benchmark, type BenchRow, load, median, perRoundRatios, roundsOf } from './harness.js'
import { startBareServer, startOurServer } from './shared-path.bench.js'

const CATALOG_SIZE = 100_000
const FILE_SIZE = 2 * 1024 * 1024
/** Rounds of the swap: the host's load drifts within minutes. */
const SWAP_ROUNDS = 6

/** A valid GIF of about `size` bytes: a starter gif padded with comment extensions. */
function gifOfSize (size: number): Buffer {
  const base = renderStarterGif('wasted', 1)
  const body = base.subarray(0, base.length - 1) // without the trailer
  const blocks: Buffer[] = [body]
  let total = body.length + 1
  while (total < size) {
    const chunk = Buffer.alloc(3 + 255 * 255 + 1) // 0x21 0xFE, 255 sub-blocks of 255 bytes, terminator
    chunk[0] = 0x21
    chunk[1] = 0xfe
    for (let i = 0; i < 255; i++) chunk[2 + i * 256] = 255
    blocks.push(chunk.subarray(0, chunk.length - 1))
    total += chunk.length - 1
  }
  blocks.push(Buffer.from([0x3b]))
  return Buffer.concat(blocks)
}

const bench: Benchmark = {
  name: 'Gifs (issue 5)',
  async run ({ duration }) {
    const rows: BenchRow[] = []

    // 1. A random gif from a catalog of 100,000 entries.
    const bare = await startBareServer()
    const ours = await startOurServer(async (app) => {
      // The foundation's ping route on the same server: isolates what the gif pick costs.
      app.get('/bench/ping', { schema: { response: { 200: Envelope({ pong: Type.Boolean(), service: Type.String() }) } } }, async () => ok({ pong: true, service: 'utility-media-api' }))
      const gifs: NewGif[] = []
      for (let i = 0; i < CATALOG_SIZE; i++) {
        gifs.push({ category: GIF_TYPES[i % GIF_TYPES.length]!, hash: sha256(Buffer.from(String(i))), url: null, size: 1000, width: 100, height: 100, frames: 10, contentType: 'image/gif' })
      }
      await app.services.store.gifs.add(gifs)
    })
    try {
      const ourLoad = async (route: string): Promise<number> => {
        const r = await load({ url: `${ours.url}${route}`, headers: { authorization: ours.key }, duration: duration / 2 })
        if (r.non2xx > 0 || r.errors > 0) throw new Error(`${route} answered ${r.non2xx} non-2xx, ${r.errors} errors`)
        return r.requestsPerSec
      }
      const [oursRps, bareRps] = await alternateLoads(() => ourLoad('/sfw/gif/hug'), async () => (await load({ url: `${bare.url}/bench/ping`, duration: duration / 2 })).requestsPerSec)
      const [gifRps, pingRps] = await alternateLoads(() => ourLoad('/sfw/gif/hug'), () => ourLoad('/bench/ping'))
      rows.push({
        name: `GET /sfw/gif/hug, catalog of ${CATALOG_SIZE.toLocaleString('en-US')} gifs (32 connections, autocannon, loopback)`,
        ours: oursRps,
        reference: bareRps,
        referenceName: 'bare Fastify route',
        unit: 'req/s',
        better: 'higher',
        target: 0.8
      })
      rows.push({
        name: 'the same, against our own key-checked ping route on the same server (the cost of the pick alone)',
        ours: gifRps,
        reference: pingRps,
        referenceName: 'our /bench/ping (auth + envelope)',
        unit: 'req/s',
        better: 'higher'
      })
    } finally {
      await ours.close()
      await bare.app.close()
    }

    // 2. Serving a 2 MB gif file.
    const bytes = gifOfSize(FILE_SIZE)
    const hash = sha256(bytes)
    const plain = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bench-static-'))
    fs.writeFileSync(path.join(plain, 'big.gif'), bytes)
    const reference = Fastify({ logger: false })
    await reference.register(fastifyStatic, { root: plain })
    const referenceUrl = await reference.listen({ port: 0, host: '127.0.0.1' })
    const server = await startOurServer(async (app) => {
      const { store } = app.services
      await store.gifFiles.put(hash, bytes)
      await store.gifs.add([{ category: 'wasted', hash, url: null, size: bytes.length, width: 240, height: 160, frames: 10, contentType: 'image/gif' }])
      // The library piece in place of our handler: the same catalog look-up, then
      // @fastify/send from the same folder with the same caching.
      const dir = gifDirOf(app.services.config.dataDir)
      app.get('/bench/sent/:file', { config: { public: true } }, async (request, reply) => {
        const { file } = request.params as { file: string }
        const gif = await store.gifs.findByHash(file.slice(0, -4))
        if (!gif) return reply.code(404).send()
        const sent = await send(request.raw, `/${file}`, { root: dir, immutable: true, maxAge: 31_536_000_000 })
        return reply.code(sent.statusCode).headers(sent.headers).send(sent.stream)
      })
    })
    try {
      const [oursRps, staticRps] = await alternateLoads(async () => {
        const r = await load({ url: `${server.url}/files/gifs/${hash}.gif`, connections: 8, duration: duration / 2 })
        if (r.non2xx > 0 || r.errors > 0) throw new Error(`our file route answered ${r.non2xx} non-2xx, ${r.errors} errors`)
        return r.requestsPerSec
      }, async () => (await load({ url: `${referenceUrl}/big.gif`, connections: 8, duration: duration / 2 })).requestsPerSec)
      rows.push({
        name: `GET of a ${(bytes.length / 1024 / 1024).toFixed(1)} MB gif file, no key (8 connections, autocannon, loopback)`,
        ours: oursRps,
        reference: staticRps,
        referenceName: '@fastify/static, same file from a plain folder',
        unit: 'req/s',
        better: 'higher',
        note: `≈ ${(oursRps * bytes.length / 1024 / 1024).toFixed(0)} MB/s ours, ${(staticRps * bytes.length / 1024 / 1024).toFixed(0)} MB/s reference`
      })
      // One piece swapped alone, in alternating rounds.
      const fileLoad = (url: string) => async (): Promise<number> => {
        const r = await load({ url, connections: 8, duration: duration / 4 })
        if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url} answered ${r.non2xx} non-2xx, ${r.errors} errors`)
        return r.requestsPerSec
      }
      const { handler, library } = await roundsOf({ handler: fileLoad(`${server.url}/files/gifs/${hash}.gif`), library: fileLoad(`${server.url}/bench/sent/${hash}.gif`) }, SWAP_ROUNDS)
      rows.push({
        name: 'the same file, one piece swapped alone: our handler against @fastify/send on the same server, behind the same request path (kept by hand: see docs/gifs.md, "Performance")',
        ours: median(handler),
        reference: median(library),
        referenceName: '@fastify/send',
        unit: 'req/s',
        better: 'higher',
        note: `per-round ratios ${perRoundRatios(handler, library)}`
      })
    } finally {
      await server.close()
      await reference.close()
      fs.rmSync(plain, { recursive: true, force: true })
    }
    return rows
  }
}
export default bench
