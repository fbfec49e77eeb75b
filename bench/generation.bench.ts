// Image generation through the endpoint against drawing and encoding the same picture
// in-process with the canvas alone (the template's own drawing code on inputs prepared
// once: no HTTP, no auth, no queue, no fetch). Like with like: the same fields, the
// same number of pictures in flight on both sides (IN_FLIGHT HTTP connections and
// render slots; IN_FLIGHT independent draw+encode loops), caches warm on both sides
// (the avatar, served by a loopback server allowed for the run, is fetched once and
// then comes from the fetcher's cache), the two measured in alternating rounds and
// counted the same way (`throughput` here, requestLoop for HTTP: completed pictures per
// second, an op started before the end waited for). The HTTP client runs on a thread
// of its own, as a real client runs elsewhere: on this thread it took main-thread time
// the drawing needs (the canvas rasterises on the calling thread).
// Target: ≥ 0.85.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import os from 'node:os'
import { createCanvas, type Image, loadImage } from '@napi-rs/canvas'
import sharp from 'sharp'
import { type AssetRegistry, createAssetRegistry } from '../src/generation/assets/assets.js'
import { isUrlLike, listedImage } from '../src/generation/assets/asset-catalog.js'
import { prepareCustom } from '../src/generation/custom/custom.js'
import { drawn } from '../src/generation/drawable.js'
import { encode, type OutputFormat } from '../src/generation/canvas/draw.js'
import { createDrawingFonts } from '../src/generation/text/font-loading.js'
import type { ImageSource } from '../src/generation/assets/image-source.js'
import { type Draw, templateByName } from '../src/generation/template-registry.js'
import { parseAllowList } from '../src/remote-fetch/address.js'
import { createRemoteFetcher } from '../src/remote-fetch/fetcher.js'
import { createImageFetcher } from '../src/remote-fetch/image-fetcher.js'
import { performance } from 'node:perf_hooks'
import { type Benchmark, type BenchRow, requestLoop } from './harness.js'
import { startOurServer } from './shared-path.bench.js'

/** Pictures in flight on both sides: HTTP connections and render slots; reference loops. */
const IN_FLIGHT = 4
const ROUNDS = 4

/**
 * Completed operations per second of `parallel` loops each running `op` back to back
 * for `seconds` (after a short warm-up). Both sides are counted this way: an op started
 * before the end is waited for and counted, where autocannon would drop requests in
 * flight, a large share at a few PNG banners per second.
 */
async function throughput (op: () => Promise<unknown>, parallel: number, seconds: number): Promise<number> {
  const loop = async (end: number): Promise<number> => {
    let n = 0
    while (performance.now() < end) { await op(); n++ }
    return n
  }
  await Promise.all(Array.from({ length: parallel }, async () => await loop(performance.now() + 200)))
  const start = performance.now()
  const counts = await Promise.all(Array.from({ length: parallel }, async () => await loop(start + seconds * 1000)))
  return counts.reduce((a, b) => a + b, 0) / ((performance.now() - start) / 1000)
}

function customBody (avatarUrl: string, output: string) {
  return {
    output,
    base: { width: 800, height: 400, color: '#202030' },
    images: [
      { url: avatarUrl, x: 20, y: 20, size: 120, round: 60 },
      ...Array.from({ length: 9 }, (_, i) => ({ type: i % 3 === 0 ? 'circle' : i % 3 === 1 ? 'triangle' : 'bitmap', x: 160 + i * 60, y: 40, width: 50, height: 50, radius: 25, color: `${i * 25},120,200`, rotate: i * 10 }))
    ],
    texts: Array.from({ length: 10 }, (_, i) => ({ text: `Line ${i} of the custom image`, x: 20, y: 160 + i * 22, size: 18, color: 'white', outlinewidth: i % 2 }))
  }
}

