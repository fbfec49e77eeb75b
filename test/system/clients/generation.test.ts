// Client replay, image generation: the bytes existing clients send to /gen/welcome,
// /gen/custom and the lists (docs/compatibility.md), sent over a socket to the built
// server started as a process, and the answers read as those clients read them.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { asClientReads, imageOf, jsonOf, JPEG_SIGNATURE, KEY, PNG_SIGNATURE, type ReplayServer, send, startReplayServer } from './wire.js'

let s: ReplayServer
before(async () => { s = await startReplayServer() })
after(async () => { await s.close() })

const HOSTED_ICONS = ['dragon', 'dog', 'pikachu', 'cat', 'senko', 'neko', 'pepe', 'shrek', 'nyancat', 'chika']
const HOSTED_BANNERS = ['space', 'love', 'purplewave', 'mountain', 'wave', 'sunset', 'rainbow', 'swamp']

/** The welcome fields as the clients send them: all strings, no background (a production bot omits it). */
const WELCOME = JSON.stringify({ username: 'Newcomer', members: 'Member #42', icon: 'neko', banner: 'space', color_welcome: '255, 255, 255', color_username: '#ffcc00', color_members: '200,200,200' })

async function raw (png: Buffer) {
  return await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
}

/** Mean absolute difference between the welcome card's icon corner and an icon's preview scaled to it. */
async function iconDistance (card: Buffer, icon: string): Promise<number> {
  // src/generation/templates/greeting.ts draws the icon at (W - 140, 48), 88×88.
  const corner = await sharp(card).extract({ left: 1024 - 140, top: 48, width: 88, height: 88 }).removeAlpha().raw().toBuffer()
  const preview = imageOf(await send(s.port, { method: 'GET', target: `/assets/icons/${icon}.png` }))
  // The icon's transparent corners show the card behind: compare the middle of the disc only.
  const scaled = await sharp(preview).resize(88, 88).flatten({ background: '#000000' }).removeAlpha().raw().toBuffer()
  let sum = 0
  let n = 0
  for (let y = 24; y < 64; y++) {
    for (let x = 24; x < 64; x++) {
      for (let c = 0; c < 3; c++) { sum += Math.abs(corner[(y * 88 + x) * 3 + c]! - scaled[(y * 88 + x) * 3 + c]!); n++ }
    }
  }
  return sum / n
}

describe('clients of /gen/welcome', () => {
  it('C#: GET with a JSON body as text/plain; charset=utf-8, bare key, icon "neko": a PNG with our neko in the corner', async () => {
    const answer = await send(s.port, {
      method: 'GET',
      target: '/gen/welcome',
      headers: [['Authorization', KEY], ['Content-Type', 'text/plain; charset=utf-8']],
      body: WELCOME
    })
    assert.equal(answer.status, 200, answer.body.toString())
    assert.equal(answer.headers['content-type'], 'image/png')
    const png = imageOf(answer)
    assert.ok(png.subarray(0, 8).equals(PNG_SIGNATURE))
    const { info } = await raw(png)
    assert.deepEqual([info.width, info.height], [1024, 450])
    const neko = await iconDistance(png, 'neko')
    const cat = await iconDistance(png, 'cat')
    assert.ok(neko < 25 && neko * 2 < cat, `the corner is not the neko icon (distance ${neko.toFixed(1)}, to cat ${cat.toFixed(1)})`)
  })

  it('Rust: GET with a JSON body and no content type', async () => {
    const answer = await send(s.port, { method: 'GET', target: '/gen/welcome', headers: [['Authorization', KEY]], body: WELCOME })
    assert.equal(answer.status, 200, answer.body.toString())
    assert.ok(imageOf(answer).subarray(0, 8).equals(PNG_SIGNATURE))
  })

  it('Python: POST JSON to //gen/welcome (base URL ending in / joined with /gen/welcome), Bearer key', async () => {
    const answer = await send(s.port, {
      method: 'POST',
      target: '//gen/welcome',
      headers: [['Authorization', `Bearer ${KEY}`], ['Content-Type', 'application/json']],
      body: WELCOME
    })
    assert.equal(answer.status, 200, answer.body.toString())
    assert.ok(imageOf(answer).subarray(0, 8).equals(PNG_SIGNATURE))
  })

  it('draws every hosted icon and banner name, never a 400', async () => {
    for (const [field, names] of [['icon', HOSTED_ICONS], ['banner', HOSTED_BANNERS]] as const) {
      for (const name of names) {
        const answer = await send(s.port, {
          method: 'POST',
          target: '/gen/welcome',
          headers: [['Authorization', KEY], ['Content-Type', 'application/json']],
          body: JSON.stringify({ username: 'x', [field]: name, output: 'jpg' })
        })
        assert.equal(answer.status, 200, `${field} "${name}": ${answer.body.toString().slice(0, 200)}`)
        assert.ok(imageOf(answer).subarray(0, 3).equals(JPEG_SIGNATURE))
      }
    }
  })

  it('answers a bad field with a JSON error the clients recognise by its first byte', async () => {
    const answer = await send(s.port, {
      method: 'GET',
      target: '/gen/welcome',
      headers: [['Authorization', KEY], ['Content-Type', 'text/plain; charset=utf-8']],
      body: JSON.stringify({ username: 'x', icon: 'no-such-icon' })
    })
    assert.equal(answer.status, 400)
    const read = asClientReads(answer)
    assert.ok('json' in read, 'an error that does not start with {')
    assert.deepEqual([read.json.success, read.json.code], [false, 400])
    assert.match(read.json.message, /icon/)
  })
})

