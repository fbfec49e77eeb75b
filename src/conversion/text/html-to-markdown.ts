// HTML → GitHub-flavoured Markdown. htmlparser2's tokenizer (fast and forgiving: unclosed
// tags, stray closers and unquoted attributes all parse) feeds a small tree per top-level
// block; a serializer writes it as CommonMark plus the GFM extensions (tables,
// strikethrough, task lists) as soon as it closes, so that rendering the Markdown back
// gives the source document. Cost is linear in the input: one parse, one walk per block,
// text escaped in single passes, nesting bounded.
import { Parser } from 'htmlparser2'

/** Deeper elements are flattened into their ancestor: bounds recursion on hostile input. */
export const MAX_ELEMENT_DEPTH = 256
/** Deeper block quotes and lists are flattened: every level adds a prefix to every line. */
export const MAX_CONTAINER_DEPTH = 32

interface El {
  name: string
  attrs: Record<string, string>
  children: Node[]
}
type Node = El | string

/** Content that never shows in a document (HTML §4.12, §4.2; comments are dropped by the parser callbacks). */
const DROPPED = new Set(['script', 'style', 'template', 'noscript', 'head', 'title', 'iframe', 'object', 'embed', 'svg', 'math', 'select', 'option', 'button', 'textarea', 'canvas', 'audio', 'video', 'map'])

const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'center', 'details', 'dialog', 'dd', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup',
  'hr', 'html', 'legend', 'li', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody',
  'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'caption'
])

// ---------------------------------------------------------------------------------------
// Escaping (CommonMark 0.31.2 §2.4 backslash escapes, §6 inlines, §4-5 block starts).

function isAlnum (c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
}
function isAsciiPunct (c: number): boolean {
  return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)
}

const INLINE_SPECIAL = /[\\`*_[<&~]/
const ENTITY_LIKE = /^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});/

/** Escapes what inline parsing would misread in text: emphasis, code, links, HTML, entities, strikethrough. */
export function escapeInline (s: string): string {
  if (!INLINE_SPECIAL.test(s)) return s
  let out = ''
  let last = 0
  const n = s.length
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i)
    let escape = false
    switch (c) {
      case 92: // \ escapes only before punctuation; at the end the next node may start with one
        escape = i + 1 >= n || isAsciiPunct(s.charCodeAt(i + 1))
        break
      case 96: case 42: case 91: // ` * [
        escape = true
        break
      case 95: // _ inside a word never delimits emphasis (§6.2)
        escape = !(i > 0 && i + 1 < n && isAlnum(s.charCodeAt(i - 1)) && isAlnum(s.charCodeAt(i + 1)))
        break
      case 60: { // < before a tag name, closer, comment, declaration or processing instruction
        const d = i + 1 < n ? s.charCodeAt(i + 1) : 0
        escape = d === 0 || d === 47 || d === 33 || d === 63 || (d >= 65 && d <= 90) || (d >= 97 && d <= 122)
        break
      }
      case 38: // & that would read as an entity
        escape = ENTITY_LIKE.test(s.slice(i, i + 40))
        break
      case 126: // ~ delimits strikethrough in runs
        escape = i === 0 || i + 1 >= n || s.charCodeAt(i - 1) === 126 || s.charCodeAt(i + 1) === 126
        break
    }
    if (escape) {
      out += s.slice(last, i) + '\\'
      last = i
    }
  }
  return out + s.slice(last)
}

/** Characters escapeText looks at: the inline specials, HTML whitespace, | and ]. */
const TEXT_SPECIAL = new Uint8Array(128)
for (const c of '\\`*_[<&~|] \t\n\f\r') TEXT_SPECIAL[c.charCodeAt(0)] = 1

function isHtmlSpace (c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 12 || c === 13
}

const ENTITY_AT = /&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});/y

/**
 * Text as inline Markdown in one scan: escapeInline's escapes, | in table cells (GFM), ]
 * in link text (§6.3), and HTML whitespace runs collapsed to one space (non-breaking
 * spaces stay). Decisions read the raw neighbours, which collapsing never turns into
 * something else, so this equals escaping first and collapsing after.
 */
