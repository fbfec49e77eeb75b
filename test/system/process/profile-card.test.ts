// /gen/profile against the built server over real sockets (issue 40, item 2): the card
// with an avatar, a decoration and badges fetched from a loopback image server (allowed
// through REMOTE_FETCH_ALLOW) and the operator's named icons; its height follows what it
// shows, the small size is two thirds of it, badges come as a JSON array or separated by
// commas, Arabic mirrors the card, and a bad value is a 400 naming its field.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { assertErrorEnvelope } from '../../support/envelope.js'
import { tempDir } from '../../support/helpers.js'
import { type ImageServer, startImageServer } from '../../support/image-server.js'
import { request, type ServerProcess, startServerProcess } from '../../support/processes.js'

const KEY = 'profile-card-key-0123456789abcdef'

describe('/gen/profile against the built server', () => {
  let server: ServerProcess | undefined
  let images: ImageServer | undefined
  let origin: string
  let dataDir: string
  let served: string[] = []
  before(async () => {
    const avatar = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#3366cc' } }).png().toBuffer()
    const badge = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#ff0000' } }).png().toBuffer()
    // A decoration: an opaque ring, clear inside, as Discord's are.
    const ring = Buffer.alloc(120 * 120 * 4)
    for (let i = 0; i < 120 * 120; i++) if (Math.abs(Math.hypot((i % 120) - 59.5, Math.floor(i / 120) - 59.5) - 54) < 4) ring.set([250, 200, 60, 255], i * 4)
    const frame = await sharp(ring, { raw: { width: 120, height: 120, channels: 4 } }).png().toBuffer()
    const files: Record<string, Buffer> = { '/avatar.png': avatar, '/badge.png': badge, '/frame.png': frame }
    images = await startImageServer(files, avatar)
    origin = images.origin
    served = images.served
    dataDir = tempDir('uma-profile-card-')
    server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn', REMOTE_FETCH_ALLOW: '127.0.0.1', WORK_TIMEOUT_MS: '30000' })
  })
  after(async () => {
    // The image server is closed even when the server did not start.
    images?.close()
    await server?.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  const draw = async (body: unknown) => await request(`${server!.url}/gen/profile`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) })

  it('draws the whole card from the caller\'s images and the named icons, 800×450', async () => {
    const res = await draw({ display_name: 'Ada ✨', username: 'ada', avatar: `${origin}/avatar.png`, decoration: `${origin}/frame.png`, status: 'dnd', badges: `crown, ${origin}/badge.png`, subtitle: 'Hello', member_since: '2021-03-14', level: 12, rank: 3, xp: 8420, max_xp: 12000 })
    assert.equal(res.status, 200, res.body.toString().slice(0, 300))
    assert.equal(res.headers['content-type'], 'image/png')
    const meta = await sharp(res.body).metadata()
    assert.deepEqual([meta.width, meta.height], [800, 450])
    assert.ok(['/avatar.png', '/badge.png', '/frame.png'].every((file) => served.includes(file)), served.join(' '))
    // The avatar's own blue at its centre (150, 200 of the layout, drawn at 5/6).
    const { data } = await sharp(res.body).extract({ left: 125, top: 167, width: 1, height: 1 }).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    assert.deepEqual([...data], [0x33, 0x66, 0xcc])
  })

  it('is as high as what it shows, and 600 wide small', async () => {
    const names = await draw({ username: 'Bob', output: 'png' })
    assert.equal(names.status, 200)
    assert.deepEqual(await size(names.body), [800, 300])
    const small = await request(`${server!.url}/gen/profile?username=Bob&size=small&level=3&output=webp`, { headers: { authorization: KEY } })
    assert.equal(small.status, 200)
    assert.equal(small.headers['content-type'], 'image/webp')
    assert.deepEqual(await size(small.body), [600, 281])
  })

  /** The colour at x, y of a PNG. */
  async function pixel (png: Buffer, x: number, y: number): Promise<number[]> {
    return [...await sharp(png).extract({ left: x, top: y, width: 1, height: 1 }).removeAlpha().raw().toBuffer()]
  }
  /** The second of two badges: 874..910 × 230..266 of the layout, its middle drawn at 5/6 (743, 207). */
  const SECOND_BADGE = { x: 743, y: 207 }

  it('takes badges as a JSON array in a POST body and in the JSON body clients send with GET: the picture of the same badges separated by commas', async () => {
    const commas = await draw({ username: 'Bob', badges: `crown, ${origin}/badge.png` })
    assert.equal(commas.status, 200, commas.body.toString().slice(0, 300))
    assert.deepEqual(await pixel(commas.body, SECOND_BADGE.x, SECOND_BADGE.y), [255, 0, 0])
    const array = await draw({ username: 'Bob', badges: ['crown', `${origin}/badge.png`] })
    assert.equal(array.status, 200, array.body.toString().slice(0, 300))
    assert.ok(array.body.equals(commas.body), 'the array drew another picture than the commas')
    for (const headers of [{ 'content-type': 'text/plain; charset=utf-8' }, { 'content-type': 'application/json' }] as Array<Record<string, string>>) {
      const body = JSON.stringify({ Username: 'Bob', Badges: ['crown', `${origin}/badge.png`] })
      const res = await request(`${server!.url}/gen/profile`, { method: 'GET', headers: { authorization: KEY, 'content-length': String(Buffer.byteLength(body)), ...headers }, body })
      assert.equal(res.status, 200, res.body.toString().slice(0, 300))
      assert.ok(res.body.equals(commas.body), `GET with ${headers['content-type']}: another picture`)
    }
    // Arabic mirrors the card: the badges on the left, the first nearest the name, the second left of it.
    const arabic = await draw({ username: 'Bob', badges: ['crown', `${origin}/badge.png`], locale: 'ar' })
    assert.equal(arabic.status, 200, arabic.body.toString().slice(0, 300))
    assert.deepEqual(await pixel(arabic.body, 800 - 1 - SECOND_BADGE.x, SECOND_BADGE.y), [255, 0, 0])
  })

  it('answers 400 naming the field for each bad value', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ locale: 'xx' }, 'locale', 'UNKNOWN_LOCALE'],
      [{ status: 'busy' }, 'status', 'VALIDATION'],
      [{ size: 'huge' }, 'size', 'VALIDATION'],
      [{ avatar_shape: 'hexagon' }, 'avatar_shape', 'VALIDATION'],
      [{ banner_blur: 41 }, 'banner_blur', 'VALIDATION'],
      [{ banner_brightness: '-1' }, 'banner_brightness', 'VALIDATION'],
      [{ level: 'twelve' }, 'level', 'VALIDATION'],
      [{ member_since: 'yesterday' }, 'member_since', 'VALIDATION'],
      [{ badges: Array.from({ length: 13 }, () => 'star').join(',') }, 'badges', 'VALIDATION'],
      [{ badges: 'star,no-such-icon' }, 'badges', 'UNKNOWN_ASSET'],
      [{ badges: Array.from({ length: 13 }, () => 'star') }, 'badges', 'VALIDATION'],
      [{ badges: ['star', 'heart', null] }, 'badges[2]', 'VALIDATION'],
      [{ badges: ['star', ' '] }, 'badges[1]', 'VALIDATION'],
      [{ badges: ['star', 'no-such-icon'] }, 'badges', 'UNKNOWN_ASSET'],
      [{ accent: 'not-a-colour' }, 'accent', 'INVALID_COLOR']
    ]
    for (const [body, field, error] of cases) {
      assertErrorEnvelope(await draw({ username: 'Bob', ...body }), 400, error, { field })
    }
    // An item that is no string is refused by the body's schema, its place named.
    assertErrorEnvelope(await draw({ username: 'Bob', badges: ['star', 'heart', { url: 'x' }] }), 400, 'VALIDATION', { message: /"badges\.2"/ })
    // The query string keeps its commas; an array's JSON text there is read as the body's.
    const query = await request(`${server!.url}/gen/profile?username=Bob&badges=${encodeURIComponent('["star",7]')}`, { headers: { authorization: KEY } })
    assertErrorEnvelope(query, 400, 'VALIDATION', { field: 'badges[1]' })
  })

  it('stays healthy and logs no error', async () => {
    assert.equal((await request(`${server!.url}/healthz`)).status, 200)
    assert.doesNotMatch(server!.output(), /"level":(50|60)/)
  })
})

async function size (png: Buffer): Promise<[number | undefined, number | undefined]> {
  const meta = await sharp(png).metadata()
  return [meta.width, meta.height]
}
