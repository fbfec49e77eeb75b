// Colours: nearest-name lookup through the index against a linear CIEDE2000 scan of the
// same catalogue (target: ≤ 0.5 ms per lookup, > 20× faster), and /color/info
// throughput over HTTP against the foundation's bare Fastify route.
import { createColorCatalog } from '../src/colors/catalog.js'
import { labOf } from '../src/colors/convert.js'
import { createNearestIndex, nearestByScan } from '../src/colors/nearest-index.js'
import { mulberry32 } from '../src/colors/random.js'
import { alternateLoads, type Benchmark, type BenchRow, compare, load } from './harness.js'
import { startBareServer, startOurServer } from './shared-path.bench.js'

const bench: Benchmark = {
  name: 'Colours (/color/info, nearest-name index)',
  async run ({ duration, quick }) {
    const rows: BenchRow[] = []
    const catalog = createColorCatalog()
    rows.push({ name: `catalogue + index build at plugin start (${catalog.size} colours)`, ours: catalog.buildMs, unit: 'ms', better: 'lower' })

    // The same seeded queries for both sides.
    let state = 1
    const queries = Array.from({ length: 1024 }, () => {
      state = mulberry32(state)
      const v = state >>> 8
      return labOf({ r: v >>> 16, g: (v >>> 8) & 255, b: v & 255 })
    })
    const index = createNearestIndex(catalog.lab)
    let qi = 0
    let si = 0
    const [lookupsPerSec, scanOps] = await compare(
      () => { const q = queries[qi++ & 1023]!; return index.nearest(q.l, q.a, q.b) },
      () => { const q = queries[si++ & 1023]!; return nearestByScan(catalog.lab, q.l, q.a, q.b) },
      quick ? 2 : 6, 2)
    rows.push({
      name: 'nearest-name lookup, CIEDE2000, per lookup (random sRGB colours)',
      ours: 1000 / lookupsPerSec,
      reference: 1000 / scanOps,
      referenceName: 'linear CIEDE2000 scan of the catalogue',
      unit: 'ms',
      better: 'lower',
      target: 20,
      note: 'absolute target: ≤ 0.5 ms per lookup'
    })

    const bare = await startBareServer()
    const ours = await startOurServer()
    try {
      const paths = ['/color/info?hex=2f4f50', '/color/info?rgb=12,200,99', '/color/info?name=darkslategray', '/color/info?hex=%23ff8800']
      const [oursRps, bareRps] = await alternateLoads(async () => {
        const r = await load({
          url: `${ours.url}/color/info`,
          duration: duration / 2,
          requests: paths.map((path) => ({ method: 'GET' as const, path, headers: { authorization: ours.key } }))
        })
        if (r.non2xx > 0) throw new Error(`/color/info answered ${r.non2xx} non-2xx`)
        return r.requestsPerSec
      }, async () => (await load({ url: `${bare.url}/bench/ping`, duration: duration / 2 })).requestsPerSec)
      rows.push({
        name: 'GET /color/info, mixed hex/rgb/name (32 connections, autocannon, loopback)',
        ours: oursRps,
        reference: bareRps,
        referenceName: 'bare Fastify route',
        unit: 'req/s',
        better: 'higher'
      })
    } finally {
      await ours.close()
      await bare.app.close()
    }
    return rows
  }
}
export default bench
