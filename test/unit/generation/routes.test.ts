// /gen/{template}, /gen/custom, the lists and the previews, through the app.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { OPERATOR_RESCAN_MS } from '../../../src/generation/assets/asset-catalog.js'
import { parseAllowList } from '../../../src/remote-fetch/address.js'
import { createScheduler } from '../../../src/work/scheduler.js'
import { AppError } from '../../../src/errors.js'
import { createTestApp, json, type TestApp } from '../../support/helpers.js'
import { assertErrorEnvelope } from '../../support/envelope.js'

let t: TestApp
let strict: TestApp
let server: http.Server
let base: string
let avatar: Buffer

before(async () => {
  avatar = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#00ff00' } }).png().toBuffer()
  server = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'image/png' }); res.end(avatar) })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  t = await createTestApp({ config: { remoteFetchAllow: parseAllowList(['127.0.0.1']) } })
  strict = await createTestApp()
})
after(async () => { await t.close(); await strict.close(); server.closeAllConnections(); server.close() })

async function meta (body: Buffer) { return await sharp(body).metadata() }

describe('/gen/welcome and the other templates', () => {
  it('draws a welcome banner from query parameters alone (PNG by default)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/gen/welcome?username=Alice&members=Member%20%2342', headers: t.auth })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'image/png')
    const m = await meta(res.rawPayload)
    assert.deepEqual([m.format, m.width, m.height], ['png', 1024, 450])
  })

  it('reads a JSON body sent with GET as text/plain, keys in any case, in every output format', async () => {
    for (const [output, format, type] of [['png', 'png', 'image/png'], ['jpg', 'jpeg', 'image/jpeg'], ['webp', 'webp', 'image/webp']]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/gen/welcome',
        headers: { ...t.auth, 'content-type': 'text/plain; charset=utf-8' },
        payload: JSON.stringify({ Username: 'Bob 😀 日本', Avatar: `${base}/a.png`, Banner: 'SPACE', Icon: 'Star', Color_Welcome: '255, 0, 0', Output: output })
      })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.headers['content-type'], type)
      assert.equal((await meta(res.rawPayload)).format, format)
    }
  })

  it('accepts a banner and an icon by URL, and POST', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/gen/welcome', headers: t.auth, payload: { username: 'x'.repeat(300), banner: `${base}/b.png`, icon: `${base}/i.png`, background: '#102030' } })
    assert.equal(res.statusCode, 200, res.body)
  })

  it('draws goodbye, rank and quote', async () => {
    for (const url of ['/gen/goodbye?username=Zed', '/gen/rank?username=Ann&level=12&rank=3&xp=450&max_xp=1000', '/gen/quote?username=Ann&text=Hello%20world', '/gen/RANK?output=webp']) {
      const res = await t.app.inject({ method: 'GET', url, headers: t.auth })
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
      assert.match(String(res.headers['content-type']), /^image\//)
    }
  })

  it('answers unknown templates, assets, fonts and colours with a 400/404 naming the field', async () => {
    assertErrorEnvelope(await t.app.inject({ method: 'GET', url: '/gen/nope', headers: t.auth }), 404, 'TEMPLATE_NOT_FOUND', { message: /nope/ })
    const asset = assertErrorEnvelope(await t.app.inject({ method: 'GET', url: '/gen/welcome?banner=nothere', headers: t.auth }), 400, 'UNKNOWN_ASSET', { message: /banner "nothere"/ })
    assert.ok(asset.valid.includes('space'))
    assertErrorEnvelope(await t.app.inject({ method: 'GET', url: '/gen/welcome?font=Comic%20Sans%20MS', headers: t.auth }), 400, 'UNKNOWN_FONT', { message: /Comic Sans MS/ })
    assertErrorEnvelope(await t.app.inject({ method: 'GET', url: '/gen/welcome?color_username=notacolour', headers: t.auth }), 400, 'INVALID_COLOR', { message: /color_username/ })
    assertErrorEnvelope(await t.app.inject({ method: 'GET', url: '/gen/welcome?output=bmp', headers: t.auth }), 400, 'VALIDATION', { message: /output/ })
  })

  it('refuses an avatar on loopback by default with a 400 naming the avatar', async () => {
    const body = assertErrorEnvelope(await strict.app.inject({ method: 'GET', url: `/gen/welcome?avatar=${encodeURIComponent(`${base}/a.png`)}`, headers: strict.auth }), 400, 'REMOTE_FETCH_REFUSED', { message: /^avatar: / })
    assert.equal(body.role, 'avatar')
  })
})

