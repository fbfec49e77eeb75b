// ?format=webp: an animated WebP made from a catalog gif on its first request (admitted
// as heavy work), kept beside the GIF, and served as immutably as the GIF.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { WEBP_MAX_PIXELS } from '../../../src/gifs/webp.js'
import { renderStarterGif } from '../../../src/gifs/starter-art.js'
import { sha256 } from '../../../src/store/gif-files.js'
import { gifDirOf } from '../../../src/store/local-gif-files.js'
import type { GifRecord } from '../../../src/store/interface.js'
import { createTestApp, json, type TestApp } from '../../support/helpers.js'

let t: TestApp
let gif: GifRecord
let bytes: Buffer

before(async () => {
  t = await createTestApp({ config: { publicUrl: 'https://gifs.example.test' } })
  bytes = renderStarterGif('dance', 1)
  await t.store.gifFiles.put(sha256(bytes), bytes)
  gif = (await t.store.gifs.add([{ category: 'dance', hash: sha256(bytes), url: null, size: bytes.length, width: 240, height: 160, frames: 10, contentType: 'image/gif', animeName: 'Some Show' }]))[0]!
})
after(() => t.close())

const webpPath = (): string => `/files/gifs/${gif.hash}.webp`
const onDisk = (): string => path.join(gifDirOf(t.config.dataDir), `${gif.hash}.webp`)

describe('?format=webp', () => {
  it('links the WebP from the pick; without format, or format=gif, the GIF', async () => {
    assert.equal(json(await t.app.inject({ method: 'GET', url: '/sfw/gif/dance?format=webp', headers: t.auth })).file, `https://gifs.example.test${webpPath()}`)
    assert.equal(json(await t.app.inject({ method: 'GET', url: '/sfw/gif/dance?format=gif&amount=2', headers: t.auth })).gifs[0].file, `https://gifs.example.test/files/gifs/${gif.hash}.gif`)
    const bad = await t.app.inject({ method: 'GET', url: '/sfw/gif/dance?format=png', headers: t.auth })
    assert.deepEqual([bad.statusCode, json(bad).error], [400, 'VALIDATION'])
  })

  it('makes an animated WebP on the first request, keeps it, and serves it without a key like the GIF', async () => {
    assert.equal(fs.existsSync(onDisk()), false, 'not made before it is asked for')
    const res = await t.app.inject({ method: 'GET', url: webpPath() })
    assert.equal(res.statusCode, 200, res.body.slice(0, 200))
    assert.equal(res.headers['content-type'], 'image/webp')
    assert.equal(res.headers.etag, `"${gif.hash}.webp"`)
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable')
    assert.equal(res.headers['x-anime-name'], 'Some%20Show')
    assert.equal(Number(res.headers['content-length']), res.rawPayload.length)
    const meta = await sharp(res.rawPayload, { animated: true }).metadata()
    assert.deepEqual([meta.format, meta.width, meta.pageHeight, meta.pages, meta.loop], ['webp', 240, 160, 10, 0])
    assert.deepEqual(meta.delay, Array(10).fill(80))
    // Lossless: the first frame's pixels are the GIF's.
    const [fromGif, fromWebp] = await Promise.all([bytes, res.rawPayload].map((b) => sharp(b, { page: 0 }).ensureAlpha().raw().toBuffer()))
    assert.ok(fromGif!.equals(fromWebp!), 'same pixels')
    assert.deepEqual(fs.readFileSync(onDisk()), res.rawPayload, 'kept beside the GIF')
    const mtime = fs.statSync(onDisk()).mtimeMs
    const again = await t.app.inject({ method: 'GET', url: webpPath() })
    assert.deepEqual(again.rawPayload, res.rawPayload)
    assert.equal(fs.statSync(onDisk()).mtimeMs, mtime, 'served from the copy, not made again')
  })

  it('answers HEAD, 304 and single ranges of the WebP', async () => {
    const size = fs.statSync(onDisk()).size
    const head = await t.app.inject({ method: 'HEAD', url: webpPath() })
    assert.equal(head.statusCode, 200)
    assert.equal(Number(head.headers['content-length']), size)
    const cached = await t.app.inject({ method: 'GET', url: webpPath(), headers: { 'if-none-match': `"${gif.hash}.webp"` } })
    assert.equal(cached.statusCode, 304)
    const part = await t.app.inject({ method: 'GET', url: webpPath(), headers: { range: 'bytes=0-11' } })
    assert.equal(part.statusCode, 206)
    assert.equal(part.headers['content-range'], `bytes 0-11/${size}`)
    assert.equal(part.rawPayload.subarray(0, 4).toString('latin1'), 'RIFF')
    assert.equal(part.rawPayload.subarray(8, 12).toString('latin1'), 'WEBP')
    const beyond = await t.app.inject({ method: 'GET', url: webpPath(), headers: { range: `bytes=${size + 10}-` } })
    assert.deepEqual([beyond.statusCode, json(beyond).error], [416, 'RANGE_NOT_SATISFIABLE'])
  })

  it('makes one WebP for concurrent first requests', async () => {
    const other = renderStarterGif('dance', 2)
    const [second] = await t.store.gifs.add([{ category: 'dance', hash: sha256(other), url: null, size: other.length, width: 240, height: 160, frames: 10, contentType: 'image/gif' }])
    await t.store.gifFiles.put(second!.hash!, other)
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.app.inject({ method: 'GET', url: `/files/gifs/${second!.hash}.webp` })))
    assert.ok(answers.every((a) => a.statusCode === 200 && a.rawPayload.equals(answers[0]!.rawPayload)))
    const names = fs.readdirSync(gifDirOf(t.config.dataDir)).filter((n) => n.startsWith('.tmp-'))
    assert.deepEqual(names, [], 'no temp file left')
  })

  it('answers 404 for a hidden gif\'s WebP, for a gif too large to convert, and for an unknown hash', async () => {
    await t.store.gifs.hide(gif.id)
    const hidden = await t.app.inject({ method: 'GET', url: webpPath() })
    assert.deepEqual([hidden.statusCode, json(hidden).error], [404, 'GIF_FILE_NOT_FOUND'])
    await t.store.gifs.unhide(gif.id)
    const huge = Buffer.from('GIF89a-huge')
    const [large] = await t.store.gifs.add([{ category: 'dance', hash: sha256(huge), url: null, size: 10, width: 4000, height: 4000, frames: Math.ceil(WEBP_MAX_PIXELS / 16e6) + 1, contentType: 'image/gif' }])
    const refused = await t.app.inject({ method: 'GET', url: `/files/gifs/${large!.hash}.webp` })
    assert.deepEqual([refused.statusCode, json(refused).error], [404, 'GIF_FILE_NOT_FOUND'])
    assert.match(json(refused).message, /not offered as WebP/)
    const picks = new Set<string>()
    for (let i = 0; i < 40; i++) picks.add(json(await t.app.inject({ method: 'GET', url: `/sfw/gif/dance?format=webp&exclude=${gif.id}`, headers: t.auth })).file)
    assert.ok(picks.has(`https://gifs.example.test/files/gifs/${large!.hash}.gif`), 'the large one is linked as GIF')
    await t.store.gifs.remove(large!.id)
    const unknown = await t.app.inject({ method: 'GET', url: `/files/gifs/${'0'.repeat(64)}.webp` })
    assert.equal(unknown.statusCode, 404)
  })

  it('deletes the WebP with the gif\'s file', async () => {
    assert.ok(fs.existsSync(onDisk()))
    await t.store.gifFiles.delete(gif.hash!)
    assert.equal(fs.existsSync(onDisk()), false)
  })
})