describe('clients of the lists and previews', () => {
  it('lists every hosted icon and banner name (one client checks names against these lists, ignoring case)', async () => {
    for (const [kind, names] of [['icons', HOSTED_ICONS], ['banners', HOSTED_BANNERS]] as const) {
      const body = jsonOf(await send(s.port, { method: 'GET', target: `/list/${kind}`, headers: [['Authorization', KEY]] }))
      assert.deepEqual([body.success, body.code, body.message], [true, 200, ''])
      for (const name of names) assert.ok(body.list.includes(name), `/list/${kind} lacks "${name}"`)
    }
  })

  it('serves the preview of a hosted icon without a key', async () => {
    const answer = await send(s.port, { method: 'GET', target: '/assets/icons/neko' })
    assert.equal(answer.status, 200)
    assert.ok(answer.body.subarray(0, 8).equals(PNG_SIGNATURE))
  })
})

/**
 * The hosted service's own C# client sends every field of its classes, set or not
 * (docs/compatibility.md, "The C# client's custom images"): these are its defaults,
 * with only the fields the user set changed.
 */
function csharpImage (set: Record<string, unknown>): Record<string, unknown> {
  return {
    url: null,
    type: null,
    path: null,
    icon: null,
    color: null,
    cut: null,
    filter: null,
    width: 0,
    height: 0,
    size: 0,
    maxwidth: 0,
    maxheight: 0,
    x: 0,
    y: 0,
    round: 0,
    radius: 0,
    rotate: 0,
    opacity: 10,
    cache: false,
    skip: false,
    ...set
  }
}

function csharpText (set: Record<string, unknown>): Record<string, unknown> {
  return {
    text: null,
    texts: null,
    size: 16,
    font: 'Sans Serif',
    color: 'white',
    back: null,
    x: 0,
    y: 0,
    align: null,
    outlinecolor: 'black',
    outlinewidth: 5,
    outlineblur: 0,
    blend: null,
    bold: false,
    italics: false,
    underline: false,
    line: 1,
    weight: 500,
    width: 0,
    unix: 0,
    snowflake: 0,
    format: null,
    skip: false,
    ...set
  }
}

const CSHARP_CUSTOM = JSON.stringify({
  Output: 'png',
  Base: csharpImage({ type: 'bitmap', width: 400, height: 240, color: '0,0,128' }),
  Images: [
    csharpImage({ type: 'bitmap', color: '255,0,0', x: 20, y: 20, width: 100, height: 60 }),
    csharpImage({ type: 'circle', color: '0,255,0', x: 200, y: 20, size: 80 }),
    csharpImage({ type: 'bitmap', color: '0,0,255', x: 300, y: 20, width: 60, height: 60, opacity: 5 }),
    csharpImage({ type: 'bitmap', color: '255,255,0', x: 0, y: 0, width: 400, height: 240, skip: true })
  ],
  Texts: [csharpText({ text: 'HELLO', x: 20, y: 130, size: 48 })],
  Global: null
})

