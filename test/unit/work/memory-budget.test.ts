// The bytes conversions running at once may hold together (src/work/memory-budget.ts), and
// conversions reserving them on their libvips lane between the header and the decoding
// (IMAGE_MEMORY, src/work/work.ts).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import sharp, { type SharpOptions } from 'sharp'
import { BYTES_PER_PIXEL, conversionBytes, createImageConverter } from '../../../src/conversion/image/convert.js'
import { WHITE } from '../../../src/conversion/image/background.js'
import { IMAGE_PRIORS } from '../../../src/conversion/image/routes.js'
import { createMemoryBudget } from '../../../src/work/memory-budget.js'
import { createWork } from '../../../src/work/work.js'
import { tempDir } from '../../support/helpers.js'

const settle = async (): Promise<void> => { for (let i = 0; i < 5; i++) await Promise.resolve() }

describe('the memory budget', () => {
  it('lets jobs in while they fit, and the next one when enough is given back', async () => {
    const budget = createMemoryBudget(100)
    const a = await budget.reserve(60)
    const b = await budget.reserve(40)
    let cGranted = false
    const c = budget.reserve(30).then((release) => { cGranted = true; return release })
    await settle()
    assert.equal(cGranted, false, 'a job was let in beyond the budget')
    assert.equal(budget.waiting, 1)
    b()
    b() // given back once only
    const releaseC = await c
    assert.equal(cGranted, true)
    assert.equal(budget.held, 90)
    a()
    releaseC()
    assert.equal(budget.held, 0)
  })

  it('serves in arrival order: a large job waiting is not overtaken by small ones', async () => {
    const budget = createMemoryBudget(100)
    const first = await budget.reserve(50)
    const order: string[] = []
    const large = budget.reserve(80).then((r) => { order.push('large'); return r })
    const small = budget.reserve(10).then((r) => { order.push('small'); return r })
    await settle()
    assert.deepEqual(order, [], 'the small job overtook the large one waiting before it')
    first()
    ;(await large)()
    ;(await small)()
    assert.deepEqual(order, ['large', 'small'])
  })

  it('runs a job larger than the whole budget alone, once nothing else holds any', async () => {
    const budget = createMemoryBudget(100)
    const small = await budget.reserve(10)
    let granted = false
    const huge = budget.reserve(500).then((r) => { granted = true; return r })
    await settle()
    assert.equal(granted, false)
    small()
    const release = await huge
    assert.equal(budget.held, 500)
    let next = false
    const after = budget.reserve(1).then((r) => { next = true; return r })
    await settle()
    assert.equal(next, false, 'a job ran beside the one larger than the budget')
    release()
    ;(await after)()
  })

  it('gives up waiting when the request is answered, and lets the next ones in', async () => {
    const budget = createMemoryBudget(100)
    const first = await budget.reserve(90)
    const answered = new AbortController()
    const waiting = budget.reserve(50, answered.signal)
    const behind = budget.reserve(10)
    answered.abort(new Error('answered'))
    await assert.rejects(waiting, /answered/)
    ;(await behind)()
    first()
    assert.equal(budget.held, 0)
    assert.equal(budget.waiting, 0)
    await assert.rejects(budget.reserve(1, answered.signal), /answered/)
  })
})

describe('conversions under the budget', () => {
  it('reserve what their output holds per pixel of the input', () => {
    assert.equal(conversionBytes(1000, 'webp', 80), 1000 * BYTES_PER_PIXEL.webp)
    assert.equal(conversionBytes(1000, 'jpeg', 80), 1000 * BYTES_PER_PIXEL.jpeg)
    assert.equal(conversionBytes(1000, 'png', undefined), 1000 * BYTES_PER_PIXEL.png)
    assert.equal(conversionBytes(1000, 'png', 50), 1000 * BYTES_PER_PIXEL.pngPalette)
  })

  it('take turns when two do not fit together, each decoded only once its memory is reserved', async () => {
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: 'teal' } }).png().toBuffer()
    // Two lanes: only the memory keeps the conversions apart.
    const work = createWork({
      threads: 1,
      timeoutMs: 0,
      dataDir: tempDir('uma-memory-'),
      libvips: { lanes: 2, memoryBytes: conversionBytes(400 * 300, 'webp', 80) + 1 },
      priors: { threads: {}, libvips: IMAGE_PRIORS }
    })
    // Records each decoding (the pipeline's load, after the header's) with what the budget held then.
    const decodedWhile: number[] = []
    const load = ((input: Buffer, options?: SharpOptions) => {
      if (options?.limitInputPixels !== false) decodedWhile.push(work.stats.memoryHeld)
      return sharp(input, options)
    }) as typeof sharp
    const converter = createImageConverter({ maxPixels: 1e6, maxFrames: 10, timeoutMs: 5000 }, load)
    try {
      // As the route runs them (src/conversion/image/routes.ts): inspect, admit, reserve, encode.
      const [a, b] = await Promise.all([0, 1].map(async () => {
        const asked = { format: 'webp' as const, background: WHITE }
        const source = await converter.inspect(png)
        const planned = converter.plan(source, asked)
        return await work.run('libvips', { kind: planned.encoder, units: planned.pixels }, { signal: new AbortController().signal, busy: 'IMAGE_BUSY' }, async (lane) => {
          await lane.reserve(planned.bytes)
          return await converter.encode(png, source, asked)
        })
      }))
      assert.equal(a!.width, 400)
      assert.equal(b!.width, 400)
      assert.deepEqual(decodedWhile, [conversionBytes(400 * 300, 'webp', 80), conversionBytes(400 * 300, 'webp', 80)],
        'a conversion decoded beside another though both did not fit')
      assert.equal(work.stats.memoryHeld, 0, 'memory was not given back')
    } finally {
      await work.close()
    }
  })
})
