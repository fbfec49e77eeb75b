// Which bundled families a text needs, in which order, and which way it runs. The canvas
// takes one font-family list per string and, for each character, draws with the first
// family of the list that has it: the list for a text holds a family for every script in
// it, so a name mixing scripts draws each run in a font that has it (covered per script
// by test/unit/generation/text/script-coverage.test.ts, from the fonts' cmap tables). A family is
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
 * After Noto Sans JP, each only for a Han or Bopomofo character of the text that the cuts
 * before it lack: Simplified Chinese (简, 们) first, then Traditional (the Hong Kong
 * characters of CJK Extension B, 𨋢). Noto Sans JP has most of what a Han text holds
 * (世界, 中文, Bopomofo), and Skia reads the cmap and layout tables of every family of the
 * list it shapes a run with, 2.4–2.9 MB of each CJK file, even one it draws nothing from
 * (docs/memory.md, "Fonts"). Noto Sans JP, SC and TC are regional cuts of one design
 * (Noto Sans CJK), so a name whose characters come from two of them still reads as one.
 * SC and TC add no character outside Han and Bopomofo to Noto Sans and Noto Sans JP
 * (test/unit/generation/text/script-coverage.test.ts checks every code point of the three).
 */
const AFTER_CJK: readonly string[] = ['Noto Sans SC', 'Noto Sans TC']
const HAN_OR_BOPOMOFO = /[\p{Script=Han}\p{Script=Bopomofo}]/u
/**
 * Emoji presented as emoji by default whose code points the CJK fonts also have, as text
 * (the squared and enclosed letters and ideographs, 🆎 🈁 🉑): with one of them in the
 * text, the emoji font goes before the CJK fonts, else the CJK font's black glyph is drawn.
 */
const ENCLOSED_EMOJI = /(?=\p{Emoji_Presentation})[\u{1F100}-\u{1F2FF}]/u

/**
 * The code points a bundled family's regular file maps (its cmap table, read on first
 * need by the registry: fonts.ts), or undefined when they cannot be read. All weights of
 * Noto Sans JP, SC and TC map the same code points (script-coverage.test.ts).
 */
export type FamilyCoverage = (family: string) => { has (cp: number): boolean } | undefined

/**
 * The families after the requested one, for drawing `text` (fonts.ts puts the requested
 * family first). Without `coverage`, or when a font's cmap cannot be read, every Han text
 * gets Noto Sans SC and TC: a font loaded for nothing rather than a character drawn as a box.
 */
export function fallbackChain (text: string, coverage: FamilyCoverage = () => undefined): string[] {
  const chain = [FALLBACK_FAMILY]
  for (const s of BEFORE_CJK) if (s.test.test(text)) chain.push(s.family)
  if (ENCLOSED_EMOJI.test(text)) chain.push(EMOJI_FAMILY)
  chain.push(CJK_FAMILY, ...laterCuts(text, coverage))
  if (!chain.includes(EMOJI_FAMILY)) chain.push(EMOJI_FAMILY)
  return chain
}

/**
 * Of AFTER_CJK, the families that draw a Han or Bopomofo character of `text`: each
 * character goes to the first of Noto Sans JP, SC and TC whose cmap has it. Only these
 * characters are looked up, so a text without one never reads a cmap. A character none
 * of them has adds no family: it would be a box in all three.
 */
function laterCuts (text: string, coverage: FamilyCoverage): string[] {
  if (!HAN_OR_BOPOMOFO.test(text)) return []
  const cuts = [CJK_FAMILY, ...AFTER_CJK]
  const joined = new Set<string>()
  for (const ch of text) {
    if (!HAN_OR_BOPOMOFO.test(ch)) continue
    const cp = ch.codePointAt(0)!
    for (const family of cuts) {
      const mapped = coverage(family)
      if (mapped === undefined) return [...AFTER_CJK]
      if (!mapped.has(cp)) continue
      if (family !== CJK_FAMILY) joined.add(family)
      break
    }
    if (joined.size === AFTER_CJK.length) break
  }
  return AFTER_CJK.filter((family) => joined.has(family))
}

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
