// Test images, made here with sharp from one known picture, so every expected pixel
// is computed rather than stored.
import zlib from 'node:zlib'
import sharp, { type CreateRaw, type Metadata, type Sharp } from 'sharp'

export const WIDTH = 64
export const HEIGHT = 48

/** A picture with structure in every channel: gradients plus a dark square. */
export function sourcePixels (width = WIDTH, height = HEIGHT): Buffer {
  const px = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3
      const inSquare = x >= 8 && x < 24 && y >= 8 && y < 24
      px[i] = inSquare ? 20 : Math.round((x / (width - 1)) * 255)
      px[i + 1] = inSquare ? 20 : Math.round((y / (height - 1)) * 255)
      px[i + 2] = inSquare ? 200 : 128
    }
  }
  return px
}

export function source (): Sharp {
  return sharp(sourcePixels(), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
}

/** The source encoded in every input format the endpoints accept; `lossless` inputs decode to exactly the source. */
export async function inputs (): Promise<Array<{ name: string, bytes: Buffer, lossless: boolean }>> {
  return [
    { name: 'JPEG', bytes: await source().jpeg({ quality: 95 }).toBuffer(), lossless: false },
    { name: 'PNG', bytes: await source().png().toBuffer(), lossless: true },
    { name: 'WebP', bytes: await source().webp({ lossless: true }).toBuffer(), lossless: true },
    { name: 'GIF', bytes: await source().gif().toBuffer(), lossless: false },
    { name: 'AVIF', bytes: await source().avif({ quality: 90 }).toBuffer(), lossless: false },
    { name: 'TIFF', bytes: await source().tiff({ compression: 'lzw' }).toBuffer(), lossless: true }
  ]
}

/** Mean absolute difference per channel value between two RGB buffers of one size. */
export function meanAbsDiff (a: Buffer, b: Buffer): number {
  if (a.length !== b.length) throw new Error(`sizes differ: ${a.length} vs ${b.length}`)
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!)
  return sum / a.length
}

/** Decodes an answer to RGB pixels (alpha dropped) with its metadata. */
export async function decode (bytes: Buffer): Promise<{ meta: Metadata, rgb: Buffer }> {
  const meta = await sharp(bytes).metadata()
  const rgb = await sharp(bytes).removeAlpha().toColourspace('srgb').raw().toBuffer()
  return { meta, rgb }
}

/** An animation of `frames` frames of width×height, frame i filled with grey level i*step. */
export async function animation (format: 'gif' | 'webp', frames: number, width: number, height: number, step = 60): Promise<Buffer> {
  const px = Buffer.alloc(width * height * frames * 3)
  for (let f = 0; f < frames; f++) px.fill((f * step) % 256, f * width * height * 3, (f + 1) * width * height * 3)
  const img = sharp(px, { raw: { width, height: height * frames, channels: 3, pageHeight: height } as CreateRaw })
  const delay = new Array(frames).fill(100)
  return format === 'gif' ? img.gif({ delay, loop: 0 }).toBuffer() : img.webp({ delay, loop: 0, lossless: true }).toBuffer()
}

/** A GIF of `frames` 16×1 frames, each a different black-and-white pattern (encoders merge equal frames). */
export async function manyFrameGif (frames: number): Promise<Buffer> {
  const width = 16
  const px = Buffer.alloc(width * frames * 3)
  for (let f = 0; f < frames; f++) {
    for (let x = 0; x < width; x++) px.fill((f >> x) & 1 ? 255 : 0, (f * width + x) * 3, (f * width + x + 1) * 3)
  }
  return sharp(px, { raw: { width, height: frames, channels: 3, pageHeight: 1 } as CreateRaw })
    .gif({ delay: new Array(frames).fill(20), loop: 0 }).toBuffer()
}

function chunk (type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(zlib.crc32(body))
  return Buffer.concat([len, body, crc])
}

/** A PNG of a few hundred bytes whose header declares width×height (a decompression bomb). */
export function bombPng (width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 0 // greyscale
  // Rows of zeros compress to almost nothing: a few rows are enough to look real.
  const idat = zlib.deflateSync(Buffer.alloc((width + 1) * 4))
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))])
}

/** A multipart/form-data body with the given parts. */
export function multipart (parts: Array<{ name: string, filename?: string, type?: string, data: Buffer | string }>): { body: Buffer, contentType: string } {
  const boundary = '----uma-test-boundary-7d9f'
  const chunks: Buffer[] = []
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`
    if (part.filename !== undefined) head += `; filename="${part.filename}"`
    head += '\r\n'
    if (part.type !== undefined) head += `Content-Type: ${part.type}\r\n`
    chunks.push(Buffer.from(head + '\r\n'), Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data), Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}