function escapeText (s: string, inTable: boolean, inBrackets: boolean): string {
  let out = ''
  let last = 0
  const n = s.length
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i)
    if (c > 127 || TEXT_SPECIAL[c] === 0) continue
    let escape = false
    switch (c) {
      case 32: case 9: case 10: case 12: case 13: {
        let j = i + 1
        while (j < n && isHtmlSpace(s.charCodeAt(j))) j++
        if (c === 32 && j === i + 1) continue // a single space stays
        out += s.slice(last, i) + ' '
        last = j
        i = j - 1
        continue
      }
      case 124: // |
        escape = inTable
        break
      case 93: // ]
        escape = inBrackets
        break
      case 92:
        escape = i + 1 >= n || isAsciiPunct(s.charCodeAt(i + 1))
        break
      case 96: case 42: case 91:
        escape = true
        break
      case 95:
        escape = !(i > 0 && i + 1 < n && isAlnum(s.charCodeAt(i - 1)) && isAlnum(s.charCodeAt(i + 1)))
        break
      case 60: {
        const d = i + 1 < n ? s.charCodeAt(i + 1) : 0
        escape = d === 0 || d === 47 || d === 33 || d === 63 || (d >= 65 && d <= 90) || (d >= 97 && d <= 122)
        break
      }
      case 38:
        ENTITY_AT.lastIndex = i
        escape = ENTITY_AT.test(s)
        break
      case 126:
        escape = i === 0 || i + 1 >= n || s.charCodeAt(i - 1) === 126 || s.charCodeAt(i + 1) === 126
        break
    }
    if (escape) {
      out += s.slice(last, i) + '\\'
      last = i
    }
  }
  return out === '' ? s : out + s.slice(last)
}

