// The fonts /gen draws with: open-licensed families from npm (Google Fonts packaged by
// @expo-google-fonts, colour emoji by @fontsource; licences in assets/fonts/LICENSES.md),
// plus whatever an operator drops into DATA_DIR/fonts. Every font string ends with a
// fallback chain (Noto Sans for Latin with Vietnamese, Greek, Cyrillic and Devanagari,
// Noto Sans JP for kana, kanji and symbols, Noto Color Emoji), and the text it is for adds
// the family of each other script it holds, and Noto Sans SC or TC for a Han character
// Noto Sans JP lacks (scripts.ts): glyphs a family lacks come from the next family
// instead of drawing boxes, and a script's font loads on its first use.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { AppError } from '../../errors.js'
import { type CodePoints, fontCodePoints } from './cmap.js'
import { bundledEmojiFont } from './emoji-font.js'
import { EMOJI_FAMILY, fallbackChain, FALLBACK_FAMILY, type FamilyCoverage } from './scripts.js'

export { EMOJI_FAMILY, FALLBACK_FAMILY }

export type FontStyle = 'sans' | 'serif' | 'mono' | 'rounded' | 'display' | 'handwriting' | 'cjk' | 'script' | 'emoji' | 'custom'

interface BundledFamily { name: string, pkg: string, style: FontStyle }

/** The bundled families: @expo-google-fonts/<pkg>/<weight>/<Name>_<weight>.ttf. */
export const BUNDLED_FAMILIES: readonly BundledFamily[] = [
  { name: 'Inter', pkg: 'inter', style: 'sans' },
  { name: 'Roboto', pkg: 'roboto', style: 'sans' },
  { name: 'Noto Sans', pkg: 'noto-sans', style: 'sans' },
  { name: 'Noto Serif', pkg: 'noto-serif', style: 'serif' },
  { name: 'Playfair Display', pkg: 'playfair-display', style: 'serif' },
  { name: 'Merriweather', pkg: 'merriweather', style: 'serif' },
  { name: 'Roboto Mono', pkg: 'roboto-mono', style: 'mono' },
  { name: 'Fira Code', pkg: 'fira-code', style: 'mono' },
  { name: 'Nunito', pkg: 'nunito', style: 'rounded' },
  { name: 'Comfortaa', pkg: 'comfortaa', style: 'rounded' },
  { name: 'Bebas Neue', pkg: 'bebas-neue', style: 'display' },
  { name: 'Anton', pkg: 'anton', style: 'display' },
  { name: 'Lobster', pkg: 'lobster', style: 'display' },
  { name: 'Caveat', pkg: 'caveat', style: 'handwriting' },
  { name: 'Dancing Script', pkg: 'dancing-script', style: 'handwriting' },
  { name: 'Pacifico', pkg: 'pacifico', style: 'handwriting' },
  { name: 'Noto Sans JP', pkg: 'noto-sans-jp', style: 'cjk' },
  // The scripts of Discord's client languages that Noto Sans and Noto Sans JP lack, and
  // Arabic and Hebrew (scripts.ts says which text asks for which).
  { name: 'Noto Sans KR', pkg: 'noto-sans-kr', style: 'cjk' },
  { name: 'Noto Sans SC', pkg: 'noto-sans-sc', style: 'cjk' },
  { name: 'Noto Sans TC', pkg: 'noto-sans-tc', style: 'cjk' },
  { name: 'Noto Sans Thai', pkg: 'noto-sans-thai', style: 'script' },
  { name: 'Noto Sans Arabic', pkg: 'noto-sans-arabic', style: 'script' },
  { name: 'Noto Sans Hebrew', pkg: 'noto-sans-hebrew', style: 'script' },
  { name: 'Noto Sans Devanagari', pkg: 'noto-sans-devanagari', style: 'script' }
]

/** The default of existing clients ("Sans Serif", a Windows font name) and common generic names. */
export const FONT_ALIASES: Readonly<Record<string, string>> = {
  'Sans Serif': 'Noto Sans',
  'sans-serif': 'Noto Sans',
  Serif: 'Noto Serif',
  Monospace: 'Roboto Mono'
}
export const DEFAULT_FONT = 'Sans Serif'
const WEIGHT_DIRS = ['400Regular', '700Bold', '400Regular_Italic', '700Bold_Italic']
const OPERATOR_FONT_FILE = /\.(ttf|otf|woff2?)$/i

export interface FontInfo { name: string, style: FontStyle, files: string[] }

export interface FontRegistry {
  /** Every name `font` accepts, as listed by /list/fonts. */
  names (): string[]
  /**
   * The canvas font-family list for a requested name (case-insensitive), with the fallback
   * chain for `text` (every text the list will draw, joined): the families of the scripts
   * it holds are loaded and added (scripts.ts).
   */
  family (requested: string | undefined, field?: string, text?: string): string
  info (): FontInfo[]
}

/** Loads a font file into the canvas under a family name; false when the file is not a font. */
export type FontLoader = (file: string, family: string) => boolean

