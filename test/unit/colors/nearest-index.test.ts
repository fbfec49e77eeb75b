// The nearest-name index must give exactly the answer of a full CIEDE2000 scan: same
// colour (ties to the lower index), same distance.
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { createColorCatalog, type ColorCatalog } from '../../../src/colors/catalog.js'
import { labOf } from '../../../src/colors/convert.js'
import { createNearestIndex, nearestByScan } from '../../../src/colors/nearest-index.js'
import { mulberry32 } from '../../../src/colors/random.js'

function seeded (seed: number) {
  let state = seed
  return () => { state = mulberry32(state); return state }
}

/**
 * Full scans of the 31,884-colour catalogue cost ~15 ms each: the default run checks 200
 * seeded colours, `FULL_PROPERTY_TESTS=1` the 2,000 it was written with.
 */
const SCANS = process.env.FULL_PROPERTY_TESTS === '1' ? 2000 : 200

let catalog: ColorCatalog
before(() => { catalog = createColorCatalog() })

describe('nearest-name index', () => {
  it(`equals a full scan of the whole catalogue on ${SCANS} seeded random sRGB colours and the cube's corners and greys`, () => {
    const next = seeded(7)
    const queries = Array.from({ length: SCANS }, () => { const v = next() >>> 8; return { r: v >>> 16, g: (v >>> 8) & 255, b: v & 255 } })
    for (let v = 0; v <= 255; v += 17) queries.push({ r: v, g: v, b: v })
    for (let i = 0; i < 8; i++) queries.push({ r: i & 1 ? 255 : 0, g: i & 2 ? 255 : 0, b: i & 4 ? 255 : 0 })
    for (const q of queries) {
      const fromIndex = catalog.nearest(q)
      const l = labOf(q)
      const scan = nearestByScan(catalog.lab, l.l, l.a, l.b)
      assert.deepEqual(fromIndex.color, catalog.colorAt(scan.index), `nearest of rgb(${q.r}, ${q.g}, ${q.b})`)
      assert.equal(fromIndex.distance, scan.distance)
    }
  })

  it('equals a full scan on random Lab points, including exact ties broken to the lower index', () => {
    const next = seeded(99)
    const n = 3000
    const lab = new Float64Array(n * 3)
    for (let i = 0; i < n; i++) {
      // Coarse coordinates so that duplicates (exact ties) occur.
      lab[3 * i] = (next() % 21) * 5
      lab[3 * i + 1] = (next() % 41) * 5 - 100
      lab[3 * i + 2] = (next() % 41) * 5 - 100
    }
    const index = createNearestIndex(lab)
    let ties = 0
    for (let q = 0; q < 1500; q++) {
      const L = (next() % 10001) / 100
      const a = (next() % 20001) / 100 - 100
      const b = (next() % 20001) / 100 - 100
      const scan = nearestByScan(lab, L, a, b)
      assert.deepEqual(index.nearest(L, a, b), scan)
      // A query on a stored point whose value appears twice must name the first copy.
      const p = next() % n
      const onPoint = index.nearest(lab[3 * p]!, lab[3 * p + 1]!, lab[3 * p + 2]!)
      const scanOnPoint = nearestByScan(lab, lab[3 * p]!, lab[3 * p + 1]!, lab[3 * p + 2]!)
      assert.deepEqual(onPoint, scanOnPoint)
      assert.equal(onPoint.distance, 0)
      if (scanOnPoint.index !== p) ties++
    }
    assert.ok(ties > 0, 'the data set must contain duplicate points for the tie check to mean anything')
  })

  it('refuses an empty set', () => {
    assert.throws(() => createNearestIndex(new Float64Array(0)), /at least one/)
  })
})
