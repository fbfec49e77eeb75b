// Catalogue, parsing and random-colour rules that the routes build on.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import cssColors from 'color-name'
import { boundedEditDistance, displayCssName, normaliseName } from '../../../src/colors/catalog.js'
import { complementOf } from '../../../src/colors/convert.js'
import { fnv1a32, mulberry32, randomColor } from '../../../src/colors/random.js'

describe('colour catalogue helpers', () => {
  it('splits every CSS keyword into words for display', () => {
    for (const keyword of Object.keys(cssColors)) {
      const shown = displayCssName(keyword)
      assert.ok(shown, keyword)
      assert.equal(normaliseName(shown), keyword)
    }
    assert.equal(displayCssName('lightgoldenrodyellow'), 'Light Goldenrod Yellow')
  })

  it('normalises case, spaces, hyphens, underscores and accents', () => {
    assert.equal(normaliseName('Dark Slate-Grey_x'), 'darkslategreyx')
    assert.equal(normaliseName('Âbi Blue'), 'abiblue')
  })

  it('computes bounded edit distances', () => {
    assert.equal(boundedEditDistance('kitten', 'sitting', 5), 3)
    assert.equal(boundedEditDistance('kitten', 'sitting', 2), 3)
    assert.equal(boundedEditDistance('abc', 'abc', 0), 0)
  })

  it('complements by turning the hue 180° at the same saturation and lightness', () => {
    assert.deepEqual(complementOf({ r: 255, g: 0, b: 0 }), { r: 0, g: 255, b: 255 })
    assert.deepEqual(complementOf({ r: 47, g: 79, b: 79 }), { r: 79, g: 47, b: 47 })
    assert.deepEqual(complementOf({ r: 128, g: 128, b: 128 }), { r: 128, g: 128, b: 128 })
  })
})

describe('random colours', () => {
  it('implements FNV-1a and mulberry32 as published', () => {
    // FNV-1a 32 test vectors (Fowler/Noll/Vo reference): "" and "a".
    assert.equal(fnv1a32(''), 0x811c9dc5)
    assert.equal(fnv1a32('a'), 0xe40c292c)
    assert.equal(randomColor('x').r, mulberry32(fnv1a32('x')) >>> 24)
  })

  it('spreads seeded colours over the whole cube', () => {
    const seen = { r: new Set<number>(), g: new Set<number>(), b: new Set<number>() }
    for (let i = 0; i < 4000; i++) {
      const c = randomColor(`seed-${i}`)
      seen.r.add(c.r >> 4); seen.g.add(c.g >> 4); seen.b.add(c.b >> 4)
    }
    // Every sixteenth of every channel's range is hit.
    assert.deepEqual([seen.r.size, seen.g.size, seen.b.size], [16, 16, 16])
  })
})

describe('the colour name list read from its CSV', () => {
  it('holds the same names and values as the package\'s module (regression: importing the module kept ~40 MB)', async () => {
    const { colorNameListEntries } = await import('../../../src/colors/catalog.js')
    const { colornames } = await import('color-name-list')
    assert.deepEqual([...colorNameListEntries()], colornames.map(({ name, hex }) => ({ name, hex })))
  })
})