export interface FontRegistryOptions {
  /** DATA_DIR/fonts. */
  operatorDir?: string
  /**
   * How the threads that draw load each file (font-loading.ts): a bundled family when a
   * picture first asks for it (family()), an operator's at once. Without it the registry
   * only lists and checks names, as the main thread does: it never draws, and the
   * canvas library and a loaded font set cost tens of megabytes.
   */
  load?: FontLoader
  /** The emoji font's file; defaults to the bundled WOFF2 (emoji-font.ts). */
  emojiFile?: string
}

export function createFontRegistry (options: FontRegistryOptions = {}): FontRegistry {
  const require = createRequire(import.meta.url)
  const register: FontLoader = options.load ?? (() => true)
  const fonts: FontInfo[] = []
  // Bundled families not loaded yet, by name. Operators' fonts load at once: registering
  // is how a file that is no font is found and skipped.
  const unloaded = new Map<string, string[]>()
  // The regular file of each bundled family, whose cmap says which characters it draws.
  const regularFiles = new Map<string, string>()
  for (const family of BUNDLED_FAMILIES) {
    const dir = path.dirname(require.resolve(`@expo-google-fonts/${family.pkg}/package.json`))
    const prefix = family.name.replace(/ /g, '')
    const files = WEIGHT_DIRS.map((w) => path.join(dir, w, `${prefix}_${w}.ttf`)).filter((f) => fs.existsSync(f))
    if (files.length === 0) throw new Error(`font package @expo-google-fonts/${family.pkg} has no regular, bold or italic file`)
    unloaded.set(family.name, files)
    regularFiles.set(family.name, files[0]!)
    fonts.push({ name: family.name, style: family.style, files })
  }
  const emojiFile = options.emojiFile ?? bundledEmojiFont().woff2
  unloaded.set(EMOJI_FAMILY, [emojiFile])
  fonts.push({ name: EMOJI_FAMILY, style: 'emoji', files: [emojiFile] })
  /** Loads a bundled family's files on its first use: a thread maps only the families it draws with. */
  const loadFamily = (name: string): void => {
    const files = unloaded.get(name)
    if (files === undefined) return
    unloaded.delete(name)
    for (const file of files) register(file, name)
  }
  /**
   * A family's code points, read from its cmap the first time a chain asks (scripts.ts
   * asks for the CJK families' only, for a text holding Han characters); undefined, and
   * kept so, when the file cannot be read. The threads that draw and the main thread,
   * which checks requests with the same code, each read what they ask for once.
   */
  const codePoints = new Map<string, CodePoints | undefined>()
  const coverage: FamilyCoverage = (name) => {
    if (!codePoints.has(name)) {
      const file = regularFiles.get(name)
      codePoints.set(name, file === undefined ? undefined : fontCodePoints(file))
    }
    return codePoints.get(name)
  }

  // DATA_DIR/fonts/<Family>[-Bold|-Italic|-BoldItalic].ttf: the family is the file
  // name without the style suffix.
  if (options.operatorDir && fs.existsSync(options.operatorDir)) {
    const byName = new Map<string, string[]>()
    for (const file of fs.readdirSync(options.operatorDir).filter((f) => OPERATOR_FONT_FILE.test(f)).sort()) {
      const name = file.replace(OPERATOR_FONT_FILE, '').replace(/[-_ ](regular|bold|italic|bolditalic|bold[-_ ]italic)$/i, '').trim()
      if (name === '') continue
      const full = path.join(options.operatorDir, file)
      if (register(full, name)) byName.set(name, [...(byName.get(name) ?? []), full])
    }
    for (const [name, files] of byName) {
      if (!fonts.some((f) => f.name.toLowerCase() === name.toLowerCase())) fonts.push({ name, style: 'custom', files })
    }
  }

  const lookup = new Map<string, string>()
  for (const f of fonts) lookup.set(f.name.toLowerCase(), f.name)
  for (const [alias, target] of Object.entries(FONT_ALIASES)) lookup.set(alias.toLowerCase(), target)
  const names = [...Object.keys(FONT_ALIASES), ...fonts.map((f) => f.name)]
  const chains = new Map<string, string>()

  return {
    names: () => [...names],
    info: () => fonts.map((f) => ({ ...f, files: [...f.files] })),
    family (requested, field = 'font', text = '') {
      const wanted = (requested ?? '').trim() || DEFAULT_FONT
      const name = lookup.get(wanted.toLowerCase())
      if (!name) throw new AppError('UNKNOWN_FONT', `Unknown font "${wanted.slice(0, 60)}" in "${field}": use a name from /list/fonts`, { details: { field } })
      const fallbacks = fallbackChain(text, coverage)
      const key = `${name}\n${fallbacks.join('\n')}`
      let chain = chains.get(key)
      if (!chain) {
        const members = [name, ...fallbacks.filter((f) => f !== name)]
        for (const member of members) loadFamily(member)
        chain = members.map((f) => `"${f}"`).join(', ')
        chains.set(key, chain)
      }
      return chain
    }
  }
}
