// The round-trip fidelity measure of HTML → Markdown, shared by the benchmark and the
// tests: convert HTML to Markdown, render that back with our Markdown renderer, and compare
// both documents normalised (whitespace collapsed as a browser shows it, attributes in
// order, entities decoded). The corpus: the HTML of every CommonMark spec example, plus
// GFM documents (tables, strikethrough, task lists) rendered by the same renderer.
import { createRequire } from 'node:module'
import { Parser } from 'htmlparser2'
import { createMarkdownRenderer, type MarkdownRenderer } from '../src/conversion/text/markdown-to-html.js'

const require = createRequire(import.meta.url)

export interface SpecExample { markdown: string, html: string, section: string, number: number }

/** The CommonMark 0.31.2 examples; the spec file writes tabs as →. */
export function specExamples (): SpecExample[] {
  const spec = require('commonmark-spec') as { tests: SpecExample[] }
  return spec.tests.map((t) => ({ ...t, markdown: t.markdown.replace(/→/g, '\t'), html: t.html.replace(/→/g, '\t') }))
}

const BLOCK = new Set(['address', 'article', 'aside', 'blockquote', 'body', 'dd', 'div', 'dl', 'dt', 'figure', 'footer',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'html', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section',
  'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul'])

/** GFM writes strikethrough as <del>, markdown-it as <s>: a reader sees the same. */
function canonicalName (name: string): string {
  return name === 'del' || name === 'strike' ? 's' : name
}

/** A URL percent-encoded or not is the same address to a browser. */
function canonicalUrl (url: string): string {
  try {
    return encodeURI(decodeURI(url))
  } catch {
    return url
  }
}

/** A canonical form of an HTML fragment: equal forms show the same document. */
export function normalizeHtml (html: string): string {
  const parts: string[] = []
  let text = ''
  let pre = 0
  const flushText = (): void => {
    if (text === '') return
    parts.push(pre > 0 ? text.replace(/\n+$/, '') : text.replace(/[ \t\n\r\f]+/g, ' '))
    text = ''
  }
  const trimAround = (): void => {
    // Whitespace next to a block boundary does not show.
    const last = parts.length - 1
    if (last >= 0 && !parts[last]!.startsWith('<')) parts[last] = parts[last]!.replace(/ +$/, '')
  }
  const parser = new Parser({
    onopentag (name, attrs) {
      flushText()
      if (BLOCK.has(name)) trimAround()
      if (name === 'pre') pre++
      // align="x" and style="text-align: x" show the same (GFM writes either).
      if (attrs.align !== undefined && (name === 'td' || name === 'th')) {
        attrs.style = `text-align:${attrs.align.toLowerCase()}` + (attrs.style ? ';' + attrs.style : '')
        delete attrs.align
      }
      if (attrs.style !== undefined) attrs.style = attrs.style.replace(/\s*([:;])\s*/g, '$1').replace(/;$/, '')
      const keys = Object.keys(attrs).sort()
      parts.push('<' + canonicalName(name) + keys.map((k) => ` ${k}="${k === 'href' || k === 'src' ? canonicalUrl(attrs[k]!) : attrs[k]}"`).join('') + '>')
    },
    onclosetag (name) {
      flushText()
      if (BLOCK.has(name)) trimAround()
      if (name === 'pre') pre--
      parts.push('</' + canonicalName(name) + '>')
    },
    ontext (t) {
      text += t
    }
  }, { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true })
  parser.end(html)
  flushText()
  // Leading spaces after a block start, and empty text between blocks, do not show.
  return parts.join('').replace(/ *(<br><\/br>) */g, '$1').replace(/(<\/?(?:[a-z0-9]+)[^>]*>) +/g, (m, tag: string) => BLOCK.has(/^<\/?([a-z0-9]+)/.exec(tag)![1]!) ? tag : m).trim()
}

/** GFM documents people write: rendered to HTML, they are the second part of the corpus. */
export const GFM_MARKDOWN: string[] = [
  '| a | b |\n| --- | --- |\n| 1 | 2 |\n',
  '| left | center | right |\n| :-- | :-: | --: |\n| 1 | 2 | 3 |\n| x | y | z |\n',
  '| code | pipe |\n| --- | --- |\n| `a \\| b` | c \\| d |\n',
  '| *em* | **strong** |\n| --- | --- |\n| [link](https://example.com "t") | ![img](/i.png) |\n',
  'Some ~~deleted~~ text and ~~more *emphasis* inside~~.\n',
  '- [ ] todo\n- [x] done\n- plain\n',
  '1. [x] first\n2. [ ] second\n',
  '# Title\n\nA paragraph with **bold**, *em*, `code` and a [link](http://a.example/b?c=d&e=f).\n\n> quoted\n> text\n\n```js\nconst a = `x`\n```\n',
  '3. three\n4. four\n\n- a\n  - nested\n    1. deep\n- b\n',
  '- loose item\n\n  second paragraph\n\n- another\n',
  'line one  \nline two\\\nline three\n',
  'Text with * stars * and _under_scores_ and 1. numbers and # hashes and a < b & ampersands &amp; entities.\n',
  '***\n\n## Heading with `code` and trailing #\n\n---\n\nEnd.\n',
  '````\ncode with ``` fence\n````\n',
  '![alt *text*](/path/to/img.png "Image title")\n',
  '> - quoted list\n> - items\n>\n> > nested quote\n'
]

export interface Fidelity { total: number, passed: number, failures: Array<{ html: string, markdown: string, back: string }> }

/** The share of documents whose Markdown renders back to the same normalised HTML. */
export function measureFidelity (convert: (html: string) => string, documents: string[], renderer: MarkdownRenderer = createMarkdownRenderer()): Fidelity {
  let passed = 0
  const failures: Fidelity['failures'] = []
  for (const html of documents) {
    let markdown = ''
    let back = ''
    try {
      markdown = convert(html)
      back = renderer.render(markdown, { unsafe: true })
    } catch {
      back = '(threw)'
    }
    if (normalizeHtml(back) === normalizeHtml(html)) passed++
    else failures.push({ html, markdown, back })
  }
  return { total: documents.length, passed, failures }
}

/** The corpus: every spec example's HTML (non-empty) and the GFM documents, rendered. */
export function fidelityCorpus (renderer: MarkdownRenderer = createMarkdownRenderer()): string[] {
  const docs = specExamples().map((t) => t.html).filter((h) => h.trim() !== '')
  for (const md of GFM_MARKDOWN) docs.push(renderer.render(md, { unsafe: true }))
  return docs
}
