// CommonMark 0.31.2 conformance (the commonmark-spec package's 652 examples) in both modes,
// and the safe default against a corpus of XSS vectors.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import MarkdownIt from 'markdown-it'
import { Parser } from 'htmlparser2'
import { specExamples } from '../../../fixtures/text-conversion-corpus.js'
import { createMarkdownRenderer } from '../../../../src/conversion/text/markdown-to-html.js'
import { htmlToMarkdown } from '../../../../src/conversion/text/html-to-markdown.js'

const renderer = createMarkdownRenderer()
const examples = specExamples()
// Which examples carry raw HTML: decided by parsing, not by a hand-kept list.
const tokenizer = new MarkdownIt({ html: true })
function hasRawHtml (markdown: string): boolean {
  return tokenizer.parse(markdown, {}).some((t) => t.type === 'html_block' || (t.children ?? []).some((c) => c.type === 'html_inline'))
}

describe('CommonMark 0.31.2 spec examples', () => {
  it('has all 652 examples', () => {
    assert.equal(examples.length, 652)
  })

  it('with unsafe=true, every example renders exactly as the spec says', () => {
    const failed = examples.filter((t) => renderer.render(t.markdown, { unsafe: true }) !== t.html).map((t) => `${t.number} (${t.section})`)
    assert.deepEqual(failed, [])
  })

  it('in the safe default, every example without raw HTML renders exactly as the spec says', () => {
    const plain = examples.filter((t) => !hasRawHtml(t.markdown))
    assert.ok(plain.length > 500, `${plain.length} examples without raw HTML`)
    const failed = plain.filter((t) => renderer.render(t.markdown) !== t.html).map((t) => `${t.number} (${t.section})`)
    assert.deepEqual(failed, [])
  })

  it('in the safe default, examples with raw HTML show the HTML as text and emit no tag of their own', () => {
    const raw = examples.filter((t) => hasRawHtml(t.markdown))
    assert.ok(raw.length > 50)
    for (const t of raw) {
      const html = renderer.render(t.markdown)
      assert.deepEqual(unsafeFindings(html), [], `example ${t.number}`)
      assert.ok(html.includes('&lt;'), `example ${t.number} shows its HTML as text: ${html}`)
    }
  })

  it('the GFM extensions leave the CommonMark examples alone, and autolinks is what changes 611 and 612', () => {
    // GFM extended autolinks turn bare URLs into links, which CommonMark examples 611 and
    // 612 say must stay text: that is why autolinks is an option, off by default.
    const changed = examples.filter((t) => renderer.render(t.markdown, { unsafe: true, autolinks: true }) !== t.html).map((t) => t.number)
    assert.ok(changed.includes(611) && changed.includes(612))
  })
})

const SCHEMES_REFUSED = /^(?:javascript|vbscript|file|data):/i
const DATA_IMAGE_OK = /^data:image\/(?:gif|png|jpeg|webp);/i
const DANGEROUS_TAGS = new Set(['script', 'iframe', 'object', 'embed', 'style', 'link', 'meta', 'base', 'form', 'frame', 'frameset', 'svg', 'math', 'template', 'applet', 'textarea', 'noscript'])

/** What in an HTML fragment could run script, as a browser would parse it. */
function unsafeFindings (html: string): string[] {
  const found: string[] = []
  const parser = new Parser({
    onopentag (name, attrs) {
      if (DANGEROUS_TAGS.has(name)) found.push(`<${name}>`)
      for (const [key, value] of Object.entries(attrs)) {
        if (key.startsWith('on')) found.push(`${name}[${key}]`)
        if (key === 'style' && /expression|url\s*\(|javascript/i.test(value)) found.push(`${name}[style=${value}]`)
        if (['href', 'src', 'action', 'formaction', 'xlink:href', 'srcset', 'background', 'poster', 'data'].includes(key)) {
          // Browsers drop whitespace and control characters inside a scheme.
          const url = value.replace(/[\x00-\x20\x7f]+/g, '')
          if (SCHEMES_REFUSED.test(url) && !DATA_IMAGE_OK.test(url)) found.push(`${name}[${key}=${value}]`)
        }
      }
    }
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true })
  parser.end(html)
  return found
}

/** Known vectors (OWASP XSS filter evasion cheat sheet, markdown-it and marked security reports). */
const XSS_VECTORS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//xss.example/xss.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<IMG """><SCRIPT>alert("XSS")</SCRIPT>">',
  '<svg/onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)">x</a>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<body onload=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<!--><script>alert(1)</script>-->',
  '<scr<script>ipt>alert(1)</script>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](  javascript:alert(1)  )',
  '[x](<javascript:alert(1)>)',
  '[x](javascript&#58;alert(1))',
  '[x](javascript&colon;alert(1))',
  '[x](java\tscript:alert(1))',
  '[x](&#x6A;avascript:alert(1))',
  '[x](%6Aavascript:alert(1))',
  '[x](vbscript:msgbox(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[x](data:text/html,<script>alert(1)</script>)',
  '[x](file:///etc/passwd)',
  '![x](javascript:alert(1))',
  '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '![x"onerror="alert(1)](https://example.com/a.png)',
  '[x](https://example.com "title\\" onmouseover=\\"alert(1)")',
  '<javascript:alert(1)>',
  '<vbscript:alert(1)>',
  '<data:text/html,alert(1)>',
  '[x][ref]\n\n[ref]: javascript:alert(1)',
  '[x]: javascript:alert(1)\n\n![x]',
  '```"><script>alert(1)</script>\ncode\n```',
  '`<script>alert(1)</script>`',
  '# <img src=x onerror=alert(1)>',
  '| <script>alert(1)</script> |\n| --- |\n| [x](javascript:alert(1)) |',
  '- [ ] <img src=x onerror=alert(1)>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '<style>@import "//xss.example/x.css";</style>',
  '<object data="javascript:alert(1)"></object>',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<base href="javascript:alert(1)//">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'
]

describe('the safe default against XSS vectors', () => {
  for (const options of [{}, { breaks: true, headingIds: true, autolinks: true }]) {
    it(`renders no executable output (options ${JSON.stringify(options)})`, () => {
      for (const vector of XSS_VECTORS) {
        const html = renderer.render(vector, options)
        assert.deepEqual(unsafeFindings(html), [], `${vector} → ${html}`)
      }
    })
  }

  it('the checker itself finds what unsafe=true lets through', () => {
    const flagged = XSS_VECTORS.filter((v) => unsafeFindings(renderer.render(v, { unsafe: true })).length > 0)
    assert.ok(flagged.length >= 15, `${flagged.length} vectors flagged in unsafe mode`)
  })

  it('keeps safe links and image data URLs', () => {
    assert.equal(renderer.render('[a](https://example.com/?q=1&r=2) ![b](data:image/png;base64,iVBORw0KGgo=)'),
      '<p><a href="https://example.com/?q=1&amp;r=2">a</a> <img src="data:image/png;base64,iVBORw0KGgo=" alt="b" /></p>\n')
  })
})

describe('HTML → Markdown drops what never shows', () => {
  it('never lets script, style, template, noscript or comments into the Markdown', () => {
    const md = htmlToMarkdown('<p>a</p><script>alert("s")</script><style>.x{color:red}</style><template><p>t</p></template>' +
      '<noscript>ns</noscript><!-- secret --><p>b<script>evil()</script>c</p><SCRIPT type="module">m()</SCRIPT>')
    assert.equal(md, 'a\n\nbc\n')
  })
})