describe('the C# client\'s /gen/custom', () => {
  let pixels: { data: Buffer, width: number }
  const at = (x: number, y: number) => [...pixels.data.subarray((y * pixels.width + x) * 3, (y * pixels.width + x) * 3 + 3)]

  before(async () => {
    const answer = await send(s.port, {
      method: 'GET',
      target: '//gen/custom',
      headers: [['Authorization', KEY], ['Content-Type', 'text/plain; charset=utf-8']],
      body: CSHARP_CUSTOM
    })
    assert.equal(answer.status, 200, answer.body.toString())
    const { data, info } = await raw(imageOf(answer))
    assert.deepEqual([info.width, info.height], [400, 240])
    pixels = { data, width: info.width }
  })

  it('draws an element with opacity 10 fully opaque, at its width and height (size 0 is "not set")', () => {
    assert.deepEqual(at(70, 50), [255, 0, 0])
    assert.deepEqual(at(21, 21), [255, 0, 0])
    assert.deepEqual(at(118, 78), [255, 0, 0])
    assert.deepEqual(at(122, 50), [0, 0, 128], 'the rectangle is wider than its width')
  })

  it('draws a circle of `size` 80 with radius 0 ("not set"), opaque', () => {
    assert.deepEqual(at(240, 60), [0, 255, 0])
    assert.deepEqual(at(240, 22), [0, 255, 0])
    assert.deepEqual(at(203, 23), [0, 0, 128], 'outside the circle, in its box')
  })

  it('reads opacity 5 as half', () => {
    const [r, g, b] = at(330, 50)
    assert.deepEqual([r, g], [0, 0])
    assert.ok(Math.abs(b! - (128 + 255) / 2) <= 2, `blue ${b}, expected about 191`)
  })

  it('draws the text (unix 0 and snowflake 0 are "no date"), white with the black outline of width 5', () => {
    let white = 0
    let black = 0
    for (let y = 130; y < 190; y++) {
      for (let x = 10; x < 200; x++) {
        const [r, g, b] = at(x, y)
        if (r! > 240 && g! > 240 && b! > 240) white++
        if (r! < 15 && g! < 15 && b! < 15) black++
      }
    }
    assert.ok(white > 300, `only ${white} white pixels where HELLO should be`)
    assert.ok(black > 300, `only ${black} black outline pixels`)
  })

  it('hides the element with skip: true', () => {
    assert.deepEqual(at(5, 235), [0, 0, 128])
  })
})

describe('other clients of /gen/custom', () => {
  const BODY = JSON.stringify({ output: 'jpg', base: { width: 300, height: 100, color: '#223344' }, texts: [{ text: 'Hi', x: 10, y: 10, size: 40 }] })

  it('Rust: GET with a JSON body and no content type: a JPEG (the default output)', async () => {
    const answer = await send(s.port, { method: 'GET', target: '/gen/custom', headers: [['Authorization', KEY]], body: BODY })
    assert.equal(answer.status, 200, answer.body.toString())
    assert.equal(answer.headers['content-type'], 'image/jpeg')
    const jpg = imageOf(answer)
    assert.ok(jpg.subarray(0, 3).equals(JPEG_SIGNATURE))
    assert.deepEqual([(await sharp(jpg).metadata()).width, (await sharp(jpg).metadata()).height], [300, 100])
  })

  it('Python: POST application/json to //gen/custom', async () => {
    const answer = await send(s.port, { method: 'POST', target: '//gen/custom', headers: [['Authorization', KEY], ['Content-Type', 'application/json']], body: BODY })
    assert.equal(answer.status, 200, answer.body.toString())
    assert.ok(imageOf(answer).subarray(0, 3).equals(JPEG_SIGNATURE))
  })

  it('answers a limit exceeded with the JSON error envelope', async () => {
    const answer = await send(s.port, {
      method: 'POST',
      target: '/gen/custom',
      headers: [['Authorization', KEY], ['Content-Type', 'application/json']],
      body: JSON.stringify({ texts: Array.from({ length: 51 }, () => ({ text: 'a' })) })
    })
    assert.equal(answer.status, 400)
    const body = jsonOf(answer)
    assert.deepEqual([body.success, body.code, body.error], [false, 400, 'GEN_LIMIT_EXCEEDED'])
  })
})
