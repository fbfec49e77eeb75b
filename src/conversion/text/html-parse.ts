// HTML parsing for HTML → Markdown: a tokenizer that jumps from one "<" to the next with
// indexOf and decodes entities only in text that holds an "&", and the tree rules of
// htmlparser2's Parser (the parser this replaces; its per-character state machine was
// three quarters of the conversion time). The events are the ones htmlparser2 12 gives with
// decodeEntities, lowerCaseTags, lowerCaseAttributeNames and no self-closing tags outside
// SVG and MathML: a tag that starts a block closes an open <p>, <li> closes <li>, <a> an
// open <a>, a heading an open heading, <td> and <tr> close cells and rows; void elements
// close at once; a stray closer is ignored except </p> (an empty p) and </br> (a br);
// whatever is open closes at the end. On broken markup these follow the HTML standard's
// tokenizer where htmlparser2 10 did not (§13.2.5): RCDATA (<title>, <textarea>) decodes
// character references; <script/> still starts raw text; "</>", "</ p>" and "<!->" are
// dropped as bogus comments; <svg/> leaves foreign content. test/unit/conversion/text/
// html-parse.test.ts checks the events against htmlparser2's.
// Unlike htmlparser2, a tag, comment, declaration or processing instruction cut off by the
// end of the input is dropped, as HTML's tokenizer drops it (§13.2.5), rather than given
// back in part as text.
import { decodeHTML, decodeHTMLAttribute } from 'entities/decode'

export interface HtmlHandler {
  openTag (name: string, attrs: Attributes): void
  closeTag (name: string): void
  /** Text with entities decoded; consecutive calls may split one run of text. */
  text (text: string): void
}

/** Attributes of a tag, lowercased names, first occurrence kept; shared, never to be changed. */
export type Attributes = Readonly<Record<string, string>>

const NO_ATTRIBUTES: Attributes = Object.freeze({})

const P = new Set(['p'])
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'])
const TABLE_SECTIONS = new Set(['thead', 'tbody'])
const DD_DT = new Set(['dd', 'dt'])
const RT_RP = new Set(['rt', 'rp'])
/** A heading closes an open heading (or p): §13.2.6.4.7, "h1", …, "h6". */
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p'])

/** The open elements a start tag closes, innermost first (htmlparser2's openImpliesClose). */
const IMPLIES_CLOSE: ReadonlyArray<readonly [string, ReadonlySet<string>]> = [
  ['tr', new Set(['tr', 'th', 'td'])], ['th', new Set(['th'])], ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])], ['a', new Set(['a'])], ['li', new Set(['li'])],
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((name) => [name, HEADINGS] as const),
  ['select', FORM], ['input', FORM], ['output', FORM], ['button', FORM], ['datalist', FORM], ['textarea', FORM],
  ['option', new Set(['option'])], ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', DD_DT], ['dt', DD_DT], ['rt', RT_RP], ['rp', RT_RP], ['tbody', TABLE_SECTIONS], ['tfoot', TABLE_SECTIONS],
  ...['p', 'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl',
    'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre', 'section',
    'table', 'ul'].map((name) => [name, P] as const)
]

const VOID = ['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex',
  'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']

/**
 * Where self-closing tags are honoured (SVG, MathML), and the elements that leave it again
 * (HTML integration points; foreignObject as SVG spells it: names are adjusted first).
 */
const FOREIGN = ['math', 'svg']
const HTML_INTEGRATION = ['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignObject', 'desc', 'title']
/** The foreign content a parse is in: none (HTML), SVG or MathML. */
const NONE = 0
const SVG = 1
const MATH = 2

/**
 * SVG element names in their SVG case (HTML §13.2.6.5, "adjust SVG tag names"): inside
 * <svg> a lowercased name becomes this one.
 */
const SVG_NAMES = new Map(['altGlyph', 'altGlyphDef', 'altGlyphItem', 'animateColor', 'animateMotion', 'animateTransform',
  'clipPath', 'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feConvolveMatrix', 'feDiffuseLighting',
  'feDisplacementMap', 'feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA', 'feFuncB', 'feFuncG', 'feFuncR',
  'feGaussianBlur', 'feImage', 'feMerge', 'feMergeNode', 'feMorphology', 'feOffset', 'fePointLight',
  'feSpecularLighting', 'feSpotLight', 'feTile', 'feTurbulence', 'foreignObject', 'glyphRef', 'linearGradient',
  'radialGradient', 'textPath'].map((name) => [name.toLowerCase(), name]))

/**
 * Elements whose content is text up to their end tag, outside foreign content, even when
 * written self-closing (the "/" is ignored on HTML elements, §13.2.6.4.7). Title's and
 * textarea's decode character references (RCDATA, §13.1.2.5); the others' do not.
 */
