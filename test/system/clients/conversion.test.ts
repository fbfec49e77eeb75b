// Client replay, conversions: the four ways clients send text to /convert/html-markdown
// and /convert/markdown-html, and the two ways they send images to /convert/image-*
// (docs/compatibility.md), as exact bytes over a socket to the built server process.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { imageOf, JPEG_SIGNATURE, jsonOf, KEY, PNG_SIGNATURE, type ReplayServer, send, startReplayServer } from './wire.js'

let s: ReplayServer
let png: Buffer
before(async () => {
  s = await startReplayServer()
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3080c0' } }).png().toBuffer()
})
after(async () => { await s.close() })

const HTML = '<h1>Hi</h1><p>a <b>bold</b> word</p>'
const MARKDOWN = '# Hi\n\na **bold** word'

describe('clients of /convert/html-markdown and /convert/markdown-html', () => {
  const cases: Array<{ who: string, method: string, headers: Array<[string, string]>, html: string, markdown: string, reads: 'named' | 'content' }> = [
    { who: 'JS / Ruby / Python: POST {"html"} / {"markdown"} as application/json', method: 'POST', headers: [['Content-Type', 'application/json']], html: JSON.stringify({ html: HTML }), markdown: JSON.stringify({ markdown: MARKDOWN }), reads: 'named' },
    { who: 'another Python: POST the raw text as text/plain', method: 'POST', headers: [['Content-Type', 'text/plain']], html: HTML, markdown: MARKDOWN, reads: 'named' },
    { who: 'C#: GET the raw text as text/plain; charset=utf-8, reading `content`', method: 'GET', headers: [['Content-Type', 'text/plain; charset=utf-8']], html: HTML, markdown: MARKDOWN, reads: 'content' },
    { who: 'C#: GET a JSON string as text/plain; charset=utf-8, reading `content`', method: 'GET', headers: [['Content-Type', 'text/plain; charset=utf-8']], html: JSON.stringify(HTML), markdown: JSON.stringify(MARKDOWN), reads: 'content' },
    { who: 'Rust: GET {"body"} with no content type', method: 'GET', headers: [], html: JSON.stringify({ body: HTML }), markdown: JSON.stringify({ body: MARKDOWN }), reads: 'named' }
  ]
  for (const c of cases) {
    it(c.who, async () => {
      const toMarkdown = jsonOf(await send(s.port, { method: c.method, target: '/convert/html-markdown', headers: [['Authorization', KEY], ...c.headers], body: c.html }))
      assert.deepEqual([toMarkdown.success, toMarkdown.code, toMarkdown.message], [true, 200, ''], JSON.stringify(toMarkdown))
      assert.equal(c.reads === 'content' ? toMarkdown.content : toMarkdown.markdown, `${MARKDOWN}\n`)
      const toHtml = jsonOf(await send(s.port, { method: c.method, target: '/convert/markdown-html', headers: [['Authorization', KEY], ...c.headers], body: c.markdown }))
      assert.equal(toHtml.code, 200, JSON.stringify(toHtml))
      const html = c.reads === 'content' ? toHtml.content : toHtml.html
      assert.match(html, /<h1[^>]*>Hi<\/h1>/)
      assert.match(html, /<strong>bold<\/strong>/)
    })
  }

  it('answers an empty body with the error envelope', async () => {
    const answer = await send(s.port, { method: 'GET', target: '/convert/html-markdown', headers: [['Authorization', KEY]] })
    assert.equal(answer.status, 400)
    const body = jsonOf(answer)
    assert.deepEqual([body.success, body.code], [false, 400])
  })
})

function multipart (boundary: string, file: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="image.png"\r\nContent-Type: image/png\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`)
  ])
}

describe('clients of /convert/image-*', () => {
  it('Python: POST multipart/form-data, the image in the part "file", ?quality=', async () => {
    const boundary = '3f1c9a0e7b2d4c6a8e0f1a2b3c4d5e6f'
    const answer = await send(s.port, {
      method: 'POST',
      target: '/convert/image-jpg?quality=60',
      headers: [['Authorization', KEY], ['Content-Type', `multipart/form-data; boundary=${boundary}`]],
      body: multipart(boundary, png)
    })
    assert.equal(answer.status, 200, answer.body.toString().slice(0, 300))
    assert.equal(answer.headers['content-type'], 'image/jpeg')
    assert.equal(answer.headers['x-image-quality'], '60')
    const jpg = imageOf(answer)
    assert.ok(jpg.subarray(0, 3).equals(JPEG_SIGNATURE))
    assert.deepEqual([(await sharp(jpg).metadata()).width, (await sharp(jpg).metadata()).height], [40, 30])
  })

  it('a C# helper: POST the raw bytes as the body', async () => {
    const answer = await send(s.port, { method: 'POST', target: '/convert/image-webp', headers: [['Authorization', KEY], ['Content-Type', 'application/octet-stream']], body: png })
    assert.equal(answer.status, 200, answer.body.toString().slice(0, 300))
    const webp = imageOf(answer)
    assert.equal(webp.subarray(0, 4).toString('latin1'), 'RIFF')
    assert.equal(webp.subarray(8, 12).toString('latin1'), 'WEBP')
    const back = await send(s.port, { method: 'POST', target: '/convert/image-png', headers: [['Authorization', KEY]], body: webp })
    assert.ok(imageOf(back).subarray(0, 8).equals(PNG_SIGNATURE))
  })

  it('answers bytes that are no image with the error envelope (first byte `{`)', async () => {
    const answer = await send(s.port, { method: 'POST', target: '/convert/image-png', headers: [['Authorization', KEY], ['Content-Type', 'application/octet-stream']], body: Buffer.from('not an image at all') })
    assert.ok(answer.status >= 400 && answer.status < 500, String(answer.status))
    const body = jsonOf(answer)
    assert.deepEqual([body.success, body.code], [false, answer.status])
  })
})
