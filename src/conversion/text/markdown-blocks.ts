// Blocks of HTML → Markdown: paragraphs, headings, rules, fenced code, block quotes,
// lists (tight and loose, task lists) and GFM tables. Each block is a string of Markdown
// lines; the caller joins them.
import { BLOCKS, type El, isBlank, type Node, textContent } from './html-tree.js'
import { longestRun } from './markdown-escape.js'
import { type Ctx, inlineChildren, inlineNode, InlineWriter } from './markdown-inline.js'

/** Deeper block quotes and lists are flattened: every level adds a prefix to every line. */
export const MAX_CONTAINER_DEPTH = 32

/** Thrown when nested containers would write more than the conversion's budget (Ctx.budget). */
export class OutputBudgetExceeded extends Error {}

function indent (text: string, first: string, rest: string, budget: Ctx['budget']): string {
  if (budget !== undefined) {
    // Each line gains a prefix: known before the copy is made.
    let lines = 1
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++
    budget.left -= text.length + lines * rest.length
    if (budget.left < 0) throw new OutputBudgetExceeded()
  }
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
export function blocks (nodes: Node[], ctx: Ctx, out: string[]): void {
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
  if (to === from + 1 && isBlank(nodes[from]!)) return
  const w = new InlineWriter(true, false, false)
  for (let i = from; i < to; i++) inlineNode(w, nodes[i]!, ctx)
  const text = w.finish()
  if (text !== '') out.push(text)
}

export function paragraph (nodes: Node[], ctx: Ctx): string {
  const w = new InlineWriter(true, false, false)
  inlineChildren(w, nodes, ctx)
  return w.finish()
}

export function block (el: El, ctx: Ctx, out: string[]): void {
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
      out.push(inner.length === 0 ? '>' : indent(inner.join('\n\n'), '> ', '> ', ctx.budget))
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

/** The language of a code block, as CommonMark renderers and highlighters write it in a class. */
const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang)-([^\s`]+)/

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
  const m = LANGUAGE_CLASS.exec(cls)
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
const ORDERED_WITH_PERIOD = /^\d{1,9}\.(?:[ \t]|$)/

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
    if (ORDERED_WITH_PERIOD.test(previous)) delimiter = ')'
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
    rendered.push(content === '' ? marker : indent(content, marker + ' ', ' '.repeat(width), ctx.budget))
  }
  out.push(rendered.join(loose ? '\n\n' : '\n'))
}

type Align = '' | 'left' | 'center' | 'right'
const TEXT_ALIGN = /text-align\s*:\s*(left|center|right)/i

function alignOf (cell: El): Align {
  const a = (cell.attrs.align ?? '').toLowerCase()
  if (a === 'left' || a === 'center' || a === 'right') return a
  const m = TEXT_ALIGN.exec(cell.attrs.style ?? '')
  return m ? m[1]!.toLowerCase() as Align : ''
}

function table (el: El, ctx: Ctx, out: string[]): void {
  const rows: El[] = []
  /** Position in `rows` of the first row of a <thead>, wherever the thead stands. */
  let headerIndex = -1
  const caption: Node[] = []
  const collect = (node: El, section: string): void => {
    for (const child of node.children) {
      if (typeof child === 'string') continue
      if (child.name === 'tr') {
        if (section === 'thead' && headerIndex < 0) headerIndex = rows.length
        rows.push(child)
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
  // GFM tables have exactly one header row and no cell spans: the first row of the
  // <thead> when there is one (a <tbody> may come before it in the source), else the first.
  if (headerIndex < 0) headerIndex = 0
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
  // A loop, not Math.max(...): a table of many rows would overflow the argument stack.
  let columns = 1
  for (const row of grid) columns = Math.max(columns, row.length)
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
