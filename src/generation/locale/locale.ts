// The languages the templates draw their fixed labels in: the locales of Discord's client
// (the `locale` of an interaction, as Discord spells it: discord.com/developers/docs/reference#locales)
// and Arabic, one file of labels each (labels/), English the fallback. A template asks
// for its labels here, and writes its numbers and dates with Intl in the same language
// (Node ships full ICU: the same text on Nodes 20, 24 and 26, test/unit/generation/locale/).
import { AppError } from '../../errors.js'
import { labels as ar } from './labels/ar.js'
import { labels as bg } from './labels/bg.js'
import { labels as cs } from './labels/cs.js'
import { labels as da } from './labels/da.js'
import { labels as de } from './labels/de.js'
import { labels as el } from './labels/el.js'
import { labels as enGB } from './labels/en-GB.js'
import { type LabelKey, type Labels, labels as enUS } from './labels/en-US.js'
import { labels as es419 } from './labels/es-419.js'
import { labels as esES } from './labels/es-ES.js'
import { labels as fi } from './labels/fi.js'
import { labels as fr } from './labels/fr.js'
import { labels as hi } from './labels/hi.js'
import { labels as hr } from './labels/hr.js'
import { labels as hu } from './labels/hu.js'
import { labels as id } from './labels/id.js'
import { labels as it } from './labels/it.js'
import { labels as ja } from './labels/ja.js'
import { labels as ko } from './labels/ko.js'
import { labels as lt } from './labels/lt.js'
import { labels as nl } from './labels/nl.js'
import { labels as no } from './labels/no.js'
import { labels as pl } from './labels/pl.js'
import { labels as ptBR } from './labels/pt-BR.js'
import { labels as ro } from './labels/ro.js'
import { labels as ru } from './labels/ru.js'
import { labels as svSE } from './labels/sv-SE.js'
import { labels as th } from './labels/th.js'
import { labels as tr } from './labels/tr.js'
import { labels as uk } from './labels/uk.js'
import { labels as vi } from './labels/vi.js'
import { labels as zhCN } from './labels/zh-CN.js'
import { labels as zhTW } from './labels/zh-TW.js'

export type { LabelKey, Labels }

/** Every locale's labels, in the order of Discord's list, Arabic last. */
const CATALOGUE = {
  id,
  da,
  de,
  'en-GB': enGB,
  'en-US': enUS,
  'es-ES': esES,
  'es-419': es419,
  fr,
  hr,
  it,
  lt,
  hu,
  nl,
  no,
  pl,
  'pt-BR': ptBR,
  ro,
  fi,
  'sv-SE': svSE,
  vi,
  tr,
  cs,
  el,
  bg,
  ru,
  uk,
  hi,
  th,
  'zh-CN': zhCN,
  ja,
  'zh-TW': zhTW,
  ko,
  ar
} as const satisfies Record<string, Labels>

export type Locale = keyof typeof CATALOGUE
/** The locale of a picture whose request names none. */
export const DEFAULT_LOCALE: Locale = 'en-US'
export const LOCALES = Object.keys(CATALOGUE) as Locale[]
/** The languages written right to left. */
const RIGHT_TO_LEFT: ReadonlySet<Locale> = new Set(['ar'])

/**
 * Other spellings of a locale, lower-cased, with `_` read as `-`: a language alone goes to
 * the locale Discord gives it (en → en-US, es → es-ES, pt → pt-BR, sv → sv-SE, zh → zh-CN),
 * Norwegian's two written forms to Discord's `no`, Chinese by script and by region, and
 * Spanish of the Americas to es-419. Besides these, any tag with a region (fr-CA, ja-JP,
 * ar-EG) goes to the locale of its language when the language has only one (localeOf).
 */