const LINE_START = /^(?:#{1,6}(?=[ \t]|$)|[>+=-]|\d{1,9}[.)](?=[ \t]|$))/

/** Escapes what would start a block at the beginning of a line (§4, §5): headings, quotes, lists, breaks. */
function escapeLineStart (s: string): string {
  const m = LINE_START.exec(s)
  if (!m) return s
  const first = s.charCodeAt(0)
  if (first === 45 || first === 43 || first === 61) { // - + =
    // Only a list marker (followed by a space or nothing) or a line of them is a block start.
    const next = s.charCodeAt(1)
    if (!(s.length === 1 || next === 32 || next === 9 || /^[-=]+[ \t]*$/.test(s))) return s
    return '\\' + s
  }
  if (first >= 48 && first <= 57) {
    const digits = m[0].length - 1
    return s.slice(0, digits) + '\\' + s.slice(digits)
  }
  return '\\' + s
}

function escapeTitle (title: string): string {
  return '"' + title.replace(/[\\"]/g, '\\$&').replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&') + '"'
}

function linkDestination (href: string): string {
  if (href === '' || /[\s<>\x00-\x1f]/.test(href)) {
    return '<' + href.replace(/[\\<>]/g, '\\$&').replace(/[\r\n]/g, (c) => encodeURIComponent(c)).replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&') + '>'
  }
  return href.replace(/[\\()]/g, '\\$&').replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&')
}

// ---------------------------------------------------------------------------------------
// Inline content.

/** Collects inline Markdown with HTML whitespace collapsing and line-start escaping. */
class InlineWriter {
  out = ''
  /** Whitespace seen and not yet written: written as one space before the next content. */
  space = false
  /** Content started with whitespace (so a wrapper can move it outside its delimiters). */
  leading = false
  atLineStart: boolean
  started = false

  constructor (atLineStart: boolean, readonly inTable: boolean, readonly inHeading: boolean, readonly inBrackets = false) {
    this.atLineStart = atLineStart
  }

  text (raw: string): void {
    // Escaped as a whole: whether a character can be misread depends on its neighbours.
    const text = escapeText(raw, this.inTable, this.inBrackets)
    let start = 0
    let end = text.length
    if (end > 0 && text.charCodeAt(0) === 32) {
      if (!this.started) this.leading = true
      this.space = true
      start = 1
    }
    const trailing = end > start && text.charCodeAt(end - 1) === 32
    if (trailing) end--
    if (end > start) {
      let body = start === 0 && end === text.length ? text : text.slice(start, end)
      this.flushSpace()
      if (this.atLineStart) body = escapeLineStart(body)
      this.out += body
      this.atLineStart = false
      this.started = true
    }
    if (trailing) this.space = true
  }

  flushSpace (): void {
    if (this.space && this.out !== '' && !this.atLineStart) this.out += ' '
    this.space = false
  }

  /** Markup, written as is. */
  raw (markup: string): void {
    this.flushSpace()
    this.out += markup
    this.atLineStart = false
    this.started = true
  }

  hardBreak (): void {
    if (this.out === '' || this.atLineStart) return
    this.space = false
    if (this.inTable) {
      // GFM table cells are one line: GitHub renders an inline <br> there.
      this.out += '<br>'
      return
    }
    if (this.inHeading) {
      this.space = true
      return
    }
    this.out += '\\\n'
    this.atLineStart = true
  }

  /** The result, without a hard break at the end (CommonMark ignores it there, §6.7). */
  finish (): string {
    let s = this.out
    if (s.endsWith('\\\n')) s = s.slice(0, -2)
    else if (s.endsWith('<br>')) s = s.slice(0, -4)
    return s
  }
}


/** The text of a subtree, as is (code, pre). */
function textContent (node: Node): string {
  if (typeof node === 'string') return node
  if (node.name === 'br') return '\n'
  let s = ''
  for (const child of node.children) s += textContent(child)
  return s
}

function longestRun (s: string, ch: string): number {
  const c = ch.charCodeAt(0)
  let best = 0
  let i = s.indexOf(ch)
  while (i >= 0) {
    let j = i + 1
    while (j < s.length && s.charCodeAt(j) === c) j++
    if (j - i > best) best = j - i
    i = s.indexOf(ch, j)
  }
  return best
}

/** A code span whose backtick string is not in the content (§6.1). */
function codeSpan (content: string): string {
  const text = content.replace(/\r\n|\r|\n/g, ' ')
  if (text === '') return ''
  const fence = '`'.repeat(longestRun(text, '`') + 1)
  const pad = text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' ') && text.trim() !== '')
  return pad ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`
}

interface Ctx {
  /** Block quote and list nesting so far. */
  containers: number
  inTable: boolean
  inHeading: boolean
  inLink: boolean
  /** Inside a list item: "---" would read as a setext underline after a paragraph line. */
  inListItem: boolean
}

function wrap (w: InlineWriter, el: El, ctx: Ctx, open: string, close: string): void {
  const inner = new InlineWriter(false, ctx.inTable, ctx.inHeading, ctx.inLink)
  inlineChildren(inner, el.children, ctx)
  const content = inner.finish()
  // *ab* inside *…* would read as strong (§6.2 rule 14): the other delimiter keeps them apart.
  if (open === '*' && (content.startsWith('*') || content.endsWith('*'))) {
    open = '_'
    close = '_'
  }
  if (inner.leading) w.space = true
  if (content !== '') w.raw(open + content + close)
  if (inner.space) w.space = true
}

function inlineNode (w: InlineWriter, node: Node, ctx: Ctx): void {
  if (typeof node === 'string') {
    w.text(node)
    return
  }
  switch (node.name) {
    case 'em': case 'i': case 'cite': case 'dfn': case 'var':
      wrap(w, node, ctx, '*', '*')
      return
    case 'strong': case 'b':
      wrap(w, node, ctx, '**', '**')
      return
    case 'del': case 's': case 'strike':
      wrap(w, node, ctx, '~~', '~~')
      return
    case 'code': case 'kbd': case 'samp': case 'tt': {
      const text = textContent(node)
      // Leading and trailing whitespace of a code element belongs to it (§6.1 keeps one
      // space of padding); collapsing it outside would change the code.
      // In a GFM table a pipe ends the cell even inside a code span (GFM spec, example 200).
      const span = ctx.inTable ? codeSpan(text).replace(/\|/g, '\\|') : codeSpan(text)
      if (span !== '') w.raw(span)
      return
    }
    case 'br':
      w.hardBreak()
      return
    case 'img': {
      const src = node.attrs.src
      if (src === undefined) return
      const alt = escapeInline(node.attrs.alt ?? '').replace(/\]/g, '\\]')
      const title = node.attrs.title
      w.raw(`![${alt}](${linkDestination(src)}${title !== undefined ? ' ' + escapeTitle(title) : ''})`)
      return
    }
    case 'a': {
      const href = node.attrs.href
      if (href === undefined || ctx.inLink) {
        inlineChildren(w, node.children, ctx)
        return
      }
      const title = node.attrs.title
      const inner = new InlineWriter(false, ctx.inTable, ctx.inHeading, true)
      inlineChildren(inner, node.children, { ...ctx, inLink: true })
      // "!" right before a link would make it an image.
      if (w.out.endsWith('!') && !w.space) w.out = w.out.slice(0, -1) + '\\!'
      const content = inner.finish()
      if (inner.leading) w.space = true
      const plain = textContent(node)
      // An autolink (§6.5) where the text is the URL itself: the form the spec renders it from.
      if (title === undefined && /^[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>\x00-\x1f]*$/.test(href) && plain === href && !ctx.inTable) {
        w.raw(`<${href}>`)
      } else if (title === undefined && href.startsWith('mailto:') && plain === href.slice(7) && /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(plain)) {
        w.raw(`<${plain}>`)
      } else {
        w.raw(`[${content}](${linkDestination(href)}${title !== undefined ? ' ' + escapeTitle(title) : ''})`)
      }
      if (inner.space) w.space = true
      return
    }
    case 'input':
      // Checkboxes are written by the list item (task lists); other inputs carry no text.
      return
    default:
      if (BLOCKS.has(node.name)) {
        // A block inside inline content (or a table cell): its text, set apart.
        w.space = true
        inlineChildren(w, node.children, ctx)
        if (node.name === 'p' || node.name === 'div' || node.name === 'li' || node.name === 'tr') w.hardBreak()
        else w.space = true
        return
      }
      // Unknown and other inline elements (span, u, sup, abbr, custom tags) keep their text.
      inlineChildren(w, node.children, ctx)
  }
}

function inlineChildren (w: InlineWriter, nodes: Node[], ctx: Ctx): void {
  for (const node of nodes) inlineNode(w, node, ctx)
}

// ---------------------------------------------------------------------------------------
// Blocks. Each block is a string of Markdown lines; the caller joins them.

function indent (text: string, first: string, rest: string): string {
  let out = ''
  let start = 0
  let isFirst = true
  while (start <= text.length) {
    let end = text.indexOf('\n', start)
    if (end < 0) end = text.length
    const line = text.slice(start, end)
    out += (isFirst ? first : (line === '' ? rest.trimEnd() : rest)) + line
    if (end < text.length) out += '\n'
    isFirst = false
    start = end + 1
  }
  return out
}

/** Converts children into blocks: runs of inline content become paragraphs. */
function blocks (nodes: Node[], ctx: Ctx, out: string[]): void {
  let start = -1
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!
    if (typeof node !== 'string' && BLOCKS.has(node.name)) {
      if (start >= 0) pushParagraph(nodes, start, i, ctx, out)
      start = -1
      block(node, ctx, out)
    } else if (start < 0) start = i
  }
  if (start >= 0) pushParagraph(nodes, start, nodes.length, ctx, out)
}

function pushParagraph (nodes: Node[], from: number, to: number, ctx: Ctx, out: string[]): void {
  const w = new InlineWriter(true, false, false)
  for (let i = from; i < to; i++) inlineNode(w, nodes[i]!, ctx)
  const text = w.finish()
  if (text !== '') out.push(text)
}

function paragraph (nodes: Node[], ctx: Ctx): string {
  const w = new InlineWriter(true, false, false)
  inlineChildren(w, nodes, ctx)
  return w.finish()
}

function block (el: El, ctx: Ctx, out: string[]): void {
  switch (el.name) {
    case 'p': {
      const text = paragraph(el.children, ctx)
      if (text !== '') out.push(text)
      return
    }
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': {
      const w = new InlineWriter(false, false, true)
      inlineChildren(w, el.children, { ...ctx, inHeading: true })
      let text = w.finish()
      // A closing sequence of #s would be stripped (§4.2, example 76): escape the last.
      if (text.endsWith('#')) text = text.slice(0, -1) + '\\#'
      out.push('#'.repeat(Number(el.name[1])) + (text === '' ? '' : ' ' + text))
      return
    }
    case 'hr':
      out.push(ctx.inListItem ? '___' : '---')
      return
    case 'pre':
      out.push(codeBlock(el))
      return
    case 'blockquote': {
      if (ctx.containers >= MAX_CONTAINER_DEPTH) {
        blocks(el.children, ctx, out)
        return
      }
      const inner: string[] = []
      blocks(el.children, { ...ctx, containers: ctx.containers + 1, inListItem: false }, inner)
      out.push(inner.length === 0 ? '>' : indent(inner.join('\n\n'), '> ', '> '))
      return
    }
    case 'ul': case 'ol':
      list(el, ctx, out)
      return
    case 'table':
      table(el, ctx, out)
      return
    case 'li':
      // A list item outside a list: its content.
      blocks(el.children, ctx, out)
      return
    default:
      blocks(el.children, ctx, out)
  }
}

function codeBlock (el: El): string {
  const text = textContent(el)
  let code = text
  // A newline right after <pre> is not content (HTML §13.2.6.4.7); htmlparser2 keeps it.
  if (typeof el.children[0] === 'string' && code.charCodeAt(0) === 10) code = code.slice(1)
  if (code.charCodeAt(code.length - 1) === 10) code = code.slice(0, -1)
  let lang = ''
  let codeEl: El | undefined
  for (const c of el.children) {
    if (typeof c !== 'string' && c.name === 'code') {
      codeEl = c
      break
    }
  }
  const cls = (codeEl?.attrs.class ?? '') + ' ' + (el.attrs.class ?? '')
  const m = /(?:^|\s)(?:language|lang)-([^\s`]+)/.exec(cls)
  if (m) lang = m[1]!
  const fence = '`'.repeat(Math.max(3, longestRun(code, '`') + 1))
  return `${fence}${lang}\n${code === '' && !text.includes('\n') ? '' : code + '\n'}${fence}`
}

