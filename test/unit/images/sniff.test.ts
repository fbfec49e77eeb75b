// The one table of image signatures (src/images/sniff.ts): every magic it knows, what
// counts as readable (handed to libvips), and what it must not mistake for an image.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import sharp from 'sharp'
import { imageName, MIN_READABLE_BYTES, sniff, sniffRefused } from '../../../src/images/sniff.js'

/** `head` padded with zeros to `length` bytes. */
function padded (head: string | number[], length = 32): Buffer {
  const bytes = Buffer.alloc(length)
  Buffer.from(typeof head === 'string' ? Buffer.from(head, 'latin1') : head).copy(bytes)
  return bytes
}

/** An ISO base media file (HEIF, MP4) of major brand `brand`. */
function ftyp (brand: string): Buffer {
  return padded(`\x00\x00\x00\x18ftyp${brand}`)
}

const READABLE: Array<[string, Buffer]> = [
  ['JPEG', padded([0xff, 0xd8, 0xff, 0xe0])],
  ['PNG', padded('\x89PNG\r\n\x1a\n')],
  ['WebP', padded('RIFF\x00\x00\x00\x00WEBPVP8 ')],
  ['GIF', padded('GIF87a')],
  ['GIF', padded('GIF89a')],
  ['TIFF', padded('II\x2a\x00')],
  ['TIFF', padded('MM\x00\x2a')],
  ['TIFF', padded('II\x2b\x00')], // BigTIFF
  ['TIFF', padded('MM\x00\x2b')],
  ['HEIF', ftyp('avif')],
  ['HEIF', ftyp('avis')],
  ['HEIF', ftyp('mif1')],
  ['HEIF', ftyp('msf1')]
]

const REFUSED: Array<[string, Buffer]> = [
  ['BMP', padded('BM')],
  ['ICO', padded([0, 0, 1, 0])],
  ['PSD', padded('8BPS')],
  ['PDF', padded('%PDF-1.7')],
  ['HEIC', ftyp('heic')],
  ['HEIC', ftyp('hevx')],
  ['video', ftyp('isom')],
  ['video', ftyp('qt  ')],
  ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
  ['SVG', Buffer.from('<?xml version="1.0"?>\n<!DOCTYPE svg>\n<svg/>')],
  ['SVG', Buffer.from('\ufeff  \n<!-- a comment --><SVG/>')]
]

describe('sniff: the signatures', () => {
  it('names each readable format from its magic, readable from 12 bytes on', () => {
    for (const [format, bytes] of READABLE) assert.deepEqual(sniff(bytes), { format, readable: true }, bytes.toString('latin1', 0, 12))
  })

  it('names each refused format from its magic, never readable', () => {
    for (const [format, bytes] of REFUSED) assert.deepEqual(sniff(bytes), { format, readable: false }, bytes.toString('latin1', 0, 12))
  })

  it('recognises what sharp writes in every readable format', async () => {
    const picture = sharp({ create: { width: 3, height: 2, channels: 3, background: '#336699' } })
    const written: Array<[string, Buffer]> = [
      ['JPEG', await picture.clone().jpeg().toBuffer()],
      ['PNG', await picture.clone().png().toBuffer()],
      ['WebP', await picture.clone().webp().toBuffer()],
      ['GIF', await picture.clone().gif().toBuffer()],
      ['TIFF', await picture.clone().tiff().toBuffer()],
      ['HEIF', await picture.clone().avif().toBuffer()]
    ]
    for (const [format, bytes] of written) assert.deepEqual(sniff(bytes), { format, readable: true }, format)
  })

  it('reads a view into a larger buffer from the view\'s start', () => {
    const backing = Buffer.concat([Buffer.from('junk'), padded('GIF89a')])
    assert.deepEqual(sniff(new Uint8Array(backing.buffer, backing.byteOffset + 4, 32)), { format: 'GIF', readable: true })
  })
})

describe('sniff: what is not an image', () => {
  it('answers undefined for no bytes, text, random bytes and look-alikes', () => {
    const others = [
      Buffer.alloc(0),
      Buffer.from('just some text, not an image'),
      Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]),
      Buffer.from('<html><body>not a picture</body></html>'),
      padded('RIFF\x00\x00\x00\x00WAVEfmt '), // a RIFF that is not WebP
      padded('GIF90a'),
      padded('II\x2c\x00'), // TIFF byte order, unknown version
      ftyp('mp3x'),
      Buffer.from('BM') // shorter than a bitmap's file header
    ]
    for (const bytes of others) assert.equal(sniff(bytes), undefined, bytes.toString('latin1', 0, 16))
  })

  it('names a readable signature in fewer than 12 bytes without calling it readable', () => {
    assert.equal(MIN_READABLE_BYTES, 12)
    for (const [format, bytes] of READABLE) {
      const length = format === 'WebP' || format === 'HEIF' ? 12 : MIN_READABLE_BYTES - 1
      const short = bytes.subarray(0, length)
      const expected = length < MIN_READABLE_BYTES ? { format, readable: false } : { format, readable: true }
      assert.deepEqual(sniff(short), expected, `${format}, ${length} bytes`)
    }
    // A JPEG's three magic bytes: libvips would answer them as a corrupt JPEG, not as no image.
    assert.deepEqual(sniff(Buffer.from([0xff, 0xd8, 0xff])), { format: 'JPEG', readable: false })
    assert.deepEqual(sniff(Buffer.from('GIF89a')), { format: 'GIF', readable: false })
    // Exactly 12 bytes is enough.
    assert.deepEqual(sniff(padded([0xff, 0xd8, 0xff], 12)), { format: 'JPEG', readable: true })
  })
})

describe('sniffRefused and imageName', () => {
  it('names the refused format only, a brand HEIF and HEIC share as HEIC', () => {
    assert.equal(sniffRefused(ftyp('mif1')), 'HEIC')
    assert.equal(sniffRefused(ftyp('avif')), undefined)
    assert.equal(sniffRefused(padded('\x89PNG\r\n\x1a\n')), undefined)
    for (const [format, bytes] of REFUSED) assert.equal(sniffRefused(bytes), format)
    assert.equal(sniffRefused(Buffer.alloc(0)), undefined)
  })

  it('says "a" or "an" as the letters are read', () => {
    assert.deepEqual(['PNG', 'JPEG', 'GIF', 'BMP', 'SVG', 'HEIC', 'ICO', 'AVIF', 'video'].map(imageName),
      ['a PNG image', 'a JPEG image', 'a GIF image', 'a BMP image', 'an SVG image', 'an HEIC image', 'an ICO image', 'an AVIF image', 'a video'])
  })
})