describe('locale, status and the parameters a template does not read (issue 40)', () => {
  it('answers an unknown locale with 400 UNKNOWN_LOCALE naming the parameter and listing the locales, on every template', async () => {
    for (const template of ['welcome', 'goodbye', 'rank', 'quote']) {
      const res = await t.app.inject({ method: 'GET', url: `/gen/${template}?locale=klingon`, headers: t.auth })
      const body = assertErrorEnvelope(res, 400, 'UNKNOWN_LOCALE', { message: /"locale".*en-US.*pt-BR.*ar/ })
      assert.equal(body.field, 'locale')
      assert.equal(body.valid.length, 33)
    }
  })

  it('reads Discord\'s spellings and the documented variants: pt-br and pt_BR draw what pt-BR draws', async () => {
    const draw = async (locale: string) => (await t.app.inject({ method: 'POST', url: '/gen/rank', headers: t.auth, payload: { username: 'Ana', level: 5, locale } })).rawPayload
    const reference = await draw('pt-BR')
    assert.ok(reference.equals(await draw('pt-br')) && reference.equals(await draw('pt_BR')) && reference.equals(await draw('pt')))
    assert.ok(!reference.equals(await draw('en-US')))
  })

  it('draws the rank card\'s status ring in each status, and refuses any other value naming "status"', async () => {
    const ring = async (status: string) => {
      const res = await t.app.inject({ method: 'POST', url: '/gen/rank', headers: t.auth, payload: { username: 'Ana', status } })
      assert.equal(res.statusCode, 200, res.body)
      // A pixel of the ring: left of the avatar disc (centre 141,141, radius 90, ring to 98).
      const { data } = await sharp(res.rawPayload).extract({ left: 141 - 94, top: 141, width: 1, height: 1 }).removeAlpha().raw().toBuffer({ resolveWithObject: true })
      return `#${[...data].map((v) => v.toString(16).padStart(2, '0')).join('')}`
    }
    assert.equal(await ring('online'), '#23a55a')
    assert.equal(await ring('IDLE'), '#f0b232')
    assert.equal(await ring('dnd'), '#f23f43')
    assert.equal(await ring('offline'), '#80848e')
    assert.equal(await ring('streaming'), '#593695')
    assertErrorEnvelope(await t.app.inject({ method: 'POST', url: '/gen/rank', headers: t.auth, payload: { status: 'busy' } }), 400, 'VALIDATION', { message: /"status".*online, idle, dnd/ })
  })

  it('names the parameters the template does not read in X-Ignored-Parameters, and still draws', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/gen/welcome?Colour_Bar=red', headers: t.auth, payload: { username: 'Ana', Level: 3, extra: { a: 1 }, output: 'png', 'we ird,name': 'x' } })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['x-ignored-parameters'], 'colour_bar, level, extra, we%20ird%2Cname')
    const clean = await t.app.inject({ method: 'POST', url: '/gen/rank', headers: t.auth, payload: { username: 'Ana', level: 3, locale: 'fr', status: 'idle', output: 'png', max_bytes: 100000 } })
    assert.equal(clean.statusCode, 200, clean.body)
    assert.equal(clean.headers['x-ignored-parameters'], undefined)
    const many = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`x${i}`, 'y']))
    const capped = await t.app.inject({ method: 'POST', url: '/gen/quote', headers: t.auth, payload: { ...many, locale: 'xx' } })
    assertErrorEnvelope(capped, 400, 'UNKNOWN_LOCALE')
    assert.match(String(capped.headers['x-ignored-parameters']), /^x0, x1, .*x19, \(5 more\)$/)
  })
})

