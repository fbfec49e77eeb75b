// HTML → GitHub-flavoured Markdown. A forgiving parser (html-parse.ts: unclosed tags,
// stray closers and unquoted attributes all parse) feeds a small tree per top-level
// block; a serializer writes it as CommonMark plus the GFM extensions (tables,
// strikethrough, task lists) as soon as it closes, so that rendering the Markdown back
// gives the source document. Cost is linear in the input: one parse, one walk per block,
// text escaped in single passes, nesting bounded.
//
// This module streams the parser's events into trees (html-tree.ts); blocks are written
// by markdown-blocks.ts, their inline content by markdown-inline.ts, and the escaping of
// text lives in markdown-escape.ts.
import { parseHtml } from './html-parse.js'
import { BLOCKS, DROPPED, type El, isBlank, type Node } from './html-tree.js'
import { block, paragraph } from './markdown-blocks.js'
import type { Ctx } from './markdown-inline.js'

export { MAX_CONTAINER_DEPTH, OutputBudgetExceeded } from './markdown-blocks.js'
export { escapeInline } from './markdown-escape.js'

/** Deeper elements are flattened into their ancestor: bounds recursion on hostile input. */
export const MAX_ELEMENT_DEPTH = 256

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
 * The parser's events build a subtree per top-level block and write it as soon as it
 * closes, so memory holds one block at a time: a whole-document tree would survive young
 * garbage collections and make the cost grow faster than the input.
 */
export function htmlToMarkdown (html: string, options: { budget?: number } = {}): string {
  const ctx: Ctx = { containers: 0, inTable: false, inHeading: false, inLink: false, inListItem: false }
  if (options.budget !== undefined) ctx.budget = { left: options.budget }
  const out: string[] = []
  /** Inline content of the top level since the last block: one paragraph. */
  let pending: Node[] = []
  const flush = (): void => {
    if (pending.length === 0) return
    if (pending.length > 1 || !isBlank(pending[0]!)) {
      const text = paragraph(pending, ctx)
      if (text !== '') out.push(text)
    }
    pending = []
  }
  const root: Level = { name: '#root', attrs: {}, children: [], stream: true }
  const stack: Level[] = [root]
  let dropDepth = 0
  let top = root
  parseHtml(html, {
    openTag (name, attrs) {
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
    closeTag () {
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
    text (text) {
      if (dropDepth > 0) return
      const children = top.stream ? pending : top.children
      const last = children.length - 1
      // Text around comments comes in pieces: merge, so escaping sees whole runs.
      if (last >= 0 && typeof children[last] === 'string') children[last] += text
      else children.push(text)
    }
  })
  flush()
  const md = out.join('\n\n')
  return md === '' ? '' : md + '\n'
}