const ALIASES: Readonly<Record<string, Locale>> = {
  en: 'en-US',
  'en-uk': 'en-GB',
  es: 'es-ES',
  pt: 'pt-BR',
  sv: 'sv-SE',
  zh: 'zh-CN',
  'zh-hans': 'zh-CN',
  'zh-sg': 'zh-CN',
  'zh-hant': 'zh-TW',
  'zh-hk': 'zh-TW',
  'zh-mo': 'zh-TW',
  nb: 'no',
  nn: 'no',
  'no-no': 'no',
  'nb-no': 'no',
  'nn-no': 'no',
  'es-mx': 'es-419',
  'es-us': 'es-419',
  'es-ar': 'es-419',
  'es-co': 'es-419',
  'es-cl': 'es-419',
  'es-pe': 'es-419',
  'es-ve': 'es-419',
  // Indonesian's former ISO 639 code, still sent by Java's Locale.
  in: 'id'
}

const BY_LOWER = new Map<string, Locale>(LOCALES.map((l) => [l.toLowerCase(), l]))
/** The languages with a single locale: their tags with any region or script map to it. */
const BY_LANGUAGE = new Map<string, Locale>()
for (const locale of LOCALES) {
  const language = locale.split('-')[0]!
  if (LOCALES.filter((l) => l.split('-')[0] === language).length === 1) BY_LANGUAGE.set(language, locale)
}

/** The Intl tag a locale formats numbers and dates with, where it differs (Discord's `no` is Bokmål). */
const INTL_TAGS: Partial<Record<Locale, string>> = { no: 'nb' }

/** A BCP 47 tag of a language with a script, a region or both (fr-CA, zh-Hant, zh-Hant-HK, es-419). */
const LANGUAGE_TAG = /^[a-z]{2,3}(-[a-z]{4})?(-([a-z]{2}|\d{3}))?$/

/** The locale a spelling names, or undefined (an empty or absent value is the default). */
export function findLocale (value: string): Locale | undefined {
  const key = value.trim().toLowerCase().replace(/_/g, '-')
  const found = BY_LOWER.get(key) ?? ALIASES[key]
  if (found !== undefined) return found
  if (!LANGUAGE_TAG.test(key)) return undefined
  const [language, ...rest] = key.split('-')
  if (rest.length === 0 || language === undefined) return undefined
  return ALIASES[language] === undefined ? BY_LANGUAGE.get(language) : ALIASES[`${language}-${rest.at(-1)}`] ?? ALIASES[language]
}

/**
 * The locale of a request's `field` (default `locale`): Discord's spellings, any case,
 * `_` for `-`, and the variants of ALIASES; absent or empty, en-US. Any other value is a
 * 400 naming the field and listing the locales.
 */
export function localeOf (value: string | undefined, field = 'locale'): Locale {
  if (value === undefined || value.trim() === '') return DEFAULT_LOCALE
  const locale = findLocale(value)
  if (locale !== undefined) return locale
  throw new AppError('UNKNOWN_LOCALE', `Unknown locale "${value.slice(0, 40)}" in "${field}": use one of ${LOCALES.join(', ')} (Discord's spellings; en, es, pt, sv, zh and regional tags such as fr-CA are read too)`, { details: { field, valid: LOCALES } })
}

/** `ltr`, or `rtl` for a language written right to left. */
export function direction (locale: Locale): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.has(locale) ? 'rtl' : 'ltr'
}

/** The BCP 47 tag Intl formats this locale's numbers and dates with. */
export function intlTag (locale: Locale): string {
  return INTL_TAGS[locale] ?? locale
}

const PLACEHOLDER = /\{([a-z_]+)\}/g

/**
 * A label in `locale` (English when the locale's file lacks it), its `{placeholders}`
 * filled from `vars`: strings as they are, numbers written in the locale (formatNumber).
 * A placeholder without a value stays as it is written.
 */
export function label (locale: Locale, key: LabelKey, vars: Readonly<Record<string, string | number>> = {}): string {
  const text: string = (CATALOGUE[locale] as Labels)[key] ?? enUS[key]
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = vars[name]
    return value === undefined ? whole : typeof value === 'number' ? formatNumber(locale, value) : value
  })
}

