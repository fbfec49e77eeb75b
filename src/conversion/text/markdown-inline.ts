// Inline content of HTML → Markdown: text, emphasis, code spans, links, images and line
// breaks, written with HTML whitespace collapsing and line-start escaping.
import { BLOCKS, type El, type Node, textContent } from './html-tree.js'
import { codeSpan, escapeInline, escapeLineStart, escapeText, escapeTitle, linkDestination } from './markdown-escape.js'

/** Collects inline Markdown with HTML whitespace collapsing and line-start escaping. */
export class InlineWriter {
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

export interface Ctx {
  /** Block quote and list nesting so far. */
  containers: number
  inTable: boolean
  inHeading: boolean
  inLink: boolean
  /** Inside a list item: "---" would read as a setext underline after a paragraph line. */
  inListItem: boolean
  /**
   * Characters the conversion may still write into nested containers (shared by every
   * level: each level re-prefixes its content, so this is the work done as well as the
   * output). Undefined: unbounded.
   */
  budget?: { left: number }
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

/** Autolinks (§6.5): an absolute URI, an email address. */
const AUTOLINK_URI = /^[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>\x00-\x1f]*$/
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/
const CLOSING_BRACKETS = /\]/g
const PIPES = /\|/g

export function inlineNode (w: InlineWriter, node: Node, ctx: Ctx): void {
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
      const span = ctx.inTable ? codeSpan(text).replace(PIPES, '\\|') : codeSpan(text)
      if (span !== '') w.raw(span)
      return
    }
    case 'br':
      w.hardBreak()
      return
    case 'img': {
      const src = node.attrs.src
      if (src === undefined) return
      const alt = escapeInline(node.attrs.alt ?? '').replace(CLOSING_BRACKETS, '\\]')
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
      // An autolink (§6.5) where the text is the URL itself: the form the spec renders it from.
      if (title === undefined && !ctx.inTable && AUTOLINK_URI.test(href) && textContent(node) === href) {
        w.raw(`<${href}>`)
      } else if (title === undefined && href.startsWith('mailto:') && EMAIL.test(href.slice(7)) && textContent(node) === href.slice(7)) {
        w.raw(`<${href.slice(7)}>`)
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

export function inlineChildren (w: InlineWriter, nodes: Node[], ctx: Ctx): void {
  for (const node of nodes) inlineNode(w, node, ctx)
}
