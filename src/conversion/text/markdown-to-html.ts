// Markdown → HTML: CommonMark 0.31.2 (markdown-it, checked against every example of the
// commonmark-spec package in test/unit/conversion/text/markdown-safety.test.ts) plus the GitHub
// extensions: tables and strikethrough (built into markdown-it), task lists (our own
// linear rule, task-list.ts), and, on request, extended autolinks (markdown-it's linkify).
//
// Safety: the HTML we answer is embedded in our users' pages. By default raw HTML in the
// Markdown is *escaped* (markdown-it `html: false`): it shows as text and never reaches
// the page as markup, so no tag or attribute of the author's choosing survives. Every
// attribute we emit comes from markdown-it's renderer, which escapes it; link and image
// URLs go through markdown-it's validateLink, which refuses javascript:, vbscript:,
// file: and every data: URL except data:image/(gif|png|jpeg|webp). `unsafe: true` is the
// explicit opt-in that passes raw HTML through untouched (links are still validated).
import MarkdownIt from 'markdown-it'
import type Token from 'markdown-it/lib/token.mjs'
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs'
import GithubSlugger from 'github-slugger'
import { taskLists } from './task-list.js'

export interface MarkdownOptions {
  /** Soft line breaks become <br> (chat-style Markdown). */
  breaks?: boolean
  /** Headings get an id from their text, as GitHub computes it (github-slugger). */
  headingIds?: boolean
  /** Put before every heading id (GitHub uses "user-content-"); only with headingIds. */
  headingIdPrefix?: string
  /** GFM extended autolinks: bare URLs, www. and e-mail addresses become links. */
  autolinks?: boolean
  /** Pass raw HTML through unescaped. The output may then carry script: opt-in only. */
  unsafe?: boolean
}

export interface MarkdownRenderer {
  render (markdown: string, options?: MarkdownOptions): string
}

interface RenderEnv {
  headingIds?: boolean
  headingIdPrefix?: string
}

/** Heading ids from the heading's text, deduplicated within a document as GitHub does. */
function headingIdRule (state: StateCore): void {
  const env = state.env as RenderEnv
  if (env?.headingIds !== true) return
  const slugger = new GithubSlugger()
  const prefix = env.headingIdPrefix ?? ''
  const tokens = state.tokens
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i]!
    if (token.type !== 'heading_open') continue
    const inline = tokens[i + 1]!
    token.attrSet('id', prefix + slugger.slug(textOf(inline.children ?? [])))
  }
}

function textOf (tokens: Token[]): string {
  let text = ''
  for (const t of tokens) {
    if (t.type === 'text' || t.type === 'code_inline' || t.type === 'text_special') text += t.content
    else if (t.type === 'image') text += textOf(t.children ?? [])
  }
  return text
}

function createInstance (flags: { breaks: boolean, autolinks: boolean, unsafe: boolean }): MarkdownIt {
  const md = new MarkdownIt('default', {
    html: flags.unsafe,
    // The spec's expected HTML writes void elements as <br />, <hr />, <img ... />.
    xhtmlOut: true,
    breaks: flags.breaks,
    linkify: flags.autolinks,
    typographer: false
  })
  md.use(taskLists)
  md.core.ruler.push('heading_ids', headingIdRule)
  // An empty block quote renders as "<blockquote>\n</blockquote>" in the spec (examples
  // 218, 239, 240); markdown-it's generic rule omits the newline when nothing follows.
  md.renderer.rules.blockquote_open = (tokens, idx, options, _env, self) => {
    const html = self.renderToken(tokens, idx, options)
    return html.endsWith('\n') ? html : html + '\n'
  }
  return md
}

/**
 * A document with one of each kind of block and inline that markdown-it's rules handle
 * most: parsed once when an instance is built, and its parser states kept (keepShapes).
 */
const SHAPES_DOCUMENT = [
  '# Heading', '', 'Setext', '======', '',
  'A paragraph with *emphasis*, **strong**, ~~struck~~, `code`, a [link](https://example.com "title"),',
  'an ![image](https://example.com/a.png), <https://example.com>, &amp; \\* and a hard  ', 'break.', '',
  '- item', '- [x] done', '  1. nested', '', '> quote', '', '```js', 'code', '```', '',
  '    indented', '', '| a | b |', '|---|:-:|', '| 1 | 2 |', '', '---', '', '[ref]: https://example.com', ''
].join('\n')

/**
 * Keeps one document's per-document objects alive for the instance's life: the core,
 * block and inline parser states (and through them a token of each kind), a parsed URL
 * and a slugger. V8's optimized code for markdown-it's rules is specialised on the shapes
 * of these objects. When none of them is alive at a full collection, as after every
 * quiet half second in the worker threads (src/work/pool.ts), V8 forgets the shapes and
 * throws that code away ("weak objects" in --trace-deopt, 61 functions at each
 * collection), and the next documents run unoptimized, four times slower or more, until
 * V8 optimizes the rules again, which at a trickle's pace takes many documents
 * (docs/memory.md). The capture rules are disabled once they have run.
 */
function keepShapes (md: MarkdownIt): readonly object[] {
  const kept = new Set<object>()
  const RULE = 'keep_shapes'
  md.core.ruler.push(RULE, (state) => { kept.add(state) })
  md.block.ruler.before('table', RULE, (state) => { kept.add(state); return false })
  md.inline.ruler.before('text', RULE, (state) => { kept.add(state); return false })
  md.render(SHAPES_DOCUMENT, { headingIds: true, headingIdPrefix: '' } satisfies RenderEnv)
  md.core.ruler.disable(RULE)
  md.block.ruler.disable(RULE)
  md.inline.ruler.disable(RULE)
  // Made for each link (mdurl's Url, by md.normalizeLink) and each document with heading ids.
  kept.add(md.utils.lib.mdurl.parse('https://example.com/a?b#c', true))
  kept.add(new GithubSlugger())
  return [...kept]
}

/** What keepShapes kept for each instance, for as long as the instance lives. */
const keptShapes = new WeakMap<MarkdownIt, readonly object[]>()

/** One markdown-it instance per combination of instance-level options, built on first use. */
export function createMarkdownRenderer (): MarkdownRenderer {
  const instances = new Map<number, MarkdownIt>()
  function instanceFor (o: MarkdownOptions): MarkdownIt {
    const flags = { breaks: o.breaks === true, autolinks: o.autolinks === true, unsafe: o.unsafe === true }
    const key = (flags.breaks ? 1 : 0) | (flags.autolinks ? 2 : 0) | (flags.unsafe ? 4 : 0)
    let md = instances.get(key)
    if (!md) {
      md = createInstance(flags)
      keptShapes.set(md, keepShapes(md))
      instances.set(key, md)
    }
    return md
  }
  return {
    render (markdown, options = {}) {
      const env: RenderEnv = { headingIds: options.headingIds === true, headingIdPrefix: options.headingIdPrefix }
      return instanceFor(options).render(markdown, env)
    }
  }
}
