// The named colours: the CSS Color 4 keywords (package color-name, MIT) first, then the
// brand palettes of brand-colors.ts, then meodai's color-name-list (MIT, about 31,000
// names). Value lookups name a colour by the nearest entry under CIEDE2000; an exact value
// match takes the first entry with that value, so CSS keywords win exact matches (#ff0000
// is "Red", not a poetic synonym), then brands (#5865f2 is "Discord Blurple").
// Name lookups ignore case, spaces, hyphens, underscores and accents.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import cssColors from 'color-name'
import { BRAND_PALETTES } from './brand-colors.js'
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
  /** Distinct named values, in preference order (CSS, then brands, then the long list). */
  readonly size: number
  /** The i-th distinct named value (a new object each call: the catalogue keeps no objects). */
  colorAt (i: number): NamedColor
  /** Their CIELAB (D65) triples, parallel to colorAt. */
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

/**
 * color-name-list's names as "name,hex" lines, read from the package's CSV rather than
 * imported: its JavaScript module is one large array literal whose parsing and objects
 * stayed in memory for the process's life; the CSV is read, walked and dropped
 * (docs/memory.md, "Loaded only when needed").
 */
export function * colorNameListEntries (): Generator<{ name: string, hex: string }> {
  const pkg = createRequire(import.meta.url).resolve('color-name-list/package.json')
  const text = fs.readFileSync(path.join(path.dirname(pkg), 'dist', 'colornames.csv'), 'utf8')
  let start = text.indexOf('\n') + 1 // past the "name,hex" header
  while (start < text.length) {
    let end = text.indexOf('\n', start)
    if (end === -1) end = text.length
    const comma = text.lastIndexOf(',', end)
    if (comma > start) yield { name: text.slice(start, comma), hex: text.slice(comma + 1, end).trim() }
    start = end + 1
  }
}

function rgbOf (v: number): RgbValue {
  return { r: v >> 16, g: (v >> 8) & 255, b: v & 255 }
}

/**
 * The strings of a table, concatenated, with their boundaries: 31,000 names as one
 * string and one Uint32Array instead of 31,000 strings and objects (bench/memory.bench.ts).
 */
class StringTable {
  readonly text: string
  readonly starts: Uint32Array
  constructor (strings: readonly string[]) {
    this.text = strings.join('')
    this.starts = new Uint32Array(strings.length + 1)
    let at = 0
    strings.forEach((str, i) => { this.starts[i] = at; at += str.length })
    this.starts[strings.length] = at
  }

  get size (): number { return this.starts.length - 1 }
  at (i: number): string { return this.text.slice(this.starts[i], this.starts[i + 1]) }
}

/** What the catalogue keeps once built: tables of numbers and two strings, no per-name objects. */
interface CatalogTables {
  /** Display names, in preference order (CSS, brands, the long list). */
  names: StringTable
  /** 0xRRGGBB of each entry. */
  rgbs: Int32Array
  /** Entries before this index are CSS keywords. */
  cssEntries: number
  /** Each normalised name once (its first entry), in catalogue order. */
  keys: StringTable
  /** The entry of each key. */
  keyEntry: Int32Array
  /** Key indexes in sorted key order, for binary search. */
  sortedKeys: Int32Array
  /** The first entry of each distinct value. */
  distinct: Int32Array
  /** CIELAB of each distinct value, three numbers each. */
  lab: Float64Array
  index: NearestIndex
}

/**
 * Built in a function of its own: the lookups createColorCatalog returns close over its
 * scope, and V8 keeps one context for all of a function's closures, so the lists and sets
 * used while building (37,000 key strings among them, about 2 MB) would otherwise stay
 * alive as long as the catalogue.
 */
