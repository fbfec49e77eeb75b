// The colours of a picture (/color/image): the shrunk decode by source size (what
// COLOR_IMAGE_PRIORS in src/colors/picture-routes.ts estimates), against sharp's own
// stats(), which decodes every pixel (the `dominant` it gives is its reference); and the
// colour maths on the decoded 100×100 (palette, average, ThumbHash, names).
import sharp from 'sharp'
import { createColorCatalog } from '../src/colors/catalog.js'
import { pictureColors } from '../src/colors/picture-colors.js'
import { checkPicture, decodePicture } from '../src/colors/picture-pixels.js'
import { type Benchmark, type BenchRow, median } from './harness.js'

/** Noise in colour bands: no shortcut for any decoder or the palette. */
async function picture (width: number, height: number, format: 'png' | 'jpeg'): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3)
  let x = 7
  for (let i = 0; i < raw.length; i++) { x = (x * 1103515245 + 12345) >>> 0; raw[i] = ((i / 3 / width) % 256) ^ (x >>> 28) }
  const image = sharp(raw, { raw: { width, height, channels: 3 } })
  return await (format === 'png' ? image.png({ compressionLevel: 1 }) : image.jpeg()).toBuffer()
}

async function timeMs (fn: () => Promise<unknown> | unknown, runs: number): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const from = performance.now()
    await fn()
    times.push(performance.now() - from)
  }
  return median(times)
}

const bench: Benchmark = {
  name: 'Colours of a picture (/color/image)',
  async run ({ quick }) {
    const rows: BenchRow[] = []
    const runs = quick ? 3 : 9
    for (const [width, height, format] of [[256, 256, 'png'], [1000, 1000, 'png'], [4000, 3000, 'jpeg'], [4000, 3000, 'png']] as const) {
      const bytes = await picture(width, height, format)
      const header = await checkPicture(bytes)
      const ours = await timeMs(() => decodePicture(bytes, header), runs)
      const reference = await timeMs(() => sharp(bytes).stats(), runs)
      rows.push({
        name: `gate + shrunk decode, ${width}×${height} ${format.toUpperCase()} (${(bytes.length / 1e6).toFixed(1)} MB)`,
        ours: ours + await timeMs(() => checkPicture(bytes), runs),
        reference,
        referenceName: 'sharp stats() (every pixel decoded)',
        unit: 'ms',
        better: 'lower',
        note: `${(ours / (width * height) * 1e6).toFixed(2)} ms per megapixel decoded`
      })
    }
    const catalog = createColorCatalog()
    const pixels = await decodePicture(await picture(1000, 1000, 'png'), { width: 1000, height: 1000 })
    rows.push({
      name: 'palette + average + ThumbHash + names, on the decoded 100×100',
      ours: await timeMs(() => pictureColors(pixels, (c) => catalog.nearest(c).color.name), runs * 3),
      unit: 'ms',
      better: 'lower'
    })
    return rows
  }
}

export default bench
