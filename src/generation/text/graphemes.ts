// Where text may be cut: between grapheme clusters (Unicode UAX #29, by Intl.Segmenter),
// never inside one. A code point is not a character a reader sees: 🇯🇵 is two regional
// indicators, 👨‍👩‍👧 five code points, the Thai สี and the Devanagari स्ते a base with
// marks; cutting between them draws a letter J, a lone man, or a mark on nothing.

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
const wordSegmenter = new Intl.Segmenter(undefined, { granularity: 'word' })

/** The grapheme clusters of `text`, in order. */
export function graphemes (text: string): string[] {
  const out: string[] = []
  for (const { segment } of graphemeSegmenter.segment(text)) out.push(segment)
  return out
}

/**
 * Places where a word with no spaces in it may be broken, the way the platform's ICU finds
 * them: at dictionary words in Thai, Chinese and Japanese, and around punctuation. Each
 * piece is whole graphemes.
 */
export function wordPieces (text: string): string[] {
  const out: string[] = []
  for (const { segment } of wordSegmenter.segment(text)) out.push(segment)
  return out
}

/**
 * The first grapheme of a name, in capitals where that keeps it one grapheme (é → É,
 * but ß stays ß rather than becoming SS): the letter a chat app shows on a disc for a
 * member without an avatar. 🇯🇵 Taro's is the flag, not a J.
 */
export function initialOf (name: string): string {
  const first = graphemes(name.trim())[0] ?? ''
  const upper = first.toUpperCase()
  return graphemes(upper).length === 1 ? upper : first
}
