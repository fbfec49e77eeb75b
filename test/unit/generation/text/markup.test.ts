// Discord markup in the texts of /gen (docs/generation.md, "Discord markup"): custom
// emoji fetched from the CDN (DISCORD_CDN_URL, here a loopback server allowed through
// REMOTE_FETCH_ALLOW) through the safe fetcher and its cache before the picture is queued,
// drawn in the line at the size and baseline of the font's own emoji; `:name:` when the
// fetch fails; mentions drawn as words.
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { ConfigError, loadConfig } from '../../../../src/config.js'
import { emojiUrl, markText, MAX_EMOJI_PER_PICTURE, nameForInitial, parseMarkup, plainText } from '../../../../src/generation/text/markup.js'
import { parseAllowList } from '../../../../src/remote-fetch/address.js'
import { createTestApp, type TestApp } from '../../../support/helpers.js'

describe('parsing Discord markup', () => {
  it('finds custom emoji, animated or not, and writes mentions as words', () => {
    assert.deepEqual(parseMarkup('hi <:wave:123456789012345678>!'), ['hi ', { id: '123456789012345678', name: 'wave', animated: false }, '!'])
    assert.deepEqual(parseMarkup('<a:party_blob:1>'), [{ id: '1', name: 'party_blob', animated: true }])
    assert.deepEqual(parseMarkup('<@80351110224678912> and <@!80351110224678912> in <#41771983423143937> as <@&41771983423143936>'), ['@user and @user in #channel as @role'])
  })

  it('leaves what is not markup as it was', () => {
    for (const text of ['<:no id:>', '<:name:12a>', '<b:name:1>', '<@user>', '< :x:1>', '<#>', 'a < b > c', '<:name:123456789012345678901>']) {
      assert.deepEqual(parseMarkup(text), [text], text)
    }
    assert.deepEqual(parseMarkup(''), [])
  })

  it('builds the CDN URL Discord documents: /emojis/{id}.png, .gif when animated', () => {
    assert.equal(emojiUrl('https://cdn.discordapp.com', { id: '1', name: 'x', animated: false }), 'https://cdn.discordapp.com/emojis/1.png')
    assert.equal(emojiUrl('http://127.0.0.1:8080/', { id: '2', name: 'x', animated: true }), 'http://127.0.0.1:8080/emojis/2.gif')
  })

  it('stands for each loaded emoji by one placeholder, writes the others :name:, and lets no sent character pose as one', async () => {
    const image = { width: 10, height: 10 } as never
    const marked = await markText('\u{F0000} <:a:1> <:b:2> <:a:1>', async (e) => e.id === '1' ? image : undefined)
    assert.equal(marked.text, '\uFFFD \u{F0000} :b: \u{F0001}')
    assert.deepEqual([...marked.images.keys()], ['\u{F0000}', '\u{F0001}'])
    assert.equal((await markText('plain \u{F0000}', async () => image)).text, 'plain \u{F0000}', 'a text without markup is left alone')
    assert.equal(plainText('<:a:1> <@2>'), ':a: @user')
    assert.equal(nameForInitial('<:cat:1> Kai'), 'Kai')
    assert.equal(nameForInitial('<:cat:1>'), 'cat')
  })

  it('DISCORD_CDN_URL is an http(s) URL, kept without its trailing slash', () => {
    assert.equal(loadConfig({}).discordCdnUrl, 'https://cdn.discordapp.com')
    assert.equal(loadConfig({ DISCORD_CDN_URL: 'http://cdn.example/' }).discordCdnUrl, 'http://cdn.example')
    assert.throws(() => loadConfig({ DISCORD_CDN_URL: 'ftp://cdn.example' }), (err: unknown) => err instanceof ConfigError && err.variable === 'DISCORD_CDN_URL')
  })
})

let t: TestApp
let server: http.Server
let cdn: string
const hits: string[] = []

/** An opaque square of one colour: its drawn box is easy to find. */
async function square (color: string, width = 64, height = 64): Promise<Buffer> {
  return await sharp({ create: { width, height, channels: 4, background: color } }).png().toBuffer()
}

before(async () => {
  const red = await square('#ff0000')
  const wide = await square('#00ff00', 128, 64)
  const gif = await sharp({ create: { width: 32, height: 32, channels: 4, background: '#0000ff' } }).gif().toBuffer()
  server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname
    hits.push(p)
    const m = /^\/emojis\/(\d+)\.(png|gif)$/.exec(p)
    if (m?.[2] === 'gif') { res.writeHead(200, { 'content-type': 'image/gif' }); res.end(gif); return }
    if (m !== null && m[1] === '2') { res.writeHead(200, { 'content-type': 'image/png' }); res.end(wide); return }
    if (m !== null && !m[1]!.startsWith('404')) { res.writeHead(200, { 'content-type': 'image/png' }); res.end(red); return }
    res.writeHead(404); res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cdn = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  t = await createTestApp({ config: { remoteFetchAllow: parseAllowList(['127.0.0.1']), discordCdnUrl: cdn } })
})
after(async () => { await t.close(); server.closeAllConnections(); server.close() })

async function custom (texts: object[], app: TestApp = t): Promise<Buffer> {
  const res = await app.app.inject({ method: 'POST', url: '/gen/custom', headers: app.auth, payload: { output: 'png', base: { width: 400, height: 120, color: 'white' }, texts } })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.headers['content-type'], 'image/png')
  return res.rawPayload
}

