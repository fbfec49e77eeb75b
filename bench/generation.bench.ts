// Image generation through the endpoint against drawing and encoding the same picture
// in-process with the canvas alone (the template's own drawing code, no HTTP, no
// auth, no queue). The avatar is served by a loopback server (allowed for the run),
// so the fetch is excluded after the first request by the cache. Target: ≥ 0.85.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import os from 'node:os'
import sharp from 'sharp'
import { createAssetRegistry } from '../src/generation/assets.js'
import { renderCustom } from '../src/generation/custom.js'
import { encode, type OutputFormat } from '../src/generation/draw.js'
import { createFontRegistry } from '../src/generation/fonts.js'
import { createImageSource } from '../src/generation/image-source.js'
import { templateByName } from '../src/generation/templates.js'
import { parseAllowList } from '../src/remote-fetch/address.js'
import { createRemoteFetcher } from '../src/remote-fetch/fetcher.js'
import { createImageFetcher } from '../src/remote-fetch/image-fetcher.js'
import { type Benchmark, type BenchRow, load, opsPerSec } from './harness.js'
import { startOurServer } from './shared-path.bench.js'

/** Renders in flight in the in-process reference, like the connections of the HTTP load. */
const REFERENCE_PARALLEL = 4

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

const bench: Benchmark = {
  name: 'Image generation (welcome banner, 20-layer custom image)',
  async run ({ duration, quick }) {
    const avatar = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#3366cc' } }).png().toBuffer()
    const avatarServer = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'image/png' }); res.end(avatar) })
    await new Promise<void>((resolve) => avatarServer.listen(0, '127.0.0.1', resolve))
    const avatarUrl = `http://127.0.0.1:${(avatarServer.address() as AddressInfo).port}/avatar.png`
    const ours = await startOurServer(undefined, { remoteFetchAllow: parseAllowList(['127.0.0.1']) })

    // The reference: the same drawing code and assets, called directly.
    const fonts = createFontRegistry()
    const assets = createAssetRegistry({ dataDir: path.join(os.tmpdir(), 'uma-bench-none') })
    const images = createImageSource({ images: createImageFetcher({ fetcher: createRemoteFetcher({ allow: parseAllowList(['127.0.0.1']) }) }), assets })
    const deps = { fonts, images, assets }
    const welcome = templateByName('welcome')!
    const welcomeFields = { username: 'Benchmark User', avatar: avatarUrl, members: 'Member #1234', banner: 'space', icon: 'star' }

    const rows: BenchRow[] = []
    const seconds = quick ? 1 : Math.max(2, duration / 2)
    try {
      const cases: Array<{ name: string, format: OutputFormat, http: { path: string, body: string }, draw: () => Promise<unknown> }> = []
      for (const format of (quick ? ['png'] : ['png', 'jpg', 'webp']) as OutputFormat[]) {
        cases.push({
          name: `welcome banner 1024×450 ${format.toUpperCase()}`,
          format,
          http: { path: '/gen/welcome', body: JSON.stringify({ ...welcomeFields, output: format }) },
          draw: async () => await encode(await welcome.render(deps, welcomeFields), format)
        })
      }
      cases.push({
        name: 'custom image 800×400, 20 layers, JPG',
        format: 'jpg',
        http: { path: '/gen/custom', body: JSON.stringify(customBody(avatarUrl, 'jpg')) },
        draw: async () => await encode(await renderCustom(deps, customBody(avatarUrl, 'jpg') as never), 'jpg')
      })
      for (const c of cases) {
        const reference = await opsPerSec(async () => await Promise.all(Array.from({ length: REFERENCE_PARALLEL }, c.draw)), seconds) * REFERENCE_PARALLEL
        const r = await load({ url: `${ours.url}${c.http.path}`, method: 'POST', headers: { authorization: ours.key, 'content-type': 'application/json' }, body: c.http.body, connections: REFERENCE_PARALLEL, duration: seconds })
        if (r.non2xx > 0 || r.errors > 0) throw new Error(`${c.name}: ${r.non2xx} non-2xx, ${r.errors} errors`)
        rows.push({ name: `${c.name} (POST, ${REFERENCE_PARALLEL} connections)`, ours: r.requestsPerSec, reference, referenceName: `canvas draw+encode in-process (${REFERENCE_PARALLEL} in parallel)`, unit: 'images/s', better: 'higher', target: 0.85 })
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
