// What inspectGif says of a file that is not a GIF: the source-image gate's one table of
// signatures (src/images/sniff.ts) names what it is.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import sharp from 'sharp'
import { GifInvalidError, inspectGif } from '../../../src/gifs/gif-info.js'

async function reason (bytes: Uint8Array): Promise<string> {
  try {
    await inspectGif(bytes)
  } catch (err) {
    assert.ok(err instanceof GifInvalidError, String(err))
    return err.message
  }
  assert.fail('expected a GifInvalidError')
}

describe('inspectGif: not a GIF', () => {
  it('names every format the signatures know (it named PNG, JPEG, WebP and BMP only)', async () => {
    const picture = sharp({ create: { width: 3, height: 2, channels: 3, background: '#336699' } })
    assert.equal(await reason(await picture.clone().png().toBuffer()), 'not a GIF: it is a PNG image')
    assert.equal(await reason(await picture.clone().webp().toBuffer()), 'not a GIF: it is a WebP image')
    assert.equal(await reason(await picture.clone().tiff().toBuffer()), 'not a GIF: it is a TIFF image')
    assert.equal(await reason(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), 'not a GIF: it is an SVG image')
    assert.equal(await reason(Buffer.from('%PDF-1.4\n%%EOF\n')), 'not a GIF: it is a PDF image')
  })

  it('does not call any RIFF file a WebP (a WAV is no image)', async () => {
    const wav = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'), Buffer.alloc(28)])
    assert.equal(await reason(wav), 'not a GIF: the file does not start with a GIF signature')
  })

  it('takes a GIF signature in a file too short to be one as a corrupt GIF, not as something else', async () => {
    assert.match(await reason(Buffer.from('GIF89a\x01\x00\x01', 'latin1')), /^corrupt GIF: /)
  })
})
