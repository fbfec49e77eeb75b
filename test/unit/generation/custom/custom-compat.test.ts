// /gen/custom as the hosted service's C# client fills it (docs/compatibility.md, "The C#
// client's custom images"): the opacity scale and the zeros that mean "not set".
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { opacityOf, withoutUnsetValues } from '../../../../src/generation/custom/custom-checks.js'

describe('opacity (docs/generation.md, "Opacity")', () => {
  it('is on the hosted 0..10 scale: the C# client\'s default 10 is opaque (it drew at 10 %)', () => {
    assert.equal(opacityOf(10), 1)
    assert.equal(opacityOf(5), 0.5)
    assert.equal(opacityOf(1), 0.1)
    assert.equal(opacityOf(0), 0)
    assert.equal(opacityOf(undefined), 1)
  })

  it('reads a fraction below 1 on the 0..1 scale, and clamps the rest', () => {
    assert.equal(opacityOf(0.4), 0.4)
    assert.equal(opacityOf(50), 1)
    assert.equal(opacityOf(-3), 0)
  })
})

describe('zeros the C# client sends for fields the user did not set', () => {
  it('drops sizes, dates and the wrap width of 0, and keeps the rest', () => {
    const body = withoutUnsetValues({
      base: { width: 0, height: 200 },
      images: [{ size: 0, width: 0, height: 40, radius: 0, maxwidth: 0, maxheight: 0, x: 0, round: 0, opacity: 10 }],
      texts: [{ text: 'a', unix: 0, snowflake: '0', width: 0, x: 0 }, { text: 'b', unix: 5, snowflake: '175928847299117063', width: 100 }]
    })
    assert.deepEqual(body.base, { height: 200 })
    assert.deepEqual(body.images, [{ height: 40, x: 0, round: 0, opacity: 10 }])
    assert.deepEqual(body.texts, [{ text: 'a', x: 0 }, { text: 'b', unix: 5, snowflake: '175928847299117063', width: 100 }])
  })
})
