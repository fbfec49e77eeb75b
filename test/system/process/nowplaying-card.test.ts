// /gen/nowplaying against the built server over real sockets (issue 40, item 3): the card
// with album art from a loopback image server (allowed through REMOTE_FETCH_ALLOW),
// tinted by the art's dominant colour when no accent is given, mirrored in Arabic, and a
// bad value a 400 naming its field.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { assertErrorEnvelope } from '../../support/envelope.js'
import { tempDir } from '../../support/helpers.js'
import { type ImageServer, startImageServer } from '../../support/image-server.js'
import { request, type ServerProcess, startServerProcess } from '../../support/processes.js'

const KEY = 'nowplaying-card-key-0123456789abcd'

describe('/gen/nowplaying against the built server', () => {
  let server: ServerProcess | undefined
  let images: ImageServer | undefined
  let origin: string
  let dataDir: string
  before(async () => {
    // Red art and green art: each card takes its own tint.
    const red = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#d02020' } }).png().toBuffer()
    const green = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#20a040' } }).png().toBuffer()
    images = await startImageServer({ '/green.png': green }, red)
    origin = images.origin
    dataDir = tempDir('uma-nowplaying-card-')
    server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn', REMOTE_FETCH_ALLOW: '127.0.0.1', WORK_TIMEOUT_MS: '30000' })
  })
  after(async () => {
    // The image server is closed even when the server did not start.
    images?.close()
    await server?.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  const draw = async (body: unknown) => await request(`${server!.url}/gen/nowplaying`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  /** The card's colour at its top right corner: the tint. */
  const corner = async (png: Buffer): Promise<number[]> => [...(await sharp(png).extract({ left: 990, top: 5, width: 1, height: 1 }).removeAlpha().raw().toBuffer())]

  it('draws 1000×300 with the art\'s dominant colour as its tint, in either theme', async () => {
    const fields = { title: 'Clair de lune', artist: 'Debussy', elapsed: '1:35', duration: 302, next: 'Gymnopédie', queue: 4 }
    const red = await draw({ ...fields, album_art: `${origin}/red.png` })
    assert.equal(red.status, 200, red.body.toString().slice(0, 300))
    assert.equal(red.headers['content-type'], 'image/png')
    const meta = await sharp(red.body).metadata()
    assert.deepEqual([meta.width, meta.height], [1000, 300])
    const [r, g, b] = await corner(red.body)
    assert.ok(r! > g! && r! > b!, `a red tint, got ${[r, g, b].join(',')}`)
    const green = await draw({ ...fields, album_art: `${origin}/green.png`, theme: 'light' })
    assert.equal(green.status, 200)
    const [r2, g2, b2] = await corner(green.body)
    // Light: the art's colour (32,160,64) taken at least halfway to white in every channel
    // (the light theme mixes it with 70% to 90% white, top to bottom), and still green.
    const art = [0x20, 0xa0, 0x40]
    assert.ok(g2! > r2! && g2! > b2! && [r2!, g2!, b2!].every((c, i) => c >= art[i]! + (255 - art[i]!) / 2), `a light green tint, got ${[r2, g2, b2].join(',')}`)
    // A colour given wins over the art's.
    const blue = await draw({ ...fields, album_art: `${origin}/red.png`, accent: 'blue' })
    const [r3, , b3] = await corner(blue.body)
    assert.ok(b3! > r3!, `a blue tint, got ${String(await corner(blue.body))}`)
  })

  it('puts the art on the right in Arabic, on the left in every other locale', async () => {
    const at = async (png: Buffer, x: number): Promise<number[]> => [...(await sharp(png).extract({ left: x, top: 150, width: 1, height: 1 }).removeAlpha().raw().toBuffer())]
    const red = [0xd0, 0x20, 0x20]
    const fields = { title: 'سهرت الليل', artist: 'فيروز', album_art: `${origin}/red.png`, elapsed: 83, duration: 213 }
    for (const locale of ['en-US', 'ko', 'ar']) {
      const res = await draw({ ...fields, locale })
      assert.equal(res.status, 200, res.body.toString().slice(0, 300))
      // The art is 240 wide, 30 from its side of the card.
      const [art, other] = locale === 'ar' ? [850, 150] : [150, 850]
      assert.deepEqual(await at(res.body, art), red, `${locale}: the art at x ${art}`)
      assert.notDeepEqual(await at(res.body, other), red, `${locale}: the art at x ${other} too`)
    }
  })

  it('answers 400 naming the field for each bad value', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ locale: 'xx' }, 'locale', 'UNKNOWN_LOCALE'],
      [{ elapsed: '4:00', duration: '3:00' }, 'elapsed', 'VALIDATION'],
      [{ duration: '1:75' }, 'duration', 'VALIDATION'],
      [{ duration: 100_000 }, 'duration', 'VALIDATION'],
      [{ theme: 'neon' }, 'theme', 'VALIDATION'],
      [{ queue: -1 }, 'queue', 'VALIDATION'],
      [{ accent: '#12' }, 'accent', 'INVALID_COLOR']
    ]
    for (const [body, field, error] of cases) {
      assertErrorEnvelope(await draw({ title: 'x', ...body }), 400, error, { field })
    }
  })

  it('stays healthy and logs no error', async () => {
    assert.equal((await request(`${server!.url}/healthz`)).status, 200)
    assert.doesNotMatch(server!.output(), /"level":(50|60)/)
  })
})
