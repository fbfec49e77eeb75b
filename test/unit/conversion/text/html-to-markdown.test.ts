// HTML → GitHub-flavoured Markdown: each construct the issue lists, escaping, broken HTML,
// and the round trip (our Markdown rendered back gives the source document).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { GFM_MARKDOWN, measureFidelity, normalizeHtml, specExamples } from '../../../fixtures/text-conversion-corpus.js'
import { htmlToMarkdown, MAX_ELEMENT_DEPTH } from '../../../../src/conversion/text/html-to-markdown.js'
import { createMarkdownRenderer } from '../../../../src/conversion/text/markdown-to-html.js'

const renderer = createMarkdownRenderer()
const back = (md: string): string => renderer.render(md, { unsafe: true })

/** Converts, checks the exact Markdown, and that it renders back to the same document. */
function roundTrip (html: string, markdown: string): void {
  const md = htmlToMarkdown(html)
  assert.equal(md, markdown)
  assert.equal(normalizeHtml(back(md)), normalizeHtml(html), `round trip of ${html}`)
}

describe('htmlToMarkdown', () => {
  it('headings, emphasis, strong, strikethrough, code spans', () => {
    roundTrip('<h1>One</h1><h3>Three <em>it</em></h3>', '# One\n\n### Three *it*\n')
    roundTrip('<p><strong>b</strong> <em>i</em> <del>d</del> <code>c</code></p>', '**b** *i* ~~d~~ `c`\n')
    roundTrip('<p><code>a `tick` b</code> <code>`x`</code></p>', '``a `tick` b`` `` `x` ``\n')
    roundTrip('<h2>ends with #</h2>', '## ends with \\#\n')
  })

  it('links and images keep titles; autolinks stay autolinks', () => {
    roundTrip('<p><a href="https://e.com/a" title="The &quot;T&quot;">x</a> <img src="/i.png" alt="A" title="t"></p>', '[x](https://e.com/a "The \\"T\\"") ![A](/i.png "t")\n')
    roundTrip('<p><a href="https://e.com/(x)">y</a> <a href="https://e.com/">https://e.com/</a></p>', '[y](https://e.com/\\(x\\)) <https://e.com/>\n')
    roundTrip('<p><a href="/uri"><img src="moon.jpg" alt="moon"></a></p>', '[![moon](moon.jpg)](/uri)\n')
  })

  it('nested and ordered lists keep start numbers; adjacent lists stay apart', () => {
    roundTrip('<ol start="7"><li>seven</li><li>eight<ul><li>nested</li></ul></li></ol>', '7. seven\n8. eight\n   - nested\n')
    roundTrip('<ul><li>a</li></ul><ul><li>b</li></ul>', '- a\n\n* b\n')
    roundTrip('<ul><li><p>loose</p></li><li><p>two</p><p>paras</p></li></ul>', '- loose\n\n- two\n\n  paras\n')
  })

  it('task lists', () => {
    assert.equal(htmlToMarkdown('<ul><li><input type="checkbox" checked disabled> done</li><li><p><input type="checkbox"> todo</p></li></ul>'), '- [x] done\n\n- [ ] todo\n')
    // As our renderer (and GitHub, with other classes) writes them.
    roundTrip(back('- [x] done\n- [ ] todo\n'), '- [x] done\n- [ ] todo\n')
  })

  it('block quotes, rules and line breaks', () => {
    roundTrip('<blockquote><p>q</p><blockquote><p>deeper</p></blockquote></blockquote><hr><p>a<br>b</p>', '> q\n>\n> > deeper\n\n---\n\nline\\\nb\n'.replace('line', 'a'))
  })

  it('fenced code keeps the language and survives backticks inside', () => {
    roundTrip('<pre><code class="language-ts">const a = 1\n```\n</code></pre>', '````ts\nconst a = 1\n```\n````\n')
    roundTrip('<pre><code>  indented\n\n  kept\n</code></pre>', '```\n  indented\n\n  kept\n```\n')
  })

  it('tables keep alignment, escape pipes and keep line breaks in cells', () => {
    roundTrip('<table><thead><tr><th align="left">a|b</th><th style="text-align: center">c</th><th align="right">d</th></tr></thead>' +
      '<tbody><tr><td align="left"><code>x|y</code></td><td style="text-align: center">1<br>2</td><td align="right"></td></tr></tbody></table>',
    '| a\\|b | c | d |\n| :-- | :-: | --: |\n| `x\\|y` | 1<br>2 |  |\n')
  })

  it('escapes what Markdown would misread in text, and nothing else', () => {
    roundTrip('<p>1. not a list</p><p># not a heading</p><p>- not a bullet</p><p>+ nor this</p><p>&gt; nor a quote</p>',
      '1\\. not a list\n\n\\# not a heading\n\n\\- not a bullet\n\n\\+ nor this\n\n\\> nor a quote\n')
    roundTrip('<p>*a* _b_ `c` [d](e) &lt;f&gt; &amp;amp; ~~g~~ \\*</p>', '\\*a\\* \\_b\\_ \\`c\\` \\[d](e) \\<f> \\&amp; \\~\\~g\\~\\~ \\\\\\*\n')
    // Left alone: text that cannot be misread.
    roundTrip('<p>snake_case_name, 2 * 3, a &amp; b, x &lt; y, 1.5, C# and -1, a ~ b! (ok) {x} "q"</p>', 'snake_case_name, 2 \\* 3, a & b, x < y, 1.5, C# and -1, a ~ b! (ok) {x} "q"\n')
  })

  it('drops script, style, template, noscript and comments; unknown tags keep their text', () => {
    assert.equal(htmlToMarkdown('<p>a<script>x()</script><style>p{}</style><template>t</template><noscript>n</noscript><!-- c --><x-widget>kept</x-widget></p>'), 'akept\n')
  })

  it('converts broken HTML: unclosed tags, stray closers, unquoted attributes', () => {
    assert.equal(htmlToMarkdown('<p>unclosed <b>bold <i>it</p></span><p>next <a href=foo.html title=t>x</a>'), 'unclosed **bold *it***\n\nnext [x](foo.html "t")\n')
    assert.equal(htmlToMarkdown('<ul><li>one<li>two</ul>'), '- one\n- two\n')
    assert.equal(htmlToMarkdown('<table><tr><td>a<td>b<tr><td>c</table>'), '| a | b |\n| --- | --- |\n| c |  |\n')
  })

  it('a <thead> after the <tbody> still gives the header row (a body row was written as the header)', () => {
    assert.equal(htmlToMarkdown('<table><tbody><tr><td>1</td><td>2</td></tr></tbody><thead><tr><th>a</th><th>b</th></tr></thead></table>'),
      '| a | b |\n| --- | --- |\n| 1 | 2 |\n')
  })

  it('a table of 200,000 rows converts (the column count overflowed the argument stack)', () => {
    const md = htmlToMarkdown('<table>' + '<tr><td>x</td></tr>'.repeat(200_000) + '</table>')
    assert.equal(md.split('\n').length, 200_000 + 2)
  })

  it('a tag, comment or declaration cut off by the end of the input leaves no part of it as text', () => {
    // htmlparser2 gave back "doctype html", "scr" or "php" here.
    for (const tail of ['<!doctype html', '<scr', '<?php echo', '<!-- note', '<a href="x', '</p']) {
      assert.equal(htmlToMarkdown(`<p>kept</p>${tail}`), 'kept\n', tail)
    }
    // A lone "<" at the end is text, as before.
    assert.equal(htmlToMarkdown('<p>a &lt; b <'), 'a < b \\<\n')
  })

  it('survives nesting deeper than its limit without recursion errors', () => {
    const depth = MAX_ELEMENT_DEPTH * 40
    const md = htmlToMarkdown('<div><blockquote>'.repeat(depth) + 'deep' + '</blockquote></div>'.repeat(depth))
    assert.ok(md.trimEnd().endsWith('deep'))
    assert.ok(md.length < 1000)
  })

  it('a whole document converts like its body; top-level text between blocks forms paragraphs', () => {
    const body = '<h1>T</h1>loose <b>text</b><div><p>a</p>in div</div>after<ul><li>x</li></ul>'
    const expected = '# T\n\nloose **text**\n\na\n\nin div\n\nafter\n\n- x\n'
    assert.equal(htmlToMarkdown(body), expected)
    assert.equal(htmlToMarkdown(`<!doctype html><html><head><title>no</title></head><body>${body}</body></html>`), expected)
    // An inline element left open at the top level still holds the blocks inside it.
    assert.equal(htmlToMarkdown('<b>bold <div>block</div> tail'), '**bold block\\\ntail**\n')
  })

  it('an empty or whitespace-only document gives empty Markdown', () => {
    assert.equal(htmlToMarkdown(''), '')
    assert.equal(htmlToMarkdown('  <div> </div> '), '')
  })
})

describe('round-trip fidelity', () => {
  it('every GFM document of the corpus round-trips', () => {
    const result = measureFidelity(htmlToMarkdown, GFM_MARKDOWN.map(back))
    assert.deepEqual(result.failures, [])
  })

  it('at least 90% of the CommonMark spec examples\' HTML round-trips', () => {
    const docs = specExamples().map((t) => t.html).filter((h) => h.trim() !== '')
    const result = measureFidelity(htmlToMarkdown, docs)
    assert.ok(result.passed / result.total >= 0.9, `${result.passed}/${result.total}`)
  })
})
