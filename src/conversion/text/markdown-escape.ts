// Escaping for HTML → Markdown (CommonMark 0.31.2 §2.4 backslash escapes, §6 inlines,
// §4-5 block starts): text that Markdown would misread is escaped, nothing else.

function isAlnum (c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
}
function isAsciiPunct (c: number): boolean {
  return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)
}

const INLINE_SPECIAL = /[\\`*_[<&~]/
const ENTITY_LIKE = /^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});/

/** Escapes what inline parsing would misread in text: emphasis, code, links, HTML, entities, strikethrough. */
export function escapeInline (s: string): string {
  if (!INLINE_SPECIAL.test(s)) return s
  let out = ''
  let last = 0
  const n = s.length
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i)
    let escape = false
    switch (c) {
      case 92: // \ escapes only before punctuation; at the end the next node may start with one
        escape = i + 1 >= n || isAsciiPunct(s.charCodeAt(i + 1))
        break
      case 96: case 42: case 91: // ` * [
        escape = true
        break
      case 95: // _ inside a word never delimits emphasis (§6.2)
        escape = !(i > 0 && i + 1 < n && isAlnum(s.charCodeAt(i - 1)) && isAlnum(s.charCodeAt(i + 1)))
        break
      case 60: { // < before a tag name, closer, comment, declaration or processing instruction
        const d = i + 1 < n ? s.charCodeAt(i + 1) : 0
        escape = d === 0 || d === 47 || d === 33 || d === 63 || (d >= 65 && d <= 90) || (d >= 97 && d <= 122)
        break
      }
      case 38: // & that would read as an entity
        escape = ENTITY_LIKE.test(s.slice(i, i + 40))
        break
      case 126: // ~ delimits strikethrough in runs
        escape = i === 0 || i + 1 >= n || s.charCodeAt(i - 1) === 126 || s.charCodeAt(i + 1) === 126
        break
    }
    if (escape) {
      out += s.slice(last, i) + '\\'
      last = i
    }
  }
  return out + s.slice(last)
}

/** Characters escapeText looks at: the inline specials, HTML whitespace, | and ]. */
const TEXT_SPECIAL = new Uint8Array(128)
for (const c of '\\`*_[<&~|] \t\n\f\r') TEXT_SPECIAL[c.charCodeAt(0)] = 1

function isHtmlSpace (c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 12 || c === 13
}

const ENTITY_AT = /&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});/y

/**
 * Text as inline Markdown in one scan: escapeInline's escapes, | in table cells (GFM), ]
 * in link text (§6.3), and HTML whitespace runs collapsed to one space (non-breaking
 * spaces stay). Decisions read the raw neighbours, which collapsing never turns into
 * something else, so this equals escaping first and collapsing after.
 */
export function escapeText (s: string, inTable: boolean, inBrackets: boolean): string {
  let out = ''
  let last = 0
  const n = s.length
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i)
    if (c > 127 || TEXT_SPECIAL[c] === 0) continue
    let escape = false
    switch (c) {
      case 32: case 9: case 10: case 12: case 13: {
        let j = i + 1
        while (j < n && isHtmlSpace(s.charCodeAt(j))) j++
        if (c === 32 && j === i + 1) continue // a single space stays
        out += s.slice(last, i) + ' '
        last = j
        i = j - 1
        continue
      }
      case 124: // |
        escape = inTable
        break
      case 93: // ]
        escape = inBrackets
        break
      case 92:
        escape = i + 1 >= n || isAsciiPunct(s.charCodeAt(i + 1))
        break
      case 96: case 42: case 91:
        escape = true
        break
      case 95:
        escape = !(i > 0 && i + 1 < n && isAlnum(s.charCodeAt(i - 1)) && isAlnum(s.charCodeAt(i + 1)))
        break
      case 60: {
        const d = i + 1 < n ? s.charCodeAt(i + 1) : 0
        escape = d === 0 || d === 47 || d === 33 || d === 63 || (d >= 65 && d <= 90) || (d >= 97 && d <= 122)
        break
      }
      case 38:
        ENTITY_AT.lastIndex = i
        escape = ENTITY_AT.test(s)
        break
      case 126:
        escape = i === 0 || i + 1 >= n || s.charCodeAt(i - 1) === 126 || s.charCodeAt(i + 1) === 126
        break
    }
    if (escape) {
      out += s.slice(last, i) + '\\'
      last = i
    }
  }
  return out === '' ? s : out + s.slice(last)
}

const LINE_START = /^(?:#{1,6}(?=[ \t]|$)|[>+=-]|\d{1,9}[.)](?=[ \t]|$))/
/** A line of - or = alone: a thematic break or setext underline (§4.1, §4.3). */
const BREAK_LINE = /^[-=]+[ \t]*$/

/** Escapes what would start a block at the beginning of a line (§4, §5): headings, quotes, lists, breaks. */
export function escapeLineStart (s: string): string {
  const m = LINE_START.exec(s)
  if (!m) return s
  const first = s.charCodeAt(0)
  if (first === 45 || first === 43 || first === 61) { // - + =
    // Only a list marker (followed by a space or nothing) or a line of them is a block start.
    const next = s.charCodeAt(1)
    if (!(s.length === 1 || next === 32 || next === 9 || BREAK_LINE.test(s))) return s
    return '\\' + s
  }
  if (first >= 48 && first <= 57) {
    const digits = m[0].length - 1
    return s.slice(0, digits) + '\\' + s.slice(digits)
  }
  return '\\' + s
}

/** An & that would read as an entity in a title or destination. */
const ENTITY_AMP = /&(?=#?[A-Za-z0-9]+;)/g
const TITLE_SPECIAL = /[\\"&]/
const TITLE_ESCAPED = /[\\"]/g

export function escapeTitle (title: string): string {
  if (!TITLE_SPECIAL.test(title)) return '"' + title + '"'
  return '"' + title.replace(TITLE_ESCAPED, '\\$&').replace(ENTITY_AMP, '\\&') + '"'
}

/** What a destination must not hold bare (§6.3): it is written in <...> instead. */
const DESTINATION_BRACKETED = /[\s<>\x00-\x1f]/
const DESTINATION_SPECIAL = /[\s<>\x00-\x1f\\()&]/
const BRACKETED_ESCAPED = /[\\<>]/g
const LINE_ENDINGS = /[\r\n]/g
const BARE_ESCAPED = /[\\()]/g

export function linkDestination (href: string): string {
  if (href !== '' && !DESTINATION_SPECIAL.test(href)) return href
  if (href === '' || DESTINATION_BRACKETED.test(href)) {
    return '<' + href.replace(BRACKETED_ESCAPED, '\\$&').replace(LINE_ENDINGS, (c) => encodeURIComponent(c)).replace(ENTITY_AMP, '\\&') + '>'
  }
  return href.replace(BARE_ESCAPED, '\\$&').replace(ENTITY_AMP, '\\&')
}

export function longestRun (s: string, ch: string): number {
  const c = ch.charCodeAt(0)
  let best = 0
  let i = s.indexOf(ch)
  while (i >= 0) {
    let j = i + 1
    while (j < s.length && s.charCodeAt(j) === c) j++
    if (j - i > best) best = j - i
    i = s.indexOf(ch, j)
  }
  return best
}

const NEWLINES = /\r\n|\r|\n/g

/** A code span whose backtick string is not in the content (§6.1). */
export function codeSpan (content: string): string {
  const text = content.replace(NEWLINES, ' ')
  if (text === '') return ''
  const fence = '`'.repeat(longestRun(text, '`') + 1)
  const pad = text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' ') && text.trim() !== '')
  return pad ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`
}