describe('lists and previews', () => {
  it('lists templates, banners, icons and fonts in the envelope', async () => {
    const sizes: Record<string, number> = { templates: 4, banners: 8, icons: 10, fonts: 12 }
    for (const [kind, min] of Object.entries(sizes)) {
      const res = await t.app.inject({ method: 'GET', url: `/list/${kind}`, headers: t.auth })
      assert.equal(res.statusCode, 200)
      const body = json(res)
      assert.deepEqual([body.success, body.code, body.message], [true, 200, ''])
      assert.ok(body.list.length >= min, `${kind}: ${body.list.length}`)
    }
    const fonts = json(await t.app.inject({ method: 'GET', url: '/list/fonts', headers: t.auth })).list
    assert.ok(fonts.includes('Sans Serif'))
  })

  it('picks up a banner an operator adds to DATA_DIR/banners within OPERATOR_RESCAN_MS', async () => {
    const listed = async () => json(await t.app.inject({ method: 'GET', url: '/list/banners', headers: t.auth })).list as string[]
    assert.ok(!(await listed()).includes('our-logo'))
    fs.mkdirSync(path.join(t.config.dataDir, 'banners'), { recursive: true })
    const logo = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#ff8800' } }).png().toBuffer()
    fs.writeFileSync(path.join(t.config.dataDir, 'banners', 'Our-Logo.png'), logo)
    await sleep(OPERATOR_RESCAN_MS + 100)
    assert.ok((await listed()).includes('our-logo'))
    const res = await t.app.inject({ method: 'POST', url: '/gen/welcome', headers: t.auth, payload: { username: 'Op', banner: 'our-logo', output: 'png' } })
    assert.equal(res.statusCode, 200, res.body)
    // The banner covers the card: the top-left corner is its orange.
    const { data } = await sharp(res.rawPayload).extract({ left: 2, top: 2, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true })
    assert.deepEqual([...data.subarray(0, 3)], [255, 136, 0])
  })

  it('accepts every listed font, banner and icon', async () => {
    const list = async (kind: string) => json(await t.app.inject({ method: 'GET', url: `/list/${kind}`, headers: t.auth })).list as string[]
    for (const font of await list('fonts')) {
      const res = await t.app.inject({ method: 'POST', url: '/gen/custom', headers: t.auth, payload: { base: { width: 50, height: 20 }, texts: [{ text: 'Aa', font }] } })
      assert.equal(res.statusCode, 200, `${font}: ${res.body}`)
    }
    for (const kind of ['banner', 'icon']) {
      for (const name of await list(`${kind}s`)) {
        const res = await t.app.inject({ method: 'GET', url: `/assets/${kind}s/${name}.png` })
        assert.equal(res.statusCode, 200, `${kind} ${name}`)
        assert.equal(res.headers['content-type'], 'image/png')
      }
    }
    assertErrorEnvelope(await t.app.inject({ method: 'GET', url: '/assets/icons/nothere.png' }), 404, 'ASSET_NOT_FOUND')
  })
})