/** The bounding box of the pixels `match` accepts. */
async function box (png: Buffer, match: (r: number, g: number, b: number) => boolean): Promise<{ left: number, top: number, right: number, bottom: number } | undefined> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  let found: { left: number, top: number, right: number, bottom: number } | undefined
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 3
      if (!match(data[i]!, data[i + 1]!, data[i + 2]!)) continue
      found = found === undefined ? { left: x, top: y, right: x, bottom: y } : { left: Math.min(found.left, x), top: Math.min(found.top, y), right: Math.max(found.right, x), bottom: Math.max(found.bottom, y) }
    }
  }
  return found
}

describe('Discord markup drawn', () => {
  it('fetches each custom emoji from the CDN once (the fetcher\'s cache), .gif for an animated one', async () => {
    hits.length = 0
    const text = { text: 'a <:red:1001> b <a:anim:1002> c <:red:1001>', x: 10, y: 10, size: 30, color: 'black' }
    await custom([text])
    await custom([text])
    assert.deepEqual(hits.sort(), ['/emojis/1001.png', '/emojis/1002.gif'])
  })

  it('draws a custom emoji in the box of the font\'s own emoji: its size and baseline', async () => {
    for (const [size, baseline] of [[40, { x: 20, y: 20 }], [72, { x: 60, y: 10 }]] as const) {
      const drawn = await box(await custom([{ text: 'A<:red:1101>', ...baseline, size, color: 'white' }]), (r, g, b) => r > 200 && g < 60 && b < 60)
      // The colour emoji font's grinning face at the same place, its yellow face found the same way.
      const glyph = await box(await custom([{ text: 'A😀', ...baseline, size, color: 'white' }]), (r, g, b) => r > 200 && g > 120 && b < 100)
      assert.ok(drawn !== undefined && glyph !== undefined)
      for (const side of ['left', 'top', 'right', 'bottom'] as const) {
        assert.ok(Math.abs(drawn[side] - glyph[side]) <= Math.max(2, size * 0.06), `size ${size}: ${side} ${drawn[side]}, the font's emoji ${glyph[side]}`)
      }
    }
  })

  it('keeps a wide emoji\'s aspect ratio', async () => {
    const drawn = await box(await custom([{ text: '<:wide:2>', x: 10, y: 10, size: 40, color: 'black' }]), (r, g, b) => g > 200 && r < 60 && b < 60)
    assert.ok(drawn !== undefined)
    const ratio = (drawn.right - drawn.left + 1) / (drawn.bottom - drawn.top + 1)
    assert.ok(Math.abs(ratio - 2) < 0.1, `drawn ${ratio.toFixed(2)} times as wide as high`)
  })

  it('writes :name: for an emoji the CDN does not answer, and the picture is still drawn', async () => {
    hits.length = 0
    const missing = await custom([{ text: 'gone <:ghost:404001> here', x: 10, y: 10, size: 30, color: 'black' }])
    assert.deepEqual(hits, ['/emojis/404001.png'])
    assert.ok(missing.equals(await custom([{ text: 'gone :ghost: here', x: 10, y: 10, size: 30, color: 'black' }])))
  })

  it('draws mentions as the words @user, #channel and @role', async () => {
    const marked = await custom([{ text: '<@80351110224678912> <@!1> <#41771983423143937> <@&2>', x: 10, y: 10, size: 24, color: 'black' }])
    assert.ok(marked.equals(await custom([{ text: '@user @user #channel @role', x: 10, y: 10, size: 24, color: 'black' }])))
  })

  it(`fetches at most ${MAX_EMOJI_PER_PICTURE} distinct emoji for a picture; the others are their :name:`, async () => {
    hits.length = 0
    const ids = Array.from({ length: MAX_EMOJI_PER_PICTURE + 3 }, (_, i) => 3000 + i)
    await custom([{ text: ids.map((id) => `<:e${id}:${id}>`).join(''), x: 0, y: 0, size: 12, color: 'black', width: 400 }])
    assert.deepEqual(hits.sort(), ids.slice(0, MAX_EMOJI_PER_PICTURE).map((id) => `/emojis/${id}.png`).sort())
  })

  it('draws emoji in the templates\' texts: a welcome with an emoji in its name differs from the :name: one', async () => {
    const welcome = async (username: string): Promise<Buffer> => {
      const res = await t.app.inject({ method: 'POST', url: '/gen/welcome', headers: t.auth, payload: { username, members: 'hi <@1>' } })
      assert.equal(res.statusCode, 200, res.body)
      return res.rawPayload
    }
    const drawn = await box(await welcome('Kai <:red:1201>'), (r, g, b) => r > 200 && g < 60 && b < 60)
    assert.ok(drawn !== undefined && drawn.bottom - drawn.top > 30, 'the emoji is drawn beside the name')
    // The avatar's initial is the name's, not the emoji's.
    assert.ok((await welcome('<:red:1202> Kai')).length > 0)
  })

  it('never reaches a CDN on an address the fetcher refuses: the emoji is its :name:', async () => {
    const strict = await createTestApp({ config: { discordCdnUrl: cdn } })
    try {
      hits.length = 0
      const refused = await custom([{ text: 'x <:red:1301>', x: 10, y: 10, size: 30, color: 'black' }], strict)
      assert.deepEqual(hits, [])
      assert.ok(refused.equals(await custom([{ text: 'x :red:', x: 10, y: 10, size: 30, color: 'black' }], strict)))
    } finally {
      await strict.close()
    }
  })
})
