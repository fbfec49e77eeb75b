// Every template in every locale (issue 40): each text the card draws is recorded with
// the font list it is drawn with, and each of its characters is in the cmap of a family of
// that list (no missing glyph, read with fontkit as script-coverage.test.ts does); the
// labels of the locale are the ones drawn, and the request's own label still wins.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, it } from 'node:test'
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas'
import * as fontkit from 'fontkit'
import type { ImageSource } from '../../../../src/generation/assets/image-source.js'
import type { Drawable } from '../../../../src/generation/drawable.js'
import { formatDate, formatNumber, label, type Locale, LOCALES } from '../../../../src/generation/locale/locale.js'
import { TEMPLATES, type TemplateFields } from '../../../../src/generation/template-registry.js'
import { createDrawingFonts } from '../../../../src/generation/text/font-loading.js'

const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-template-locale-'))
after(() => fs.rmSync(temp, { recursive: true, force: true }))

const fonts = createDrawingFonts({ dataDir: temp })
const opened = new Map<string, fontkit.Font>()
function fontOf (family: string): fontkit.Font {
  let font = opened.get(family)
  if (font === undefined) {
    const file = fonts.info().find((f) => f.name === family)?.files[0]
    assert.ok(file, `no file for ${family}`)
    opened.set(family, font = fontkit.openSync(file) as fontkit.Font)
  }
  return font
}

const noImages: ImageSource = {
  url: async () => { throw new Error('no image in this test') },
  assetOrUrl: async () => { throw new Error('no image in this test') },
  image: async () => { throw new Error('no image in this test') },
  emoji: async () => undefined
}

interface Drawn { text: string, font: string }

/** Draws a template and records every text drawn with the font it was drawn with. */
async function draw (template: string, fields: TemplateFields): Promise<Drawn[]> {
  const t = TEMPLATES.find((x) => x.name === template)!
  const prepared = await t.prepare({ fonts, images: noImages }, fields)
  const drawn: Drawn[] = []
  prepared((width, height) => {
    const canvas = createCanvas(width, height)
    const ctx = canvas.getContext('2d')
    const record = (text: string): void => { drawn.push({ text, font: ctx.font }) }
    const fill = ctx.fillText.bind(ctx)
    const stroke = ctx.strokeText.bind(ctx)
    ;(ctx as SKRSContext2D).fillText = (text: string, x: number, y: number, max?: number) => { record(text); fill(text, x, y, max) }
    ;(ctx as SKRSContext2D).strokeText = (text: string, x: number, y: number, max?: number) => { record(text); stroke(text, x, y, max) }
    return canvas
  }, (image) => image as Drawable)
  return drawn
}

/** The characters of the drawn texts no family of their font list has. */
function missingGlyphs (drawn: Drawn[]): string[] {
  const missing: string[] = []
  for (const { text, font } of drawn) {
    const families = [...font.matchAll(/"([^"]+)"/g)].map((m) => fontOf(m[1]!))
    assert.ok(families.length > 0, font)
    for (const ch of text) {
      if (/\p{Default_Ignorable_Code_Point}|\s/u.test(ch)) continue
      if (!families.some((f) => f.hasGlyphForCodePoint(ch.codePointAt(0)!))) missing.push(`U+${ch.codePointAt(0)!.toString(16)} ${ch} in "${text}"`)
    }
  }
  return missing
}

const FIELDS: Record<string, TemplateFields> = {
  welcome: { member_count: '1234' },
  goodbye: { member_count: '56789' },
  rank: { level: '12', rank: '3', xp: '8420', max_xp: '12000', status: 'online' },
  quote: { text: 'Ship it.' },
  // Two pages: the page count is drawn.
  leaderboard: { players: JSON.stringify(Array.from({ length: 11 }, (_, i) => ({ username: `p${i}`, level: 12, xp: 8420 }))) },
  profile: { username: 'ada', member_since: '2021-03-14', level: '12', rank: '3', xp: '8420', max_xp: '12000' },
  nowplaying: { title: 'Clair de lune', artist: 'Debussy', elapsed: '95', duration: '302', next: 'Arabesque', queue: '4' }
}

/** The labels each template draws, as the locale writes them with FIELDS. */
function expectedLabels (template: string, locale: Locale): string[] {
  const someone = label(locale, 'card.someone')
  switch (template) {
    case 'welcome': case 'goodbye': return [label(locale, `${template}.title`), someone]
    case 'rank': return [label(locale, 'rank.level', { level: 12 }), label(locale, 'rank.rank', { rank: 3 }), someone]
    case 'profile': return [label(locale, 'profile.member_since', { date: formatDate(locale, new Date(Date.UTC(2021, 2, 14))) }), `${label(locale, 'profile.level')} ${formatNumber(locale, 12)}`, `${label(locale, 'profile.rank')} #${formatNumber(locale, 3)}`]
    case 'nowplaying': return [label(locale, 'nowplaying.up_next', { title: 'Arabesque' }) + ' · ' + label(locale, 'nowplaying.queue', { count: formatNumber(locale, 4) })]
    case 'leaderboard': return [label(locale, 'leaderboard.title'), label(locale, 'leaderboard.page', { page: formatNumber(locale, 1), pages: formatNumber(locale, 2) })]
    default: return [label(locale, 'quote.author', { name: someone })]
  }
}

describe('every template in every locale', () => {
  it('lists a locale field on every template', () => {
    for (const t of TEMPLATES) assert.ok(t.fields.locale, t.name)
  })

  for (const t of TEMPLATES) {
    it(`${t.name}: draws the locale's labels, with a font that has every character`, async () => {
      const missing: string[] = []
      for (const locale of LOCALES) {
        const drawn = await draw(t.name, { ...FIELDS[t.name], locale })
        const texts = drawn.map((d) => d.text)
        for (const expected of expectedLabels(t.name, locale)) assert.ok(texts.includes(expected), `${t.name} ${locale}: "${expected}" not drawn; drawn: ${JSON.stringify(texts)}`)
        missing.push(...missingGlyphs(drawn).map((m) => `${locale}: ${m}`))
      }
      assert.deepEqual(missing, [])
    })
  }

  it('draws the members line of member_count in the locale, and the request\'s own labels as given', async () => {
    assert.ok((await draw('welcome', { member_count: '42', locale: 'fr' })).some((d) => d.text === 'Membre n°\u00a042'))
    assert.ok((await draw('welcome', { member_count: '12345', locale: 'ja' })).some((d) => d.text === '12,345 人目のメンバー'))
    const own = (await draw('welcome', { member_count: '42', members: 'Member #42', text: 'HELLO', locale: 'ja' })).map((d) => d.text)
    assert.ok(own.includes('HELLO') && own.includes('Member #42') && !own.includes('ようこそ'), JSON.stringify(own))
  })

  it('writes the rank card\'s numbers in the locale, in one unit', async () => {
    const texts = async (locale: string): Promise<string[]> => (await draw('rank', { ...FIELDS.rank, locale })).map((d) => d.text)
    assert.ok((await texts('en-US')).includes('8.4K / 12K XP'))
    assert.ok((await texts('fr')).includes('8,4\u00a0k / 12\u00a0k XP'))
    assert.ok((await texts('ja')).includes('0.8万 / 1.2万 経験値'))
    assert.ok((await texts('pt-BR')).includes('8,4\u00a0mil / 12\u00a0mil XP'))
  })
})
