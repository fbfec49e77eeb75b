// /gen/custom draws the server's own icons and banners by name, against the built server:
// `{"type":"bitmap","url":"star"}` was refused as "not an absolute URL", and the icon's
// preview URL as loopback, so a custom picture could not use the bundled art. An unknown
// name answers 400 UNKNOWN_ASSET naming the lists. Issue 26, item 4.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { tempDir } from '../../support/helpers.js'
import { request, type ServerProcess, startServerProcess } from '../../support/processes.js'

const KEY = 'custom-named-art-key-0123456789'

describe('/gen/custom with icons and banners by name, against the built server', () => {
  let server: ServerProcess
  let dataDir: string
  before(async () => {
    dataDir = tempDir('uma-custom-named-')
    // An operator's own icon (DATA_DIR/icons), named like the bundled ones.
    fs.mkdirSync(`${dataDir}/icons`)
    await sharp({ create: { width: 120, height: 60, channels: 3, background: '#ff0000' } }).png().toFile(`${dataDir}/icons/logo.png`)
    server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn' })
  })
  after(async () => {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  const draw = async (body: unknown) => await request(`${server.url}/gen/custom`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) })

  it('draws an icon by name as the issue wrote it, {"type":"bitmap","url":"star"}: the icon\'s own pixels', async () => {
    const res = await draw({ output: 'png', base: { type: 'bitmap', width: 256, height: 256, color: 'white' }, images: [{ type: 'bitmap', url: 'star', x: 0, y: 0, width: 256, height: 256 }] })
    assert.equal(res.status, 200, res.body.toString().slice(0, 500))
    assert.equal(res.headers['content-type'], 'image/png')
    const drawn = await sharp(res.body).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    assert.deepEqual([drawn.info.width, drawn.info.height], [256, 256])
    // The same picture as the icon's public preview laid on white.
    const preview = await request(`${server.url}/assets/icons/star.png`)
    assert.equal(preview.status, 200)
    const expected = await sharp(preview.body).flatten({ background: '#ffffff' }).removeAlpha().raw().toBuffer()
    let difference = 0
    for (let i = 0; i < expected.length; i++) difference += Math.abs(expected[i]! - drawn.data[i]!)
    assert.ok(difference / expected.length < 1, `mean difference ${difference / expected.length}`)
    // And not a blank canvas.
    assert.ok(drawn.data.some((v) => v < 200))
  })

  it('names the list when asked (icon:, banner:), in any case, a banner as the base giving the canvas its size', async () => {
    const res = await draw({ output: 'png', base: { url: 'Banner:Space' }, images: [{ url: 'ICON:neko', type: 'circle', x: 20, y: 20, radius: 60 }, { url: 'heart', x: 200, y: 20, size: 64 }] })
    assert.equal(res.status, 200, res.body.toString().slice(0, 500))
    assert.equal(res.headers['content-type'], 'image/png')
    const meta = await sharp(res.body).metadata()
    assert.deepEqual([meta.width, meta.height], [1024, 450])
  })

  it('draws an operator\'s icon by its file name; as the base, it gives the canvas its size', async () => {
    const res = await draw({ output: 'png', base: { url: 'logo' } })
    assert.equal(res.status, 200, res.body.toString().slice(0, 500))
    const { data, info } = await sharp(res.body).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    assert.deepEqual([info.width, info.height], [120, 60])
    assert.deepEqual([...data.subarray(0, 3)], [255, 0, 0])
  })

  it('answers 400 UNKNOWN_ASSET naming the field and the lists for an unknown name', async () => {
    const res = await draw({ output: 'png', images: [{ type: 'circle', radius: 20 }, { type: 'bitmap', url: 'no-such-art' }] })
    assert.equal(res.status, 400)
    assert.match(String(res.headers['content-type']), /^application\/json/)
    const json = JSON.parse(res.body.toString()) as Record<string, unknown>
    assert.deepEqual([json.success, json.code, json.error, json.field], [false, 400, 'UNKNOWN_ASSET', 'images[1].url'])
    assert.equal(json.message, 'Unknown image "no-such-art" in "images[1].url": use a name from /list/icons or /list/banners ("star", "icon:star", "banner:space") or an absolute http(s) URL')
    const list = async (kind: string) => JSON.parse((await request(`${server.url}/list/${kind}`, { headers: { authorization: KEY } })).body.toString()).list as string[]
    assert.deepEqual(json.icons, await list('icons'))
    assert.deepEqual(json.banners, await list('banners'))
    // A name from the other list, asked in this one, is unknown there.
    const wrongList = await draw({ base: { url: 'icon:space' } })
    assert.equal(wrongList.status, 400)
    assert.deepEqual([JSON.parse(wrongList.body.toString()).error, JSON.parse(wrongList.body.toString()).field], ['UNKNOWN_ASSET', 'base.url'])
  })

  it('stays healthy and logs no error', async () => {
    assert.equal((await request(`${server.url}/healthz`)).status, 200)
    assert.doesNotMatch(server.output(), /"level":(50|60)/)
  })
})
