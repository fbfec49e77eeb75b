// Strings that came from outside (an archive's entry names, a manifest's file names, a gif
// source's answers and error messages, URLs) are printed to the operator's terminal only
// through `printable`: control characters (C0, DEL, C1, and the Unicode bidirectional
// overrides that reorder what a line shows) are written as escapes, so no ESC byte can
// clear the screen, set the window title or move the cursor to forge a line, and a long
// string is cut with a count of what was left out.

/** Longest outside string printed whole; longer ones are cut (characters, not bytes). */
export const PRINTABLE_MAX = 300

// C0 controls (tab and newline included: one entry stays on one line), DEL, C1 controls,
// and the bidirectional formatting characters (U+061C, U+200E-U+200F, U+202A-U+202E,
// U+2066-U+2069).
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

function escapeOne (c: string): string {
  const code = c.charCodeAt(0)
  if (c === '\n') return '\\n'
  if (c === '\r') return '\\r'
  if (c === '\t') return '\\t'
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/** `text` made safe to print on a terminal: controls escaped, at most `max` characters kept. */
export function printable (text: string, max = PRINTABLE_MAX): string {
  const chars = Array.from(text)
  const kept = chars.length > max ? chars.slice(0, max).join('') : text
  const safe = kept.replace(UNSAFE, escapeOne)
  return chars.length > max ? `${safe}… (${chars.length - max} more characters)` : safe
}

// JSON.stringify writes C0 controls as \u escapes already, DEL, C1 and the bidirectional
// characters as they are.
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/**
 * `value` as indented JSON safe to print: every character `printable` escapes is written
 * as a \u escape, so the data a script reads is unchanged and nothing is cut.
 */
export function printableJson (value: unknown): string {
  return JSON.stringify(value, null, 2).replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