/** Every label of a locale (the tests read them all). */
export function labelsOf (locale: Locale): Labels {
  return CATALOGUE[locale]
}

const numberFormats = new Map<string, Intl.NumberFormat>()
/** ES2023's `useGrouping: 'min2'` (V8 has it from Node 20), which the TypeScript lib in use does not type yet. */
const MIN2 = 'min2' as unknown as boolean

/**
 * Intl's formats are costly to build (tens of microseconds) and hold no state: one per
 * locale and style for the thread's life (33 locales × 2 styles at most).
 */
function numberFormat (locale: Locale, style: 'whole' | 'compact' | 'tenths'): Intl.NumberFormat {
  const key = `${locale}\n${style}`
  let format = numberFormats.get(key)
  if (format === undefined) {
    // Grouping from five digits (min2): 8420 reads as it did before locales, 12,345 grouped.
    format = style === 'compact'
      ? new Intl.NumberFormat(intlTag(locale), { notation: 'compact', maximumFractionDigits: 1 })
      : new Intl.NumberFormat(intlTag(locale), { maximumFractionDigits: style === 'whole' ? 0 : 1, useGrouping: MIN2 })
    numberFormats.set(key, format)
  }
  return format
}

/**
 * A number as the locale writes it, rounded to a whole number; with `abbreviate`, in the
 * locale's compact form with at most one decimal, from where the locale starts it (1.2K
 * and 12.3K in English, 1,2 k in French, 1234 and 1.2万 in Japanese, 12.3 ألف in Arabic).
 */
export function formatNumber (locale: Locale, n: number, options: { abbreviate?: boolean } = {}): string {
  return numberFormat(locale, options.abbreviate === true ? 'compact' : 'whole').format(n)
}

const NUMBER_PARTS: ReadonlySet<string> = new Set(['integer', 'group', 'decimal', 'fraction'])

/**
 * `n` abbreviated in the unit `like` is abbreviated in, so that two numbers side by side
 * read in one unit: 8420 beside 12,000 is 8.4K / 12K (8.4 k / 12 k, 0.8万 / 1.2万), not
 * 8420 / 12K. When the locale writes `like` in full, `n` is written in full too.
 */
export function formatNumberLike (locale: Locale, n: number, like: number): string {
  const parts = numberFormat(locale, 'compact').formatToParts(like)
  if (!parts.some((p) => p.type === 'compact')) return formatNumber(locale, n)
  // The shown value of `like` (Intl writes these locales' compact numbers in Latin digits) gives the unit's size.
  const shown = Number(parts.filter((p) => NUMBER_PARTS.has(p.type) && p.type !== 'group').map((p) => p.type === 'decimal' ? '.' : p.value).join(''))
  if (!Number.isFinite(shown) || shown === 0) return formatNumber(locale, n, { abbreviate: true })
  const unit = 10 ** Math.round(Math.log10(Math.abs(like / shown)))
  const value = numberFormat(locale, 'tenths').format(n / unit)
  let placed = false
  return parts.map((p) => {
    if (!NUMBER_PARTS.has(p.type)) return p.type === 'minusSign' ? '' : p.value
    if (placed) return ''
    placed = true
    return value
  }).join('')
}

const dateFormats = new Map<Locale, Intl.DateTimeFormat>()

/** A date (its day in UTC) as the locale writes it in medium length: Jan 5, 2024; 5 janv. 2024; 2024/01/05. */
export function formatDate (locale: Locale, date: Date): string {
  let format = dateFormats.get(locale)
  if (format === undefined) {
    format = new Intl.DateTimeFormat(intlTag(locale), { dateStyle: 'medium', timeZone: 'UTC' })
    dateFormats.set(locale, format)
  }
  return format.format(date)
}
