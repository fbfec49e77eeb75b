// Which bundled families a text needs, in which order, and which way it runs. The canvas
// takes one font-family list per string and, for each character, draws with the first
// family of the list that has it: the list for a text holds a family for every script in
// it, so a name mixing scripts draws each run in a font that has it (covered per script
// by test/generation/script-coverage.test.ts, from the fonts' cmap tables). A family is
// added only when its script is present, so that it is loaded on first use (fonts.ts).

/** Latin (with Vietnamese), Greek, Cyrillic and most of Devanagari; first after the requested family. */
export const FALLBACK_FAMILY = 'Noto Sans'
/** Kana, kanji, and the symbols and CJK punctuation Noto Sans lacks: in every chain. */
export const CJK_FAMILY = 'Noto Sans JP'
export const EMOJI_FAMILY = 'Noto Color Emoji'

interface ScriptFamily { family: string, test: RegExp }

/**
 * The scripts whose family joins the chain when the text holds one of their characters,
 * in chain order, between Noto Sans and Noto Sans JP. Hangul comes before Noto Sans JP,
 * which has a few Hangul letters of its own (Korean names would mix two designs), and
 * takes the Han characters of a Korean text (hanja) too.
 */
const BEFORE_CJK: readonly ScriptFamily[] = [
  { family: 'Noto Sans KR', test: /[\p{Script=Hangul}]/u },
  { family: 'Noto Sans Thai', test: /\p{Script=Thai}/u },
  { family: 'Noto Sans Arabic', test: /\p{Script=Arabic}/u },
  { family: 'Noto Sans Hebrew', test: /\p{Script=Hebrew}/u },
  // Noto Sans draws most of Devanagari; this one has the rest (Vedic signs, extended letters).
  { family: 'Noto Sans Devanagari', test: /\p{Script=Devanagari}/u }
]
/**
 * After Noto Sans JP: the Han characters it lacks. Simplified Chinese (简) first, then
 * Traditional (and Bopomofo). Noto Sans JP, SC and TC are regional cuts of one design
 * (Noto Sans CJK), so a name whose characters come from two of them still reads as one.
 */
const AFTER_CJK: readonly ScriptFamily[] = [
  { family: 'Noto Sans SC', test: /\p{Script=Han}/u },
  { family: 'Noto Sans TC', test: /[\p{Script=Han}\p{Script=Bopomofo}]/u }
]
/**
 * Emoji presented as emoji by default whose code points the CJK fonts also have, as text
 * (the squared and enclosed letters and ideographs, 🆎 🈁 🉑): with one of them in the
 * text, the emoji font goes before the CJK fonts, else the CJK font's black glyph is drawn.
 */
const ENCLOSED_EMOJI = /(?=\p{Emoji_Presentation})[\u{1F100}-\u{1F2FF}]/u

/** The families after the requested one, for drawing `text` (fonts.ts puts the requested family first). */
export function fallbackChain (text: string): string[] {
  const chain = [FALLBACK_FAMILY]
  for (const s of BEFORE_CJK) if (s.test.test(text)) chain.push(s.family)
  if (ENCLOSED_EMOJI.test(text)) chain.push(EMOJI_FAMILY)
  chain.push(CJK_FAMILY)
  for (const s of AFTER_CJK) if (s.test.test(text)) chain.push(s.family)
  if (!chain.includes(EMOJI_FAMILY)) chain.push(EMOJI_FAMILY)
  return chain
}

/** Every family a chain may name besides the requested one. */
export const SCRIPT_FAMILIES: readonly string[] = [FALLBACK_FAMILY, ...BEFORE_CJK.map((s) => s.family), CJK_FAMILY, ...AFTER_CJK.map((s) => s.family), EMOJI_FAMILY]

// Strong right-to-left characters (bidi classes R and AL) of the scripts in use today.
const STRONG_RTL = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}]/u
// A letter: strong in the bidi algorithm, left to right unless it is one of the above.
const STRONG = /\p{L}/u

/**
 * The paragraph direction of `text`: that of its first strong character (Unicode bidi
 * algorithm, UAX #9 rules P2 and P3), left to right when it has none. An Arabic or Hebrew
 * name is laid out right to left, so that its digits and punctuation land where a reader
 * of it expects them, while a Latin name quoting one word of Arabic stays left to right.
 */
export function textDirection (text: string): 'ltr' | 'rtl' {
  for (const ch of text) {
    if (STRONG_RTL.test(ch)) return 'rtl'
    if (STRONG.test(ch)) return 'ltr'
  }
  return 'ltr'
}