/** The checkbox a task list item starts with, in its first child or first paragraph. */
function taskCheckbox (li: El): { checked: boolean, rest: Node[] } | null {
  const children = li.children
  let i = 0
  while (i < children.length && typeof children[i] === 'string' && (children[i] as string).trim() === '') i++
  const first = children[i]
  if (first === undefined || typeof first === 'string') return null
  if (first.name === 'input' && (first.attrs.type ?? '').toLowerCase() === 'checkbox') {
    return { checked: first.attrs.checked !== undefined, rest: children.slice(i + 1) }
  }
  if (first.name === 'p' || first.name === 'label') {
    const inner = taskCheckbox(first)
    if (inner) {
      const replaced: El = { ...first, children: inner.rest }
      return { checked: inner.checked, rest: first.name === 'p' ? [replaced, ...children.slice(i + 1)] : [...inner.rest, ...children.slice(i + 1)] }
    }
  }
  return null
}

/** Alternating bullets keep adjacent lists apart (§5.3: a new marker starts a new list). */
const BULLETS = ['-', '*', '+']

function list (el: El, ctx: Ctx, out: string[]): void {
  const items = el.children.filter((c): c is El => typeof c !== 'string' && c.name === 'li')
  const stray = el.children.filter((c) => typeof c !== 'string' ? c.name !== 'li' : c.trim() !== '')
  if (ctx.containers >= MAX_CONTAINER_DEPTH) {
    blocks(el.children, ctx, out)
    return
  }
  if (items.length === 0) {
    if (stray.length > 0) blocks(stray, ctx, out)
    return
  }
  const ordered = el.name === 'ol'
  const startAttr = ordered ? Number.parseInt(el.attrs.start ?? '1', 10) : 1
  let number = Number.isFinite(startAttr) && startAttr >= 0 ? Math.min(startAttr, 999_999_999) : 1
  // The previous block being a list of the same kind would swallow this one: switch markers.
  const previous = out[out.length - 1] ?? ''
  let bullet = '-'
  let delimiter = '.'
  if (ordered) {
    if (/^\d{1,9}\.(?:[ \t]|$)/.test(previous)) delimiter = ')'
  } else {
    const used = previous[0]
    if (used !== undefined && BULLETS.includes(used) && (previous[1] === ' ' || previous.length === 1 || previous[1] === '\n')) {
      bullet = BULLETS[(BULLETS.indexOf(used) + 1) % BULLETS.length]!
    }
  }
  const loose = items.some((li) => li.children.some((c) => typeof c !== 'string' && c.name === 'p'))
  const inner: Ctx = { ...ctx, containers: ctx.containers + 1, inListItem: true }
  const rendered: string[] = []
  for (const li of items) {
    const marker = ordered ? `${number++}${delimiter}` : bullet
    const task = taskCheckbox(li)
    const parts: string[] = []
    blocks(task ? task.rest : li.children, inner, parts)
    let content = parts.join(loose ? '\n\n' : '\n')
    if (task) content = (task.checked ? '[x]' : '[ ]') + (content === '' ? '' : ' ' + content)
    const width = marker.length + 1
    if (content === '') rendered.push(marker)
    else if (/^ *(?:```|~~~)/.test(content) || !content.startsWith(' ')) rendered.push(indent(content, marker + ' ', ' '.repeat(width)))
    else rendered.push(indent(content, marker + ' ', ' '.repeat(width)))
  }
  out.push(rendered.join(loose ? '\n\n' : '\n'))
}

type Align = '' | 'left' | 'center' | 'right'

function alignOf (cell: El): Align {
  const a = (cell.attrs.align ?? '').toLowerCase()
  if (a === 'left' || a === 'center' || a === 'right') return a
  const m = /text-align\s*:\s*(left|center|right)/i.exec(cell.attrs.style ?? '')
  return m ? m[1]!.toLowerCase() as Align : ''
}

function table (el: El, ctx: Ctx, out: string[]): void {
  const rows: El[] = []
  let headerRows = 0
  const caption: Node[] = []
  const collect = (node: El, section: string): void => {
    for (const child of node.children) {
      if (typeof child === 'string') continue
      if (child.name === 'tr') {
        rows.push(child)
        if (section === 'thead') headerRows++
      } else if (child.name === 'thead' || child.name === 'tbody' || child.name === 'tfoot') collect(child, child.name)
      else if (child.name === 'caption') caption.push(...child.children)
    }
  }
  collect(el, 'table')
  if (caption.length > 0) {
    const text = paragraph(caption, ctx)
    if (text !== '') out.push(text)
  }
  if (rows.length === 0) return
  const cellCtx: Ctx = { ...ctx, inTable: true }
  const grid: string[][] = []
  const aligns: Align[] = []
  // GFM tables have exactly one header row (the first) and no cell spans.
  const headerIndex = headerRows > 0 ? rows.findIndex((_r, i) => i < headerRows) : 0
  const ordered = [rows[headerIndex]!, ...rows.filter((_r, i) => i !== headerIndex)]
  for (const row of ordered) {
    const cells = row.children.filter((c): c is El => typeof c !== 'string' && (c.name === 'td' || c.name === 'th'))
    const line: string[] = []
    cells.forEach((cell, i) => {
      if (grid.length === 0) aligns[i] = alignOf(cell)
      const w = new InlineWriter(false, true, false)
      inlineChildren(w, cell.children, cellCtx)
      line.push(w.finish())
    })
    grid.push(line)
  }
  const columns = Math.max(1, ...grid.map((r) => r.length))
  const lines: string[] = []
  grid.forEach((row, r) => {
    const cells: string[] = []
    for (let i = 0; i < columns; i++) cells.push(row[i] ?? '')
    lines.push('| ' + cells.join(' | ') + ' |')
    if (r === 0) {
      const delims: string[] = []
      for (let i = 0; i < columns; i++) {
        const a = aligns[i] ?? ''
        delims.push(a === 'left' ? ':--' : a === 'center' ? ':-:' : a === 'right' ? '--:' : '---')
      }
      lines.push('| ' + delims.join(' | ') + ' |')
    }
  })
  out.push(lines.join('\n'))
}

/**
 * Block elements that block() writes as the blocks of their children (its default case):
 * at the top level they need no subtree, so their content streams through.
 */
const TRANSPARENT = new Set([...BLOCKS].filter((name) => !['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'pre', 'blockquote', 'ul', 'ol', 'table'].includes(name)))

interface Level extends El {
  /** A top-level container: its children are written as they complete, never kept. */
  stream: boolean
}

/**
 * Converts an HTML document or fragment to GitHub-flavoured Markdown.
 *
 * htmlparser2's callbacks build a subtree per top-level block and write it as soon as it
 * closes, so memory holds one block at a time: a whole-document tree would survive young
 * garbage collections and make the cost grow faster than the input.
 */
export function htmlToMarkdown (html: string): string {
  const ctx: Ctx = { containers: 0, inTable: false, inHeading: false, inLink: false, inListItem: false }
  const out: string[] = []
  /** Inline content of the top level since the last block: one paragraph. */
  let pending: Node[] = []
  const flush = (): void => {
    if (pending.length === 0) return
    const text = paragraph(pending, ctx)
    if (text !== '') out.push(text)
    pending = []
  }
  const root: Level = { name: '#root', attrs: {}, children: [], stream: true }
  const stack: Level[] = [root]
  let dropDepth = 0
  let top = root
  const parser = new Parser({
    onopentag (name, attrs) {
      if (dropDepth > 0 || DROPPED.has(name)) {
        dropDepth++
        return
      }
      if (stack.length > MAX_ELEMENT_DEPTH) {
        stack.push(top) // flattened: its children go to the ancestor
        return
      }
      const el: Level = { name, attrs, children: [], stream: false }
      if (top.stream) {
        if (TRANSPARENT.has(name)) {
          flush()
          el.stream = true
        } else if (!BLOCKS.has(name)) pending.push(el) // blocks are written when they close
      } else top.children.push(el)
      stack.push(el)
      top = el
    },
    onclosetag () {
      if (dropDepth > 0) {
        dropDepth--
        return
      }
      if (stack.length <= 1) return
      const el = stack.pop()!
      top = stack[stack.length - 1]!
      if (el === top) return // a flattened element
      if (el.stream) flush()
      else if (top.stream && BLOCKS.has(el.name)) {
        flush()
        block(el, ctx, out)
      }
    },
    ontext (text) {
      if (dropDepth > 0) return
      const children = top.stream ? pending : top.children
      const last = children.length - 1
      // The tokenizer splits text at entities: merge, so escaping sees whole runs.
      if (last >= 0 && typeof children[last] === 'string') children[last] += text
      else children.push(text)
    }
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false })
  parser.end(html)
  flush()
  const md = out.join('\n\n')
  return md === '' ? '' : md + '\n'
}
