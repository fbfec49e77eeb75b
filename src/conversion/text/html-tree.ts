// The element tree HTML → Markdown walks: one small tree per top-level block, built from
// the parser's events (html-to-markdown.ts), and how each HTML element is treated.
import type { Attributes } from './html-parse.js'

export interface El {
  name: string
  attrs: Attributes
  children: Node[]
}
export type Node = El | string

/** Content that never shows in a document (HTML §4.12, §4.2; the parser drops comments). */
export const DROPPED = new Set(['script', 'style', 'template', 'noscript', 'head', 'title', 'iframe', 'object', 'embed', 'svg', 'math', 'select', 'option', 'button', 'textarea', 'canvas', 'audio', 'video', 'map'])

export const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'center', 'details', 'dialog', 'dd', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup',
  'hr', 'html', 'legend', 'li', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody',
  'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'caption'
])

/** The text of a subtree, as is (code, pre). */
export function textContent (node: Node): string {
  if (typeof node === 'string') return node
  if (node.name === 'br') return '\n'
  let s = ''
  for (const child of node.children) s += textContent(child)
  return s
}

/** Text of HTML whitespace only: between blocks, it makes no paragraph. */
export function isBlank (node: Node): boolean {
  if (typeof node !== 'string') return false
  for (let i = 0; i < node.length; i++) {
    const c = node.charCodeAt(i)
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13 && c !== 12) return false
  }
  return true
}
