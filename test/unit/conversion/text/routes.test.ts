// The two endpoints as clients call them: every request shape of the compat notes
// (docs/compatibility.md, "Text conversion"), the answer fields, options, and the errors.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../support/helpers.js'

let t: TestApp
before(async () => { t = await createTestApp() })
after(() => t.close())

const HTML = '<h1>Hi</h1><p>Some <strong>bold</strong> text</p>'
const MD_FROM_HTML = '# Hi\n\nSome **bold** text\n'
const MARKDOWN = '# Hi\n\nSome **bold** text'
const HTML_FROM_MD = '<h1>Hi</h1>\n<p>Some <strong>bold</strong> text</p>\n'

type Shape = { name: string, method: 'GET' | 'POST', headers: Record<string, string>, payload: (text: string, field: string) => string }
const shapes: Shape[] = [
  { name: 'POST JSON {field} (JS, Ruby, Python)', method: 'POST', headers: { 'content-type': 'application/json' }, payload: (text, field) => JSON.stringify({ [field]: text }) },
  { name: 'POST JSON {Field} in another case', method: 'POST', headers: { 'content-type': 'application/json' }, payload: (text, field) => JSON.stringify({ [field.toUpperCase()]: text }) },
  { name: 'POST raw text/plain (Python)', method: 'POST', headers: { 'content-type': 'text/plain' }, payload: (text) => text },
  { name: 'GET raw text, text/plain; charset=utf-8 (C#)', method: 'GET', headers: { 'content-type': 'text/plain; charset=utf-8' }, payload: (text) => text },
  { name: 'GET JSON string (C#)', method: 'GET', headers: { 'content-type': 'text/plain; charset=utf-8' }, payload: (text) => JSON.stringify(text) },
  { name: 'GET JSON {body}, no content type (Rust)', method: 'GET', headers: {}, payload: (text) => JSON.stringify({ body: text }) },
  { name: 'POST raw body, no content type', method: 'POST', headers: {}, payload: (text) => text }
]

describe('POST|GET /convert/html-markdown', () => {
  for (const shape of shapes) {
    it(`converts ${shape.name}`, async () => {
      const res = await t.app.inject({ method: shape.method, url: '/convert/html-markdown', headers: { ...t.auth, ...shape.headers }, payload: shape.payload(HTML, 'html') })
      assert.equal(res.statusCode, 200, res.body)
      assert.match(String(res.headers['content-type']), /^application\/json/)
      assert.deepEqual(json(res), { success: true, code: 200, message: '', markdown: MD_FROM_HTML, content: MD_FROM_HTML })
    })
  }

  it('prefers "html" over "body" when both are sent', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/convert/html-markdown', headers: t.auth, payload: { html: '<em>a</em>', body: '<b>b</b>' } })
    assert.equal(json(res).markdown, '*a*\n')
  })

  it('converts a 1 MB document', async () => {
    const section = '<h2>Part</h2><p>Text with <a href="https://example.com/x">a link</a>, <code>code</code> and <em>emphasis</em>.</p><ul><li>one</li><li>two</li></ul>'
    const html = section.repeat(Math.ceil(1024 * 1024 / section.length))
    const res = await t.app.inject({ method: 'POST', url: '/convert/html-markdown', headers: { ...t.auth, 'content-type': 'text/plain' }, payload: html })
    assert.equal(res.statusCode, 200)
    const markdown = json(res).markdown as string
    assert.equal(markdown.split('## Part').length - 1, Math.ceil(1024 * 1024 / section.length))
    assert.ok(markdown.includes('Text with [a link](https://example.com/x), `code` and *emphasis*.\n\n- one\n- two'))
  })
})

describe('POST|GET /convert/markdown-html', () => {
  for (const shape of shapes) {
    it(`converts ${shape.name}`, async () => {
      const res = await t.app.inject({ method: shape.method, url: '/convert/markdown-html', headers: { ...t.auth, ...shape.headers }, payload: shape.payload(MARKDOWN, 'markdown') })
      assert.equal(res.statusCode, 200, res.body)
      assert.match(String(res.headers['content-type']), /^application\/json/)
      assert.deepEqual(json(res), { success: true, code: 200, message: '', html: HTML_FROM_MD, content: HTML_FROM_MD })
    })
  }

  it('escapes raw HTML by default and passes it with unsafe=true', async () => {
    const payload = { markdown: '<b onclick="x()">hi</b>' }
    const safe = await t.app.inject({ method: 'POST', url: '/convert/markdown-html', headers: t.auth, payload })
    assert.equal(json(safe).html, '<p>&lt;b onclick=&quot;x()&quot;&gt;hi&lt;/b&gt;</p>\n')
    const unsafe = await t.app.inject({ method: 'POST', url: '/convert/markdown-html?unsafe=true', headers: t.auth, payload })
    assert.equal(json(unsafe).html, '<p><b onclick="x()">hi</b></p>\n')
  })

  it('takes breaks, headingIds, headingIdPrefix and autolinks from the query', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/convert/markdown-html?breaks=true&headingIds=true&headingIdPrefix=user-content-&autolinks=true',
      headers: { ...t.auth, 'content-type': 'text/plain' },
      payload: '# Hello World\n\n## Hello World\n\nline one\nsee https://example.com'
    })
    assert.equal(json(res).html,
      '<h1 id="user-content-hello-world">Hello World</h1>\n<h2 id="user-content-hello-world-1">Hello World</h2>\n' +
      '<p>line one<br />\nsee <a href="https://example.com">https://example.com</a></p>\n')
  })

  it('takes the options from the JSON body too, and they win over the query', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/convert/markdown-html?breaks=true', headers: t.auth, payload: JSON.stringify({ Markdown: 'a\nb\n\n# T', breaks: false, HeadingIds: true }) })
    assert.equal(json(res).html, '<p>a\nb</p>\n<h1 id="t">T</h1>\n')
  })

  it('renders GFM tables, strikethrough and task lists', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/convert/markdown-html', headers: t.auth, payload: { markdown: '| a | b |\n| :- | -: |\n| ~~x~~ | y |\n\n- [x] done\n- [ ] todo' } })
    assert.equal(json(res).html,
      '<table>\n<thead>\n<tr>\n<th style="text-align:left">a</th>\n<th style="text-align:right">b</th>\n</tr>\n</thead>\n<tbody>\n' +
      '<tr>\n<td style="text-align:left"><s>x</s></td>\n<td style="text-align:right">y</td>\n</tr>\n</tbody>\n</table>\n' +
      '<ul class="task-list-container">\n' +
      '<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" id="task-item-0" checked="checked" disabled="disabled" /> done</li>\n' +
      '<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" id="task-item-1" disabled="disabled" /> todo</li>\n</ul>\n')
  })
})

