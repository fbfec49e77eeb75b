// The named colours: the CSS Color 4 keywords (package color-name, MIT) first, then
// meodai's color-name-list (MIT, about 31,000 names). Value lookups name a colour by the
// nearest entry under CIEDE2000; an exact value match takes the first entry with that
// value, so CSS keywords win exact matches (#ff0000 is "Red", not a poetic synonym).
// Name lookups ignore case, spaces, hyphens, underscores and accents.
import cssColors from 'color-name'
import { colornames } from 'color-name-list'
import { labOf, toHex, type RgbValue } from './convert.js'
import { createNearestIndex, type LabTriples, type NearestIndex } from './nearest-index.js'

/** Suggestions offered for an unknown name. */
export const MAX_SUGGESTIONS = 5
/** Edit distance beyond which a name is no longer offered as a spelling of the query. */
const MAX_SUGGESTION_DISTANCE = 4

export interface NamedColor extends RgbValue {
  name: string
  hex: string
  /** A CSS Color 4 keyword. */
  css: boolean
}

export interface NameMatch {
  color: NamedColor
  /** CIEDE2000 from the looked-up value to the named colour (0: exact). */
  distance: number
}

export interface ColorCatalog {
  /** Distinct named values, in preference order (CSS first). */
  readonly colors: readonly NamedColor[]
  /** Their CIELAB (D65) triples, parallel to `colors`. */
  readonly lab: LabTriples
  /** Milliseconds spent building the catalogue and its index. */
  readonly buildMs: number
  nearest (color: RgbValue): NameMatch
  byName (name: string): NamedColor | undefined
  suggest (name: string): string[]
}

/** "Dark Slate Grey", "dark-slate_grey", "DarkSlateGrey" → "darkslategrey". */
export function normaliseName (name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[\s\-_]+/g, '')
}

// The CSS keywords are run together ("darkslategray"); these words split them for
// display ("Dark Slate Gray"), longest first. Every keyword splits fully (tested).
const CSS_WORDS = ('alice antique aquamarine aqua azure beige bisque black blanched almond blue violet brown burly wood ' +
  'cadet chartreuse chocolate coral cornflower cornsilk crimson cyan dark goldenrod gray grey green khaki magenta ' +
  'olive orange orchid red salmon sea slate turquoise deep pink sky dim dodger fire brick floral forest fuchsia ' +
  'gainsboro ghost gold honeydew hot indian indigo ivory lavender blush lawn lemon chiffon light yellow lime linen ' +
  'maroon medium purple spring midnight mint cream misty rose moccasin navajo navy old lace drab papaya whip peach ' +
  'puff peru plum powder rebecca saddle sandy sienna silver snow steel tan teal thistle tomato wheat smoke white ' +
  'transparent pale rosy royal shell').split(' ').sort((a, b) => b.length - a.length)

/** "lightgoldenrodyellow" → "Light Goldenrod Yellow"; undefined when a part is not a known word. */
export function displayCssName (keyword: string): string | undefined {
  const words: string[] = []
  let rest = keyword
  while (rest !== '') {
    const word = CSS_WORDS.find((w) => rest.startsWith(w))
    if (!word) return undefined
    words.push(word[0]!.toUpperCase() + word.slice(1))
    rest = rest.slice(word.length)
  }
  return words.join(' ')
}

/** Levenshtein distance, giving up (returning limit + 1) once it must exceed `limit`. */
export function boundedEditDistance (a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let prev = new Array<number>(b.length + 1)
  let cur = new Array<number>(b.length + 1)
  for (let j = 0; j <= b.length; j++) prev[j] = j
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1))
      cur[j] = v
      if (v < rowMin) rowMin = v
    }
    if (rowMin > limit) return limit + 1
    ;[prev, cur] = [cur, prev]
  }
  return prev[b.length]!
}

function rgbOfHex (hex: string): RgbValue {
  const v = parseInt(hex.slice(1), 16)
  return { r: v >> 16, g: (v >> 8) & 255, b: v & 255 }
}

export function createColorCatalog (): ColorCatalog {
  const start = performance.now()
  const all: NamedColor[] = []
  for (const [keyword, [r, g, b]] of Object.entries(cssColors)) {
    const rgb = { r, g, b }
    all.push({ name: displayCssName(keyword) ?? keyword[0]!.toUpperCase() + keyword.slice(1), hex: toHex(rgb), ...rgb, css: true })
  }
  for (const { name, hex } of colornames) {
    if (!/^#[0-9a-f]{6}$/i.test(hex)) continue
    all.push({ name, hex: hex.toLowerCase(), ...rgbOfHex(hex.toLowerCase()), css: false })
  }

  const byKey = new Map<string, NamedColor>()
  for (const c of all) {
    const key = normaliseName(c.name)
    if (key !== '' && !byKey.has(key)) byKey.set(key, c)
  }
  const keys = [...byKey.keys()]

  const seenHex = new Set<string>()
  const colors = all.filter((c) => !seenHex.has(c.hex) && seenHex.add(c.hex))
  const lab = new Float64Array(colors.length * 3)
  colors.forEach((c, i) => {
    const l = labOf(c)
    lab[3 * i] = l.l
    lab[3 * i + 1] = l.a
    lab[3 * i + 2] = l.b
  })
  const index: NearestIndex = createNearestIndex(lab)
  const buildMs = performance.now() - start

  return {
    colors,
    lab,
    buildMs,
    nearest (color) {
      const l = labOf(color)
      const { index: i, distance } = index.nearest(l.l, l.a, l.b)
      return { color: colors[i]!, distance }
    },
    byName (name) {
      return byKey.get(normaliseName(name))
    },
    suggest (name) {
      const query = normaliseName(name)
      // Closest by edit distance, then the shorter name, then catalogue order (CSS first).
      const found: Array<{ key: string, d: number }> = []
      let limit = Math.min(MAX_SUGGESTION_DISTANCE, Math.max(1, Math.floor(query.length / 2)))
      for (const key of keys) {
        const d = boundedEditDistance(query, key, limit)
        if (d > limit) continue
        found.push({ key, d })
        if (found.length >= 4 * MAX_SUGGESTIONS) {
          // Keep the list short and tighten the limit to the worst distance still needed.
          found.sort((x, y) => x.d - y.d || x.key.length - y.key.length)
          found.length = MAX_SUGGESTIONS
          limit = found[found.length - 1]!.d
        }
      }
      found.sort((x, y) => x.d - y.d || x.key.length - y.key.length)
      return found.slice(0, MAX_SUGGESTIONS).map((f) => byKey.get(f.key)!.name)
    }
  }
}
