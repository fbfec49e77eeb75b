// Budgets of a text conversion, decided from the input before the work starts and
// enforced while it runs (docs/text-conversion.md, "Budgets"). Output can grow much
// faster than input: every nesting level of a block quote prefixes every line inside it
// again (30 levels around a <pre> made 63 times the input), and Markdown → HTML keeps a
// token per block in memory (a megabyte of one-line headings took half a gigabyte).
import { AppError } from '../../errors.js'
import { htmlToMarkdown, OutputBudgetExceeded } from './html-to-markdown.js'
import type { MarkdownOptions, MarkdownRenderer } from './markdown-to-html.js'

/** The answer may be this many times the input (a task list item grows 17 times: "- [ ] a" becomes a list item with a checkbox)… */
export const TEXT_OUTPUT_FACTOR = 24
/** …and at least this many characters (small inputs may legitimately grow a lot)… */
export const TEXT_OUTPUT_FLOOR = 256 * 1024
/** …but never more than this many characters. */
export const TEXT_OUTPUT_CAP = 16 * 1024 * 1024
/**
 * Lines of Markdown converted at most: markdown-it keeps every block's tokens until the
 * end, about 3 KB of heap per list item (150,000 one-line items took 450 MB); a
 * line-per-block document of this many lines stays near 200 MB, within a worker's heap.
 */
export const MAX_MARKDOWN_LINES = 60_000

export function outputBudget (inputLength: number): number {
  return Math.min(TEXT_OUTPUT_CAP, Math.max(TEXT_OUTPUT_FLOOR, inputLength * TEXT_OUTPUT_FACTOR))
}

function tooLarge (inputLength: number, budget: number): AppError {
  return new AppError('TEXT_OUTPUT_TOO_LARGE', `The converted text would exceed ${budget} characters (${TEXT_OUTPUT_FACTOR} times the input of ${inputLength}, at most ${TEXT_OUTPUT_CAP}): send less text or less nesting`, { details: { budget: 'output characters', limit: budget } })
}

export function htmlToMarkdownBounded (html: string): string {
  const budget = outputBudget(html.length)
  let markdown: string
  try {
    markdown = htmlToMarkdown(html, { budget })
  } catch (err) {
    if (err instanceof OutputBudgetExceeded) throw tooLarge(html.length, budget)
    throw err
  }
  if (markdown.length > budget) throw tooLarge(html.length, budget)
  return markdown
}

export function markdownToHtmlBounded (renderer: MarkdownRenderer, markdown: string, options: MarkdownOptions): string {
  // Fewer characters than the limit cannot make more lines than it: no count.
  let lines = 1
  for (let at = markdown.length < MAX_MARKDOWN_LINES ? -1 : markdown.indexOf('\n'); at >= 0; at = markdown.indexOf('\n', at + 1)) {
    if (++lines > MAX_MARKDOWN_LINES) {
      throw new AppError('TEXT_BUDGET_EXCEEDED', `The Markdown has more than ${MAX_MARKDOWN_LINES} lines, the most one request converts: split it`, { details: { budget: 'lines', limit: MAX_MARKDOWN_LINES } })
    }
  }
  const budget = outputBudget(markdown.length)
  const html = renderer.render(markdown, options)
  if (html.length > budget) throw tooLarge(markdown.length, budget)
  return html
}