function buildTables (): CatalogTables {
  // Every entry in preference order (CSS, brands, the long list): display name and 0xRRGGBB.
  const entryNames: string[] = []
  const entryRgb: number[] = []
  for (const [keyword, [r, g, b]] of Object.entries(cssColors)) {
    entryNames.push(displayCssName(keyword) ?? keyword[0]!.toUpperCase() + keyword.slice(1))
    entryRgb.push((r << 16) | (g << 8) | b)
  }
  const cssEntries = entryNames.length
  for (const palette of BRAND_PALETTES) {
    for (const { name, hex } of palette.colors) {
      entryNames.push(name)
      entryRgb.push(parseInt(hex.slice(1), 16))
    }
  }
  for (const { name, hex } of colorNameListEntries()) {
    if (!/^#[0-9a-f]{6}$/i.test(hex)) continue
    entryNames.push(name)
    entryRgb.push(parseInt(hex.slice(1), 16))
  }
  const rgbs = Int32Array.from(entryRgb)

  // Name lookups: each normalised name once (the first entry bearing it), kept in
  // catalogue order for suggestions and sorted for binary search.
  const keyList: string[] = []
  const keyEntryList: number[] = []
  const seenKeys = new Set<string>()
  entryNames.forEach((name, i) => {
    const key = normaliseName(name)
    if (key === '' || seenKeys.has(key)) return
    seenKeys.add(key)
    keyList.push(key)
    keyEntryList.push(i)
  })
  const sortedKeys = Int32Array.from(keyList.keys()).sort((x, y) => (keyList[x]! < keyList[y]! ? -1 : keyList[x]! > keyList[y]! ? 1 : 0))

  // Nearest-name lookups: each value once (its first entry).
  const distinctList: number[] = []
  const seenRgb = new Set<number>()
  entryRgb.forEach((rgb, i) => { if (!seenRgb.has(rgb)) { seenRgb.add(rgb); distinctList.push(i) } })
  const distinct = Int32Array.from(distinctList)
  const lab = new Float64Array(distinct.length * 3)
  distinct.forEach((entry, i) => {
    const l = labOf(rgbOf(rgbs[entry]!))
    lab[3 * i] = l.l
    lab[3 * i + 1] = l.a
    lab[3 * i + 2] = l.b
  })
  return {
    names: new StringTable(entryNames),
    rgbs,
    cssEntries,
    keys: new StringTable(keyList),
    keyEntry: Int32Array.from(keyEntryList),
    sortedKeys,
    distinct,
    lab,
    index: createNearestIndex(lab)
  }
}

export function createColorCatalog (): ColorCatalog {
  const start = performance.now()
  const { names, rgbs, cssEntries, keys, keyEntry, sortedKeys, distinct, lab, index } = buildTables()
  const buildMs = performance.now() - start

  function entry (i: number): NamedColor {
    const rgb = rgbOf(rgbs[i]!)
    return { name: names.at(i), hex: toHex(rgb), ...rgb, css: i < cssEntries }
  }

  return {
    size: distinct.length,
    lab,
    buildMs,
    colorAt (i) { return entry(distinct[i]!) },
    nearest (color) {
      const l = labOf(color)
      const { index: i, distance } = index.nearest(l.l, l.a, l.b)
      return { color: entry(distinct[i]!), distance }
    },
    byName (name) {
      const query = normaliseName(name)
      let lo = 0
      let hi = sortedKeys.length - 1
      while (lo <= hi) {
        const mid = (lo + hi) >> 1
        const k = sortedKeys[mid]!
        const key = keys.at(k)
        if (key === query) return entry(keyEntry[k]!)
        if (key < query) lo = mid + 1
        else hi = mid - 1
      }
      return undefined
    },
    suggest (name) {
      const query = normaliseName(name)
      // Closest by edit distance, then the shorter name, then catalogue order (CSS first).
      const found: Array<{ key: string, k: number, d: number }> = []
      let limit = Math.min(MAX_SUGGESTION_DISTANCE, Math.max(1, Math.floor(query.length / 2)))
      for (let k = 0; k < keys.size; k++) {
        const length = keys.starts[k + 1]! - keys.starts[k]!
        if (Math.abs(length - query.length) > limit) continue
        const key = keys.at(k)
        const d = boundedEditDistance(query, key, limit)
        if (d > limit) continue
        found.push({ key, k, d })
        if (found.length >= 4 * MAX_SUGGESTIONS) {
          // Keep the list short and tighten the limit to the worst distance still needed.
          found.sort((x, y) => x.d - y.d || x.key.length - y.key.length)
          found.length = MAX_SUGGESTIONS
          limit = found[found.length - 1]!.d
        }
      }
      found.sort((x, y) => x.d - y.d || x.key.length - y.key.length)
      return found.slice(0, MAX_SUGGESTIONS).map((f) => names.at(keyEntry[f.k]!))
    }
  }
}