/** URLs fetched and decoded on this thread, each once: the reference draws from decoded images. */
function inProcessImages (fetcher: ReturnType<typeof createImageFetcher>, assets: AssetRegistry): ImageSource {
  const decoded = new Map<string, Promise<Image>>()
  const source: ImageSource = {
    async url (url, role) {
      let image = decoded.get(url)
      if (image === undefined) decoded.set(url, image = fetcher.fetchImage(url, role).then(async (f) => await loadImage(f.bytes)))
      return await image
    },
    async assetOrUrl (kind, value, role) {
      return isUrlLike(value) ? await source.url(value, role) : await assets.get(kind, value, role)
    },
    async image (value, role, field) {
      const listed = listedImage(assets, value, field)
      return listed === undefined ? await source.url(value, role) : await assets.get(listed.kind, listed.name, field)
    },
    // The pictures measured hold no Discord markup.
    emoji: async () => undefined
  }
  return source
}

const bench: Benchmark = {
  name: 'Image generation (welcome banner, 20-layer custom image)',
  async run ({ duration, quick }) {
    const avatar = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#3366cc' } }).png().toBuffer()
    const avatarServer = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'image/png' }); res.end(avatar) })
    await new Promise<void>((resolve) => avatarServer.listen(0, '127.0.0.1', resolve))
    const avatarUrl = `http://127.0.0.1:${(avatarServer.address() as AddressInfo).port}/avatar.png`
    const ours = await startOurServer(undefined, { remoteFetchAllow: parseAllowList(['127.0.0.1']), workerThreads: IN_FLIGHT })

    // The reference: the same drawing code and assets, called directly.
    const fonts = createDrawingFonts()
    const assets = createAssetRegistry({ dataDir: path.join(os.tmpdir(), 'uma-bench-none') })
    const images = inProcessImages(createImageFetcher({ fetcher: createRemoteFetcher({ allow: parseAllowList(['127.0.0.1']) }) }), assets)
    const deps = { fonts, images, assets }
    const welcome = templateByName('welcome')!
    const welcomeFields = { username: 'Benchmark User', avatar: avatarUrl, members: 'Member #1234', banner: 'space', icon: 'star' }

    const rows: BenchRow[] = []
    const seconds = quick ? 0.5 : Math.max(0.5, duration / ROUNDS)
    try {
      const cases: Array<{ name: string, format: Exclude<OutputFormat, 'gif'>, http: { path: string, body: string }, prepare: () => Promise<Draw> }> = []
      for (const format of (quick ? ['png'] : ['png', 'jpg', 'webp']) as Array<Exclude<OutputFormat, 'gif'>>) {
        cases.push({
          name: `welcome banner 1024×450 ${format.toUpperCase()}`,
          format,
          http: { path: '/gen/welcome', body: JSON.stringify({ ...welcomeFields, output: format }) },
          prepare: async () => await welcome.prepare(deps, welcomeFields)
        })
      }
      cases.push({
        name: 'custom image 800×400, 20 layers, JPG',
        format: 'jpg',
        http: { path: '/gen/custom', body: JSON.stringify(customBody(avatarUrl, 'jpg')) },
        prepare: async () => await prepareCustom(deps, customBody(avatarUrl, 'jpg') as never)
      })
      const headers = { authorization: ours.key, 'content-type': 'application/json' }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
      for (const c of cases) {
        const draw = await c.prepare()
        const post = async (): Promise<number> => await requestLoop({ url: `${ours.url}${c.http.path}`, headers, body: c.http.body, parallel: IN_FLIGHT, seconds })
        const reference: number[] = []
        const endpoint: number[] = []
        // Alternating rounds, medians: the machine's load drifts, and hits both alike.
        for (let round = 0; round < (quick ? 1 : ROUNDS); round++) {
          reference.push(await throughput(async () => await encode(draw(createCanvas, drawn), c.format), IN_FLIGHT, seconds))
          endpoint.push(await post())
        }
        rows.push({ name: `${c.name} (POST over loopback HTTP from a client thread, ${IN_FLIGHT} in flight, ${IN_FLIGHT} render slots)`, ours: median(endpoint), reference: median(reference), referenceName: `canvas draw+encode in-process (${IN_FLIGHT} in flight)`, unit: 'images/s', better: 'higher', target: 0.85 })
      }
    } finally {
      await ours.close()
      avatarServer.closeAllConnections()
      avatarServer.close()
    }
    return rows
  }
}
export default bench
