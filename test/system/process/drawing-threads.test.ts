// The canvas library (and the fonts it loads) lives only in the worker threads that draw
// (src/generation/canvas/drawer.ts): the main thread answers names, lists and checks, and a
// thread that only converts text never loads it. About 20 MB of RSS each, read from
// outside: the built server's /proc/<pid>/maps lists the native library, and each font
// file, once any thread of the process has loaded it. Linux only (/proc).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { request, type ServerProcess, startServerProcess } from '../../support/processes.js'

const KEY = 'drawing-threads-key-0123456789'
const onLinux = fs.existsSync('/proc/self/maps')

describe('the canvas in the threads that draw only', { skip: onLinux ? false : 'needs /proc' }, () => {
  let server: ServerProcess
  let dataDir: string
  const maps = (): string => fs.readFileSync(`/proc/${server.child.pid}/maps`, 'utf8')
  const canvasLoaded = (): boolean => maps().includes('@napi-rs/canvas')
  const get = async (p: string): Promise<{ status: number, body: Buffer }> => await request(`${server.url}${p}`, { headers: { authorization: KEY } })
  const post = async (p: string, body: unknown): Promise<{ status: number, body: Buffer }> => await request(`${server.url}${p}`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) })

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-drawing-threads-'))
    server = await startServerProcess({ DATA_DIR: dataDir, API_KEYS: KEY, LOG_LEVEL: 'warn' })
  })
  after(async () => {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('is not loaded to list assets and fonts, refuse an unknown banner, or convert text', async () => {
    assert.equal((await get('/list/banners')).status, 200)
    assert.equal((await get('/list/fonts')).status, 200)
    const unknown = await post('/gen/welcome', { username: 'Ada', banner: 'no-such-banner' })
    assert.equal(unknown.status, 400)
    assert.equal(JSON.parse(unknown.body.toString()).error, 'UNKNOWN_ASSET')
    assert.equal((await post('/convert/markdown-html', { markdown: '# Hi\n\n- [x] done' })).status, 200)
    assert.equal((await post('/convert/html-markdown', { html: '<h1>Hi</h1>' })).status, 200)
    assert.equal(canvasLoaded(), false, 'the canvas library is mapped though nothing was drawn')
  })

  it('finds the emoji font unpacked into DATA_DIR/cache at start, before any drawing', () => {
    const cached = fs.readdirSync(path.join(dataDir, 'cache'))
    assert.ok(cached.some((f) => /^noto-color-emoji-.*\.ttf$/.test(f)), `DATA_DIR/cache holds ${cached.join(', ')}`)
    assert.equal(canvasLoaded(), false)
  })

  it('is loaded by the first preview, drawn in a worker', async () => {
    const banner = JSON.parse((await get('/list/banners')).body.toString()).list[0] as string
    const preview = await request(`${server.url}/assets/banners/${banner}.png`)
    assert.equal(preview.status, 200)
    assert.equal(preview.body.subarray(1, 4).toString(), 'PNG')
    assert.equal(canvasLoaded(), true)
    const drawn = await post('/gen/custom', { output: 'png', base: { type: 'bitmap', width: 200, height: 100, color: 'navy' }, texts: [{ text: 'Hi 🎉', size: 40, x: 10, y: 60 }] })
    assert.equal(drawn.status, 200)
  })

  it('maps only the font families a picture used (with the fallback chain), never the host\'s fonts, even for a glyph none of ours has', async () => {
    // Hebrew and Arabic are in the host's DejaVu Sans, which drew them until the chain had
    // fonts of its own for them (issue 27); U+13000, an Egyptian hieroglyph, is in none of ours.
    const drawn = await post('/gen/custom', { output: 'png', base: { type: 'bitmap', width: 400, height: 100, color: 'navy' }, texts: [{ text: 'Hi 世界 김 שלום مرحبا \u{13000}', size: 30, x: 10, y: 60, font: 'Lobster' }] })
    assert.equal(drawn.status, 200)
    const mapped = maps()
    for (const used of ['Lobster_400Regular.ttf', 'NotoSans_400Regular.ttf', 'NotoSansJP_400Regular.ttf', 'NotoSansKR_400Regular.ttf', 'NotoSansHebrew_400Regular.ttf', 'NotoSansArabic_400Regular.ttf']) assert.ok(mapped.includes(used), `${used} is not mapped`)
    for (const unused of ['Pacifico', 'Anton', 'FiraCode', 'Merriweather', 'NotoSansThai', 'NotoSansDevanagari']) assert.ok(!mapped.includes(unused), `${unused} is mapped though no picture used it`)
    assert.ok(!mapped.includes('/usr/share/fonts/'), 'a font installed on the host is mapped')
  })
})