describe('text conversion errors', () => {
  const routes = ['/convert/html-markdown', '/convert/markdown-html']

  async function expectError (res: { statusCode: number, headers: Record<string, unknown>, body: string }, status: number, error: string, message?: RegExp): Promise<void> {
    assert.equal(res.statusCode, status, res.body)
    assert.match(String(res.headers['content-type']), /^application\/json/)
    const body = json(res)
    assert.deepEqual({ success: body.success, code: body.code, error: body.error }, { success: false, code: status, error })
    assert.equal(typeof body.requestId, 'string')
    if (message) assert.match(body.message, message)
  }

  for (const url of routes) {
    const field = url.endsWith('markdown') ? 'html' : 'markdown'
    it(`${url}: an empty body, blank text or a JSON object without the field is TEXT_INPUT_MISSING (400)`, async () => {
      await expectError(await t.app.inject({ method: 'POST', url, headers: t.auth }), 400, 'TEXT_INPUT_MISSING', /Nothing to convert/)
      await expectError(await t.app.inject({ method: 'GET', url, headers: { ...t.auth, 'content-type': 'text/plain' }, payload: '  \n ' }), 400, 'TEXT_INPUT_MISSING')
      await expectError(await t.app.inject({ method: 'POST', url, headers: t.auth, payload: { [field]: '' } }), 400, 'TEXT_INPUT_MISSING')
      await expectError(await t.app.inject({ method: 'POST', url, headers: t.auth, payload: { other: 'x' } }), 400, 'TEXT_INPUT_MISSING', new RegExp(`"${field}"`))
    })

    it(`${url}: a non-string field is TEXT_INPUT_NOT_STRING (400)`, async () => {
      await expectError(await t.app.inject({ method: 'POST', url, headers: t.auth, payload: { [field]: 42 } }), 400, 'TEXT_INPUT_NOT_STRING', new RegExp(`"${field}" field must be a string, got number`))
      await expectError(await t.app.inject({ method: 'POST', url, headers: t.auth, payload: { body: ['a'] } }), 400, 'TEXT_INPUT_NOT_STRING', /got an array/)
    })

    it(`${url}: invalid UTF-8 is INVALID_UTF8 (400)`, async () => {
      await expectError(await t.app.inject({ method: 'POST', url, headers: { ...t.auth, 'content-type': 'text/plain' }, payload: Buffer.from([0x61, 0xff, 0xfe, 0x62]) }), 400, 'INVALID_UTF8')
    })
  }

  it('a body over the limit is BODY_TOO_LARGE (413), naming the limit', async () => {
    const small = await createTestApp({ config: { textBodyLimit: 2048 } })
    try {
      for (const url of routes) {
        const res = await small.app.inject({ method: 'POST', url, headers: { ...small.auth, 'content-type': 'text/plain' }, payload: 'x'.repeat(4096) })
        await expectError(res, 413, 'BODY_TOO_LARGE', /at most 2 KiB \(2048 bytes\)/)
      }
    } finally {
      await small.close()
    }
  })

  it('the default limit is 4 MiB: a 3 MB body passes, a 5 MB body does not', async () => {
    const ok = await t.app.inject({ method: 'POST', url: '/convert/markdown-html', headers: { ...t.auth, 'content-type': 'text/plain' }, payload: 'word '.repeat(600_000) })
    assert.equal(ok.statusCode, 200)
    const tooBig = await t.app.inject({ method: 'POST', url: '/convert/markdown-html', headers: { ...t.auth, 'content-type': 'text/plain' }, payload: 'x'.repeat(5 * 1024 * 1024) })
    await expectError(tooBig, 413, 'BODY_TOO_LARGE', /at most 4 MiB/)
  })

  it('an invalid option is VALIDATION (400) naming it', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/convert/markdown-html?breaks=maybe', headers: t.auth, payload: { markdown: 'x' } })
    await expectError(res, 400, 'VALIDATION', /breaks/)
  })
})

describe('the answer JSON of a text conversion', () => {
  it('is byte for byte the envelope with the field and content, the text written once for both', async () => {
    const { ok, textAnswerJson } = await import('../../../../src/http/success.js')
    for (const text of ['', '<p>"quoted" \\ back</p>\n', 'é 😀 \u2028 \u0000 lone \ud800 surrogate', '<h1>Hi</h1>'.repeat(2000)]) {
      for (const field of ['html', 'markdown'] as const) {
        assert.equal(textAnswerJson(field, text).toString('utf8'), JSON.stringify(ok({ [field]: text, content: text })))
      }
    }
  })
})
