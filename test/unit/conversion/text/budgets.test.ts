// Text conversion budgets (docs/text-conversion.md, "Budgets") and task lists in time
// linear in the list (issue 14, items 3 and 4).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import MarkdownIt from 'markdown-it'
import { htmlToMarkdownBounded, markdownToHtmlBounded, MAX_MARKDOWN_LINES, outputBudget, TEXT_OUTPUT_CAP, TEXT_OUTPUT_FACTOR, TEXT_OUTPUT_FLOOR } from '../../../../src/conversion/text/bounded.js'
import { createMarkdownRenderer } from '../../../../src/conversion/text/markdown-to-html.js'
import { taskLists } from '../../../../src/conversion/text/task-list.js'
import type Token from 'markdown-it/lib/token.mjs'
import { AppError } from '../../../../src/errors.js'

const renderer = createMarkdownRenderer()

describe('text conversion budgets', () => {
  it('the output budget is a multiple of the input, with a floor and a cap', () => {
    assert.equal(outputBudget(10), TEXT_OUTPUT_FLOOR)
    assert.equal(outputBudget(100_000), 100_000 * TEXT_OUTPUT_FACTOR)
    assert.equal(outputBudget(4 * 1024 * 1024), TEXT_OUTPUT_CAP)
  })

  it('30 nested block quotes around a long <pre> stop at the budget (63 times the input before)', () => {
    const html = '<blockquote>'.repeat(30) + '<pre>' + 'x\n'.repeat(100_000) + '</pre>' + '</blockquote>'.repeat(30)
    assert.throws(() => htmlToMarkdownBounded(html), (err: unknown) => err instanceof AppError && err.code === 'TEXT_OUTPUT_TOO_LARGE' && err.status === 413 && /exceed \d+ characters/.test(err.message))
  })

  it('a few nested quotes around a <pre> still convert', () => {
    const markdown = htmlToMarkdownBounded('<blockquote><blockquote><pre>a\nb</pre></blockquote></blockquote>')
    assert.equal(markdown, '> > ```\n> > a\n> > b\n> > ```\n')
  })

  it('refuses Markdown of more than MAX_MARKDOWN_LINES lines before parsing it', () => {
    assert.throws(() => markdownToHtmlBounded(renderer, 'a\n=\n'.repeat(MAX_MARKDOWN_LINES), { headingIds: true, autolinks: true }), (err: unknown) => err instanceof AppError && err.code === 'TEXT_BUDGET_EXCEEDED' && err.status === 413)
  })
})

describe('task lists', () => {
  it('render as before: checkbox, item and container classes, ids in order', () => {
    const html = renderer.render('- [ ] a\n- [x] b\n  1. [X] c\n- plain\n')
    assert.equal(html, '<ul class="task-list-container">\n' +
      '<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" id="task-item-0" disabled="disabled" /> a</li>\n' +
      '<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" id="task-item-1" checked="checked" disabled="disabled" /> b\n' +
      '<ol class="task-list-container">\n' +
      '<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" id="task-item-2" checked="checked" disabled="disabled" /> c</li>\n' +
      '</ol>\n</li>\n<li>plain</li>\n</ul>\n')
  })

  it('read each token a bounded number of times, however long the list (the plugin scanned back through every token per item: 32,000 items took 11 s)', () => {
    // Counted, not timed: a rule placed just before ours hands it the token array behind a
    // proxy that counts reads by index. A scan back per item makes reads per token grow
    // with the list; one pass keeps them the same at 1,000 and at 16,000 items.
    const md = new MarkdownIt().use(taskLists)
    let reads = 0
    let plain: Token[] = []
    md.core.ruler.before('task_list', 'count_reads', (state) => {
      plain = state.tokens
      state.tokens = new Proxy(plain, {
        get (target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads++
          return Reflect.get(target, key, receiver)
        }
      })
      return true
    })
    md.core.ruler.after('task_list', 'stop_counting', (state) => {
      state.tokens = plain
      return true
    })
    const readsPerToken = (items: number): number => {
      reads = 0
      const tokens = md.parse('- [ ] a\n'.repeat(items), {})
      const tokenCount = tokens.length
      return reads / tokenCount
    }
    const small = readsPerToken(1000)
    const large = readsPerToken(16000)
    assert.ok(small > 0, 'the rule read no token: the counting rule is not in front of it')
    assert.ok(large <= small * 1.05, `reads per token grew from ${small.toFixed(2)} at 1,000 items to ${large.toFixed(2)} at 16,000`)
  })
})
