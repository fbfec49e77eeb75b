// The locale of a request (Discord's spellings and their variants, a 400 for any other),
// its direction, and numbers and dates written as the locale writes them.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isAppError } from '../../../../src/errors.js'
import { direction, formatDate, formatNumber, formatNumberLike, label, localeOf, LOCALES } from '../../../../src/generation/locale/locale.js'

describe('localeOf', () => {
  it('reads every locale as Discord spells it, in any case and with _ for -', () => {
    for (const locale of LOCALES) {
      assert.equal(localeOf(locale), locale)
      assert.equal(localeOf(locale.toUpperCase()), locale)
      assert.equal(localeOf(locale.toLowerCase().replace('-', '_')), locale)
    }
  })

  it('is en-US when absent or empty', () => {
    assert.equal(localeOf(undefined), 'en-US')
    assert.equal(localeOf('  '), 'en-US')
  })

  it('maps the common variants of the documented table', () => {
    const cases: Array<[string, string]> = [
      ['en', 'en-US'], ['en-uk', 'en-GB'], ['es', 'es-ES'], ['es-MX', 'es-419'], ['es-AR', 'es-419'], ['pt', 'pt-BR'], ['pt-br', 'pt-BR'], ['pt-PT', 'pt-BR'],
      ['sv', 'sv-SE'], ['zh', 'zh-CN'], ['zh-Hans', 'zh-CN'], ['zh-Hant', 'zh-TW'], ['zh-HK', 'zh-TW'], ['zh-Hant-HK', 'zh-TW'], ['nb', 'no'], ['nn', 'no'],
      ['nb-NO', 'no'], ['fr-CA', 'fr'], ['ja-JP', 'ja'], ['ko_KR', 'ko'], ['ar-EG', 'ar'], ['de-AT', 'de'], ['en-AU', 'en-US'], ['in', 'id']
    ]
    for (const [spelling, locale] of cases) assert.equal(localeOf(spelling), locale, spelling)
  })

  it('answers any other value with UNKNOWN_LOCALE naming the field and listing the locales', () => {
    for (const value of ['xx', 'klingon', 'fr-', 'e', 'he', 'english', 'no-such-value', 'de-latin-x']) {
      assert.throws(() => localeOf(value, 'locale'), (err: unknown) => {
        assert.ok(isAppError(err) && err.code === 'UNKNOWN_LOCALE', String(err))
        assert.match(err.message, /"locale"/)
        for (const locale of ['en-US', 'fr', 'ja', 'pt-BR', 'zh-TW', 'ar']) assert.ok(err.message.includes(locale), err.message)
        return true
      }, value)
    }
  })
})

describe('direction', () => {
  it('is right to left for Arabic alone', () => {
    assert.deepEqual(LOCALES.filter((l) => direction(l) === 'rtl'), ['ar'])
  })
})

describe('label', () => {
  it('fills placeholders, numbers in the locale', () => {
    assert.equal(label('en-US', 'leaderboard.page', { page: 2, pages: 5 }), 'Page 2 of 5')
    assert.equal(label('fr', 'profile.to_next', { xp: 12345, level: 8 }), '12\u202f345 XP avant le niveau 8')
    assert.equal(label('ja', 'rank.level', { level: '3' }), 'レベル 3')
    assert.equal(label('de', 'nowplaying.up_next', {}), 'Als Nächstes: {title}')
  })
})

describe('formatNumber', () => {
  it('abbreviates as each locale does (1.2K, 1,2 k, 1.2万)', () => {
    assert.equal(formatNumber('en-US', 1234, { abbreviate: true }), '1.2K')
    assert.equal(formatNumber('en-US', 12_345, { abbreviate: true }), '12.3K')
    assert.equal(formatNumber('en-US', 1_500_000, { abbreviate: true }), '1.5M')
    assert.equal(formatNumber('en-US', 999, { abbreviate: true }), '999')
    assert.equal(formatNumber('fr', 1234, { abbreviate: true }), '1,2\u00a0k')
    assert.equal(formatNumber('de', 12_345, { abbreviate: true }), '12.345')
    assert.equal(formatNumber('ja', 12_345, { abbreviate: true }), '1.2万')
    assert.equal(formatNumber('ja', 1234, { abbreviate: true }), '1234')
    assert.equal(formatNumber('zh-CN', 12_345, { abbreviate: true }), '1.2万')
    assert.equal(formatNumber('ko', 12_345, { abbreviate: true }), '1.2만')
    assert.equal(formatNumber('pt-BR', 12_345, { abbreviate: true }), '12,3\u00a0mil')
  })

  it('writes whole numbers with the locale\'s grouping from five digits', () => {
    assert.equal(formatNumber('en-US', 8420), '8420')
    assert.equal(formatNumber('en-US', 12_345.6), '12,346')
    assert.equal(formatNumber('de', 12_345), '12.345')
    assert.equal(formatNumber('hi', 1_234_567), '12,34,567')
    assert.equal(formatNumber('ar', 12_345), '12,345')
  })
})

describe('formatDate', () => {
  it('writes the day in UTC as the locale does', () => {
    const date = new Date(Date.UTC(2024, 0, 5, 23, 30))
    assert.equal(formatDate('en-US', date), 'Jan 5, 2024')
    assert.equal(formatDate('en-GB', date), '5 Jan 2024')
    assert.equal(formatDate('fr', date), '5 janv. 2024')
    assert.equal(formatDate('ja', date), '2024/01/05')
    assert.equal(formatDate('no', date), '5. jan. 2024')
  })
})

describe('formatNumberLike', () => {
  it('writes a number in the unit of another, as each locale abbreviates', () => {
    assert.equal(formatNumberLike('en-US', 8420, 12_000), '8.4K')
    assert.equal(formatNumberLike('en-US', 940_000, 1_200_000), '0.9M')
    assert.equal(formatNumberLike('en-US', 12_000, 12_000), '12K')
    assert.equal(formatNumberLike('fr', 8420, 12_000), '8,4\u00a0k')
    assert.equal(formatNumberLike('ja', 8420, 12_000), '0.8万')
    assert.equal(formatNumberLike('ar', 8420, 12_000), formatNumber('ar', 12_000, { abbreviate: true }).replace('12', '8.4'))
    assert.equal(formatNumberLike('en-US', -8420, 12_000), '-8.4K')
    // German writes thousands in full: both are.
    assert.equal(formatNumberLike('de', 8420, 12_000), '8420')
  })
})