const RAW_TEXT = ['script', 'style', 'title', 'textarea', 'xmp']
const RCDATA = new Set(['title', 'textarea'])

/** Other elements of HTML, so that their names, too, come out as one shared string each. */
const OTHER = ['a', 'abbr', 'acronym', 'audio', 'b', 'bdi', 'bdo', 'big', 'blink', 'canvas', 'caption', 'center', 'cite',
  'code', 'colgroup', 'data', 'del', 'dfn', 'dialog', 'dir', 'em', 'font', 'frameset', 'head', 'hgroup', 'html', 'i',
  'iframe', 'ins', 'kbd', 'label', 'legend', 'map', 'mark', 'marquee', 'menu', 'meter', 'noscript', 'object', 'picture',
  'progress', 'q', 's', 'samp', 'search', 'slot', 'small', 'span', 'strike', 'strong', 'sub', 'summary', 'sup',
  'template', 'time', 'tt', 'u', 'var', 'video']

interface TagRules {
  /** The name, one string for every element of this name. */
  readonly name: string
  readonly impliesClose: ReadonlySet<string> | undefined
  readonly isVoid: boolean
  /** The foreign content it opens (SVG, MATH, or NONE for an HTML integration point); undefined for others. */
  readonly foreign: number | undefined
  readonly rawText: boolean
}

const RULES = new Map<string, TagRules>()
for (const name of new Set([...IMPLIES_CLOSE.map(([n]) => n), ...VOID, ...FOREIGN, ...HTML_INTEGRATION, ...RAW_TEXT, ...OTHER])) {
  RULES.set(name, {
    name,
    impliesClose: IMPLIES_CLOSE.find(([n]) => n === name)?.[1],
    isVoid: VOID.includes(name),
    foreign: name === 'svg' ? SVG : name === 'math' ? MATH : HTML_INTEGRATION.includes(name) ? NONE : undefined,
    rawText: RAW_TEXT.includes(name)
  })
}

/** An element name within one parse, with how many elements of it are open. */
interface Tag {
  readonly rules: TagRules
  open: number
}

function isSpace (c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 12 || c === 13
}

function isAsciiAlpha (c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90)
}

/**
 * Character references as HTML decodes them in text (or attribute values): the few that
 * make up nearly all of real documents here, the full table (entities) for the others.
 */
function decodeReferences (raw: string, attribute: boolean): string {
  let amp = raw.indexOf('&')
  if (amp < 0) return raw
  let out = ''
  let last = 0
  do {
    let value: string
    let length: number
    const c = raw.charCodeAt(amp + 1)
    if (c === 108 && raw.startsWith('lt;', amp + 1)) {
      value = '<'
      length = 4
    } else if (c === 103 && raw.startsWith('gt;', amp + 1)) {
      value = '>'
      length = 4
    } else if (c === 97 && raw.startsWith('amp;', amp + 1)) {
      value = '&'
      length = 5
    } else if (c === 113 && raw.startsWith('quot;', amp + 1)) {
      value = '"'
      length = 6
    } else if (c === 35 && raw.startsWith('#39;', amp + 1)) {
      value = "'"
      length = 5
    } else {
      return attribute ? decodeHTMLAttribute(raw) : decodeHTML(raw)
    }
    out += raw.slice(last, amp) + value
    last = amp + length
    amp = raw.indexOf('&', last)
  } while (amp >= 0)
  return out + raw.slice(last)
}

/** The open elements and htmlparser2's rules for opening and closing them. */
class TreeRules {
  private readonly stack: Tag[] = []
  private readonly tags = new Map<string, Tag>()
  /** The foreign content of each open svg, math and integration point, innermost last. */
  private readonly foreign: number[] = [NONE]

  constructor (private readonly handler: HtmlHandler) {}

  tag (name: string): Tag {
    let tag = this.tags.get(name)
    if (tag === undefined) {
      tag = { rules: RULES.get(name) ?? { name, impliesClose: undefined, isVoid: false, foreign: undefined, rawText: false }, open: 0 }
      this.tags.set(name, tag)
    }
    return tag
  }

  inForeignContent (): boolean {
    return this.foreign[this.foreign.length - 1] !== NONE
  }

  /**
   * The name a tag's lowercased name stands for: in SVG's case inside <svg> (and for the
   * end tag of an SVG element open around an integration point), <image> as <img> in HTML.
   */
  nameOf (lower: string): string {
    const context = this.foreign[this.foreign.length - 1]
    if (context === SVG) return SVG_NAMES.get(lower) ?? lower
    if (this.foreign.length > 1) {
      const svgName = SVG_NAMES.get(lower)
      if (svgName !== undefined && (this.tags.get(svgName)?.open ?? 0) > 0) return svgName
    }
    return context === NONE && lower === 'image' ? 'img' : lower
  }

