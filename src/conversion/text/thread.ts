// The text conversions' thread entry (run by src/work/pool.ts). Each answers the whole
// JSON answer, serialised here: writing a large one held the event loop
// (docs/performance.md, "Work off the event loop"). Loaded on a thread's first text task.
import { textAnswerJson } from '../../http/success.js'
import { threadTask } from '../../work/thread.js'
import { htmlToMarkdownBounded, markdownToHtmlBounded } from './bounded.js'
import { createMarkdownRenderer, type MarkdownOptions, type MarkdownRenderer } from './markdown-to-html.js'

// Made on the thread's first Markdown task and kept for its life.
let renderer: MarkdownRenderer | undefined

export const htmlToMarkdown = threadTask<string, Uint8Array>((html) => textAnswerJson('markdown', htmlToMarkdownBounded(html)))

export const markdownToHtml = threadTask<{ markdown: string, options: MarkdownOptions }, Uint8Array>(({ markdown, options }) => {
  renderer ??= createMarkdownRenderer()
  return textAnswerJson('html', markdownToHtmlBounded(renderer, markdown, options))
})
