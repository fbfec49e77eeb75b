import { createCanvas, loadImage } from '@napi-rs/canvas'
import { CompressionType, FilterType, Transformer } from '@napi-rs/image'
import sharp from 'sharp'
import { drawn } from './src/generation/drawable.js'
import { isFlat, encodeSync } from './src/generation/canvas/draw.js'
import { createDrawingFonts } from './src/generation/text/font-loading.js'
import { templateByName } from './src/generation/template-registry.js'
import { createCanvasPool } from './src/generation/canvas/canvas-pool.js'
import type { ImageSource } from './src/generation/assets/image-source.js'

const avatarBytes = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#3366cc' } }).png().toBuffer()
const fonts = createDrawingFonts()
const fields = { username: 'Benchmark User', level: '12', rank: '3', xp: '8420', max_xp: '12000', background: '#23272a', avatar: 'http://x/a.png' }
let avatar = await loadImage(avatarBytes)
const source: ImageSource = { url: async () => avatar, assetOrUrl: async () => avatar, image: async () => avatar, emoji: async () => undefined }
const pool = createCanvasPool()
function time (name: string, fn: () => unknown, n = 40): void {
  for (let i = 0; i < 5; i++) fn()
  const t0 = process.cpuUsage()
  for (let i = 0; i < n; i++) fn()
  const u = process.cpuUsage(t0)
  console.log(name.padEnd(40), ((u.user + u.system) / 1000 / n).toFixed(3), 'ms cpu')
}
const tpl = templateByName('rank')!
const draw = await tpl.prepare({ fonts, images: source }, fields)
const canvas = draw(pool.acquire, drawn)
for (let r = 0; r < 2; r++) {
time('draw on pooled canvas', () => { const c = draw(pool.acquire, drawn); pool.release(c) })
const ctx = canvas.getContext('2d')
time('getImageData', () => ctx.getImageData(0, 0, canvas.width, canvas.height))
const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height)
time('canvas.data()', () => canvas.data())
time('isFlat', () => isFlat(data, width, height))
time('Transformer.fromRgbaPixels', () => Transformer.fromRgbaPixels(data, width, height))
time('pngSync fast adaptive', () => Transformer.fromRgbaPixels(data, width, height).pngSync({ compressionType: CompressionType.Fast, filterType: FilterType.Adaptive }))
time('pngSync fast nofilter', () => Transformer.fromRgbaPixels(data, width, height).pngSync({ compressionType: CompressionType.Fast, filterType: FilterType.NoFilter }))
time('pngSync fast sub', () => Transformer.fromRgbaPixels(data, width, height).pngSync({ compressionType: CompressionType.Fast, filterType: FilterType.Sub }))
time('encodeSync png (ours)', () => encodeSync(canvas, 'png'))
time('skia png', () => canvas.encodeSync('png'))
console.log('bytes adaptive', Transformer.fromRgbaPixels(data, width, height).pngSync({ compressionType: CompressionType.Fast, filterType: FilterType.Adaptive }).length, 'nofilter', Transformer.fromRgbaPixels(data, width, height).pngSync({ compressionType: CompressionType.Fast, filterType: FilterType.NoFilter }).length, 'sub', Transformer.fromRgbaPixels(data, width, height).pngSync({ compressionType: CompressionType.Fast, filterType: FilterType.Sub }).length)
}