  private pop (): Tag {
    const tag = this.stack.pop()!
    tag.open--
    if (tag.rules.foreign !== undefined) this.foreign.pop()
    this.handler.closeTag(tag.rules.name)
    return tag
  }

  open (tag: Tag, attrs: Attributes, selfClosing: boolean): void {
    const rules = tag.rules
    // A second form while one is open is ignored (the form element pointer, §13.2.6.4.7).
    if (rules.name === 'form' && tag.open > 0) return
    const implied = rules.impliesClose
    if (implied !== undefined) {
      while (this.stack.length > 0 && implied.has(this.stack[this.stack.length - 1]!.rules.name)) this.pop()
    }
    if (!rules.isVoid) {
      this.stack.push(tag)
      tag.open++
      if (rules.foreign !== undefined) this.foreign.push(rules.foreign)
    }
    this.handler.openTag(rules.name, attrs)
    if (rules.isVoid) this.handler.closeTag(rules.name)
    else if (selfClosing && this.inForeignContent() && this.stack[this.stack.length - 1] === tag) this.pop()
  }

  close (tag: Tag): void {
    const rules = tag.rules
    if (rules.isVoid) {
      if (rules.name === 'br') {
        this.handler.openTag('br', NO_ATTRIBUTES)
        this.handler.closeTag('br')
      }
    } else if (tag.open > 0) {
      while (this.pop() !== tag);
    } else if (rules.name === 'p') {
      this.open(tag, NO_ATTRIBUTES, false)
      this.pop()
    }
  }

  end (): void {
    while (this.stack.length > 0) this.pop()
  }
}

/** What a start tag holds, read by readStartTag. */
interface StartTag {
  name: string
  attrs: Record<string, string>
  selfClosing: boolean
  /** Position of its ">", or -1 when the input ends inside the tag. */
  end: number
}

/**
 * The start tag at `lt` ("<" then a letter). Names and attributes as htmlparser2 reads
 * them: the name runs to whitespace, "/" or ">"; attribute names run to whitespace, "/",
 * ">" or "="; values are quoted or run to whitespace or ">"; the first of a repeated
 * attribute wins.
 */
function readStartTag (html: string, lt: number): StartTag {
  const n = html.length
  let j = lt + 2
  while (j < n) {
    const d = html.charCodeAt(j)
    if (d === 62 || d === 47 || isSpace(d)) break
    j++
  }
  const tag: StartTag = { name: html.slice(lt + 1, j).toLowerCase(), attrs: NO_ATTRIBUTES, selfClosing: false, end: -1 }
  while (j < n) {
    let d = html.charCodeAt(j)
    if (isSpace(d)) {
      j++
      continue
    }
    if (d === 62) {
      tag.end = j
      break
    }
    if (d === 47) {
      j++
      while (j < n && isSpace(html.charCodeAt(j))) j++
      if (j < n && html.charCodeAt(j) === 62) {
        tag.selfClosing = true
        tag.end = j
        break
      }
      continue
    }
    const nameStart = j++
    while (j < n) {
      d = html.charCodeAt(j)
      if (d === 61 || d === 62 || d === 47 || isSpace(d)) break
      j++
    }
    const attrName = html.slice(nameStart, j).toLowerCase()
    while (j < n && isSpace(html.charCodeAt(j))) j++
    let value = ''
    if (j < n && html.charCodeAt(j) === 61) {
      j++
      while (j < n && isSpace(html.charCodeAt(j))) j++
      if (j >= n) break
      const q = html.charCodeAt(j)
      if (q === 34 || q === 39) {
        const close = html.indexOf(q === 34 ? '"' : "'", j + 1)
        if (close < 0) break
        value = html.slice(j + 1, close)
        j = close + 1
      } else {
        const valueStart = j
        while (j < n) {
          d = html.charCodeAt(j)
          if (d === 62 || isSpace(d)) break
          j++
        }
        value = html.slice(valueStart, j)
      }
      value = decodeReferences(value, true)
    }
    if (tag.attrs === NO_ATTRIBUTES) tag.attrs = {}
    if (!Object.prototype.hasOwnProperty.call(tag.attrs, attrName)) tag.attrs[attrName] = value
  }
  return tag
}

/**
 * Where the raw text of a `name` element (script, style, textarea, title) that starts at
 * `from` ends: the next "</name" followed by whitespace, "/" or ">", in any case; -1 when
 * the input ends first.
 */
