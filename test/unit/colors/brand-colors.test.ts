// Brand colours (src/colors/brand-colors.ts) through GET /color/info: an exact value
// answers the brand's name, CSS keywords keep their values, no name of the long list is
// shadowed, and the nearest-name rule is unchanged around them. Issue 26, item 4.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { BRAND_PALETTES } from '../../../src/colors/brand-colors.js'
import { createTestApp, json, type TestApp } from '../../support/helpers.js'

let t: TestApp
before(async () => { t = await createTestApp() })
after(() => t.close())

async function info (query: string): Promise<{ status: number, body: any }> {
  const res = await t.app.inject({ method: 'GET', url: `/color/info?${query}`, headers: t.auth })
  return { status: res.statusCode, body: json(res) }
}

const DISCORD: Array<[string, string]> = [
  ['5865f2', 'Discord Blurple'], ['57f287', 'Discord Green'], ['fee75c', 'Discord Yellow'],
  ['eb459e', 'Discord Fuchsia'], ['ed4245', 'Discord Red'], ['7289da', 'Discord Old Blurple'],
  ['99aab5', 'Discord Greyple'], ['2c2f33', 'Discord Dark But Not Black'], ['23272a', 'Discord Not Quite Black']
]

describe('brand colours', () => {
  it('are recorded with their source, as lowercase #rrggbb under names carrying the brand', () => {
    const palettes = BRAND_PALETTES.filter((p) => p.brand === 'Discord')
    assert.equal(palettes.length, 2)
    for (const palette of BRAND_PALETTES) {
      assert.match(palette.source, /https:\/\/\S+/)
      for (const { name, hex } of palette.colors) {
        assert.match(hex, /^#[0-9a-f]{6}$/, name)
        assert.ok(name.startsWith(`${palette.brand} `), name)
      }
    }
    const listed = new Map(palettes.flatMap((p) => p.colors.map((c) => [c.hex, c.name] as const)))
    for (const [hex, name] of DISCORD) assert.equal(listed.get(`#${hex}`), name)
    assert.equal(listed.get('#ffffff'), 'Discord White')
    assert.equal(listed.get('#000000'), 'Discord Black')
  })

  for (const [hex, name] of DISCORD) {
    it(`answers hex=${hex} with "${name}", exactly`, async () => {
      const { status, body } = await info(`hex=${hex}`)
      assert.equal(status, 200)
      assert.deepEqual([body.success, body.hex, body.name, body.exactName, body.nameDistance, body.nameHex], [true, `#${hex}`, name, true, 0, `#${hex}`])
    })
  }

  it('leaves a CSS keyword its exact value: Discord\'s white and black are White and Black', async () => {
    assert.equal((await info('hex=FFFFFF')).body.name, 'White')
    assert.equal((await info('hex=000000')).body.name, 'Black')
  })

  it('finds each brand colour by its name, in any spelling', async () => {
    const spellings: Array<[string, string]> = [['Discord Blurple', '#5865f2'], ['discord-old-blurple', '#7289da'], ['DISCORD_GREYPLE', '#99aab5'], ['discord white', '#ffffff']]
    for (const [query, hex] of spellings) {
      const { status, body } = await info(`name=${encodeURIComponent(query)}`)
      assert.equal(status, 200, query)
      assert.equal(body.hex, hex, query)
    }
  })

  it('shadows no name of the long list: Blurple is still its #5539cc', async () => {
    const { body } = await info('name=blurple')
    assert.deepEqual([body.name, body.hex], ['Blurple', '#5539cc'])
  })

  it('names values near a brand colour by the nearest entry, as for any value', async () => {
    const { body } = await info('hex=5865f3')
    assert.deepEqual([body.name, body.exactName, body.nameHex], ['Discord Blurple', false, '#5865f2'])
    assert.ok(body.nameDistance > 0 && body.nameDistance < 1, String(body.nameDistance))
  })
})
