// The HTML parser of HTML → Markdown gives the events htmlparser2 (which it replaced)
// gives, on the conversion corpus, on tricky markup and on generated tag soup; it differs
// only where a construct is cut off by the end of the input.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Parser } from 'htmlparser2'
import { GFM_MARKDOWN, specExamples } from '../../../fixtures/text-conversion-corpus.js'
import { parseHtml } from '../../../../src/conversion/text/html-parse.js'
import { createMarkdownRenderer } from '../../../../src/conversion/text/markdown-to-html.js'

type Event = ['open', string, Record<string, string>] | ['close', string] | ['text', string]

function push (events: Event[], event: Event): void {
  const last = events[events.length - 1]
  // Either parser may report one run of text in pieces (at entities, around comments).
  if (event[0] === 'text' && last !== undefined && last[0] === 'text') last[1] += event[1]
  else events.push(event)
}

function ours (html: string): Event[] {
  const events: Event[] = []
  parseHtml(html, {
    openTag: (name, attrs) => push(events, ['open', name, { ...attrs }]),
    closeTag: (name) => push(events, ['close', name]),
    text: (text) => push(events, ['text', text])
  })
  return events
}

function htmlparser2 (html: string): Event[] {
  const events: Event[] = []
  new Parser({
    onopentag: (name, attrs) => push(events, ['open', name, { ...attrs }]),
    onclosetag: (name) => push(events, ['close', name]),
    ontext: (text) => push(events, ['text', text])
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false }).end(html)
  return events
}

const TRICKY = [
  '<p>unclosed <b>bold <i>it</p></span><p>next <a href=foo.html title=t>x</a>',
  '<ul><li>one<li>two</ul><table><tr><td>a<td>b<tr><td>c</table><dl><dt>t<dd>d<dt>u</dl>',
  '<p>a<div>b</div></p><p>x</br>y</p></p><h1>h<p>in h</h1>',
  '<A HREF="X" Title=\'T\' data-x=y&amp;z checked>link</A><IMG SRC=a.png ALT="&quot;q&quot;">',
  '<p a=1 a=2 b = "3" c= \'4\' d e/ f=g/h i=>j</p><p/ ><p a/><br/><hr/>',
  '<script>if (a < b && c > d) { document.write("</p>") }</script >x<style>p { }</STYLE>y',
  '<title>T &amp; t</title><textarea>a &amp; <b></textarea><xmp>&amp; <i></xmp><scripts>s</scripts>',
  '<script/>after<style x="</style>">y</style>z',
  '<!-- c --><!--><!---><!-- a -- b --><!doctype html><!DOCTYPE><!><?php echo 1 ?><![CDATA[ x ]]><!-x><!->y>z',
  '</>a</ >b</1x>c</ p>d</a b="c">e<1>f< g>h<>',
  '&amp;&lt;&gt;&quot;&#39;&apos;&nbsp;&copy&copy;&notin;&notit;&#65;&#x41;&#0;&#x80;&#xD800;&amp&lt &bogus; & &#;',
  '<a href="?a=1&amp;b=2&copy=3&notit=4" title="&lt&gt &amp">x</a><a href=&quot;>y</a>',
  '<svg><circle r="1"/><path/></svg><p/>p<math><mi/><mo>x</mo></math><svg/><p/>q',
  '<select><option>a<option>b<optgroup><option>c</select><input><button>x</button>',
  '<table><thead><tr><th>h</thead><tbody><tr><td>1</tbody><tfoot><tr><td>f</table>',
  '<ruby>a<rt>b<rp>c</ruby><body><head></head><link></body>',
  '<div><p>one<p>two</div><blockquote><p>q</blockquote><pre>\ncode</pre>',
  'x\r\ny\fz\0w<p\tclass\n=\r"c">t</p\n>'
]

/** Closes whatever construct a document leaves open: the parsers differ only there. */
const END = '"\'>-->]]></script></style></title></textarea></xmp>'

describe('parseHtml gives htmlparser2\'s events', () => {
  it('on the HTML and Markdown of every CommonMark example and the GFM documents', () => {
    const renderer = createMarkdownRenderer()
    const docs = [...specExamples().flatMap((t) => [t.html + END, t.markdown + END]), ...GFM_MARKDOWN.map((md) => renderer.render(md, { unsafe: true }))]
    for (const html of docs) assert.deepEqual(ours(html), htmlparser2(html), html)
  })

  it('on broken and unusual markup', () => {
    for (const html of TRICKY) assert.deepEqual(ours(html), htmlparser2(html), html)
  })

  it('on generated tag soup', () => {
    const pieces = [...TRICKY.flatMap((t) => t.split(/(?=<)/)), '<', '>', '/', '"', "'", '=', '&', ';', '-', '!', ' ', '\n', 'a', 'p', 'script', 'td']
    let seed = 7
    const next = (n: number): number => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0
      return Math.floor(seed / 2 ** 32 * n)
    }
    for (let k = 0; k < 3000; k++) {
      let html = ''
      for (let j = next(30); j >= 0; j--) html += pieces[next(pieces.length)]
      html += END
      assert.deepEqual(ours(html), htmlparser2(html), html)
    }
  })
})

describe('parseHtml at the end of the input', () => {
  it('drops a tag, comment or declaration cut off by the end (htmlparser2 gives parts of it as text)', () => {
    for (const html of ['a<b', 'a<scr', 'a<p class="x', 'a<!doctype html', 'a<?php', 'a<!-- c', 'a<![CDATA[x', 'a</p', 'a</1x']) {
      assert.deepEqual(ours(html), [['text', 'a']], html)
    }
  })

  it('keeps "<" and "</" at the end as text, and closes what is open', () => {
    assert.deepEqual(ours('<p>a<'), [['open', 'p', {}], ['text', 'a<'], ['close', 'p']])
    assert.deepEqual(ours('<b>a</'), [['open', 'b', {}], ['text', 'a</'], ['close', 'b']])
  })

  it('closes an element whose end tag is cut off after its name', () => {
    assert.deepEqual(ours('<p>a</p x'), [['open', 'p', {}], ['text', 'a'], ['close', 'p']])
  })
})