describe('/gen/custom', () => {
  it('draws every element type, texts with every option, and answers JPEG by default', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/gen/custom',
      headers: { ...t.auth, 'content-type': 'text/plain' },
      payload: JSON.stringify({
        Base: { Type: 'bitmap', Width: 600, Height: 300, Color: 'navy' },
        Images: [
          { type: 'bitmap', x: 10, y: 10, width: 100, height: 50, color: '255,0,0,128', round: 10, rotate: 15 },
          { url: `${base}/a.png`, x: 150, y: 10, size: 80, round: 40, filter: 'grayscale', opacity: 0.5 },
          { type: 'circle', x: 300, y: 10, radius: 30, color: '#00ff00' },
          { type: 'triangle', x: 400, y: 10, width: 60, height: 60, cut: 'topleft', color: 'yellow' },
          { type: 'bitmap', skip: true, color: 'red', width: 600, height: 300 }
        ],
        Global: { textSize: 20, textColor: '255, 255, 255', textOutineWidth: 1 },
        Texts: [
          { text: 'Hello wrapped text that goes on', x: 10, y: 120, width: 150, back: 'black', bold: true, underline: true, align: 'l' },
          { texts: ['one', 'two'], x: 300, y: 120, align: 'm', italics: true, outlinecolor: 'red', outlinewidth: 2, outlineblur: 3, line: 1.5 },
          { unix: 0, format: 'yyyy-MM-dd', x: 590, y: 120, align: 'r', blend: 'screen', weight: 700, height: 10 },
          { snowflake: '175928847299117063', x: 10, y: 250, font: 'fira code' }
        ]
      })
    })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['content-type'], 'image/jpeg')
    const m = await meta(res.rawPayload)
    assert.deepEqual([m.format, m.width, m.height], ['jpeg', 600, 300])
  })

  it('enforces each limit with a message naming it', async () => {
    const post = (payload: unknown) => t.app.inject({ method: 'POST', url: '/gen/custom', headers: t.auth, payload: payload as object })
    assertErrorEnvelope(await post({ images: Array.from({ length: 51 }, () => ({ color: 'red' })) }), 400, 'GEN_LIMIT_EXCEEDED', { message: /at most 50/ })
    assertErrorEnvelope(await post({ images: Array.from({ length: 11 }, (_, i) => ({ url: `${base}/${i}.png` })) }), 400, 'GEN_LIMIT_EXCEEDED', { message: /URLs: 11, at most 10/ })
    assertErrorEnvelope(await post({ texts: Array.from({ length: 51 }, () => ({ text: 'a' })) }), 400, 'GEN_LIMIT_EXCEEDED', { message: /texts: 51, at most 50/ })
    // 0 is "not set" (docs/compatibility.md, "The C# client's custom images"), not a size.
    for (const [w, h] of [[-5, 10], [3001, 10], [10, 5000]]) {
      assertErrorEnvelope(await post({ base: { width: w, height: h } }), 400, 'GEN_LIMIT_EXCEEDED', { message: /between 1 and 3000/ })
    }
    const big = Buffer.alloc(10 * 1024 * 1024 + 10, 'a')
    assertErrorEnvelope(await t.app.inject({ method: 'POST', url: '/gen/custom', headers: t.auth, payload: big }), 413, 'BODY_TOO_LARGE', { message: /at most 10 MiB .*: use image URLs/ })
  })

  it('names the layer whose URL failed', async () => {
    const body = assertErrorEnvelope(await strict.app.inject({ method: 'POST', url: '/gen/custom', headers: strict.auth, payload: { images: [{ color: 'red' }, { url: 'http://[::1]/x.png' }] } }), 400, 'REMOTE_FETCH_REFUSED', { message: /^layer 1: / })
    assert.equal(body.role, 'layer 1')
  })
})

describe('render queue', () => {
  it('answers RENDER_BUSY (503, Retry-After) when the work queued ahead would outlast the deadline', async () => {
    const now = 0
    const queue = createScheduler({ lanes: 1, busyCode: 'RENDER_BUSY', clock: () => now })
    let release!: () => void
    const job = { owner: 'A', estimateMs: 12_000, remainingMs: 30_000 }
    const first = queue.run(job, async () => await new Promise<void>((resolve) => { release = resolve }))
    const second = queue.run(job, async () => 'second')
    // 24 s ahead of it and 12 s of its own: 6 s past its deadline.
    await assert.rejects(queue.run(job, async () => 'third'), (err: unknown) => err instanceof AppError && err.code === 'RENDER_BUSY' && err.status === 503 && err.headers?.['retry-after'] === '6')
    release()
    await first
    assert.equal(await second, 'second')
  })
})