function rawTextEnd (html: string, from: number, name: string): number {
  const n = html.length
  for (let k = html.indexOf('</', from); k >= 0; k = html.indexOf('</', k + 1)) {
    const after = k + 2 + name.length
    if (after >= n) return -1
    let m = 0
    while (m < name.length && (html.charCodeAt(k + 2 + m) | 0x20) === name.charCodeAt(m)) m++
    const d = html.charCodeAt(after)
    if (m === name.length && (d === 62 || d === 47 || isSpace(d))) return k
  }
  return -1
}

/**
 * Past the comment, CDATA section (a comment in HTML content), declaration or processing
 * instruction at `lt` ("<!" or "<?"): nothing of it shows. -1 when the input ends inside.
 * Anything but a comment or CDATA is a bogus comment, up to the first ">" (HTML §13.2.5.42):
 * "<!>" and "<!->" end at their own ">".
 */
function skipMarkup (html: string, lt: number, c: number): number {
  if (c === 33 && html.startsWith('--', lt + 2)) {
    const end = html.indexOf('-->', lt + 2) // "<!-->" is a whole comment
    return end < 0 ? -1 : end + 3
  }
  if (c === 33 && html.startsWith('[CDATA[', lt + 2)) {
    const end = html.indexOf(']]>', lt + 9)
    return end < 0 ? -1 : end + 3
  }
  const end = html.indexOf('>', lt + 2)
  return end < 0 ? -1 : end + 1
}

/** Parses `html` and reports its elements and text to `handler`, in document order. */
export function parseHtml (html: string, handler: HtmlHandler): void {
  const tree = new TreeRules(handler)
  const n = html.length
  /** Start of the text not reported yet. */
  let textStart = 0
  const flushText = (end: number): void => {
    if (end > textStart) {
      const raw = html.slice(textStart, end)
      handler.text(decodeReferences(raw, false))
    }
  }
  let i = 0
  for (;;) {
    const lt = html.indexOf('<', i)
    if (lt < 0 || lt + 1 >= n) break
    const c = html.charCodeAt(lt + 1)
    if (isAsciiAlpha(c)) {
      const start = readStartTag(html, lt)
      flushText(lt)
      if (start.end < 0) {
        // Cut off by the end of the input: no element.
        textStart = n
        break
      }
      const tag = tree.tag(tree.nameOf(start.name))
      // Raw text is decided where the tag starts: in SVG or MathML a <style> or <title> is not.
      const rawText = tag.rules.rawText && !tree.inForeignContent()
      tree.open(tag, start.attrs, start.selfClosing)
      i = textStart = start.end + 1
      if (rawText) {
        const name = tag.rules.name
        const k = rawTextEnd(html, i, name)
        const textEnd = k < 0 ? n : k
        if (textEnd > i) {
          const raw = html.slice(i, textEnd)
          handler.text(RCDATA.has(name) ? decodeReferences(raw, false) : raw)
        }
        if (k < 0) {
          textStart = n
          break
        }
        tree.close(tag)
        const gt = html.indexOf('>', k + 2 + name.length)
        if (gt < 0) {
          textStart = n
          break
        }
        i = textStart = gt + 1
      }
    } else if (c === 47) {
      // An end tag "</name"; "</>" is dropped (HTML §13.2.5.7).
      let j = lt + 2
      if (j >= n) break // "</" at the end is text
      const d = html.charCodeAt(j)
      flushText(lt)
      if (d === 62) {
        i = textStart = j + 1
        continue
      }
      if (isAsciiAlpha(d)) {
        const nameStart = j
        while (j < n) {
          const e = html.charCodeAt(j)
          if (e === 62 || e === 47 || isSpace(e)) break
          j++
        }
        if (j >= n) {
          textStart = n
          break
        }
        tree.close(tree.tag(tree.nameOf(html.slice(nameStart, j).toLowerCase())))
      }
      // Anything else after "</" is a bogus comment (HTML §13.2.5.7): up to ">".
      const gt = html.indexOf('>', j)
      if (gt < 0) {
        textStart = n
        break
      }
      i = textStart = gt + 1
    } else if (c === 33 || c === 63) {
      flushText(lt)
      const next = skipMarkup(html, lt, c)
      if (next < 0) {
        textStart = n
        break
      }
      // In SVG or MathML a CDATA section is text, as it is written (§13.2.5.69).
      if (c === 33 && tree.inForeignContent() && html.startsWith('[CDATA[', lt + 2) && next - 3 > lt + 9) handler.text(html.slice(lt + 9, next - 3))
      i = textStart = next
    } else {
      // "<" not followed by a tag is text.
      i = lt + 1
    }
  }
  flushText(n)
  tree.end()
}
