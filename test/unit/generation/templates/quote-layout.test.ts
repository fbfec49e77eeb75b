// The quote card's author sits just below a short quote (it sat at the foot of the card,
// 200 px below a one-line quote), and the quote with its author is centred on the card.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { createTestApp, type TestApp } from '../../../support/helpers.js'

let t: TestApp
before(async () => { t = await createTestApp() })
after(async () => { await t.close() })

/** The runs of rows holding text (light pixels right of the avatar), top and bottom. */
async function textRows (text: string): Promise<Array<[number, number]>> {
  const res = await t.app.inject({ method: 'POST', url: '/gen/quote', headers: t.auth, payload: { text, username: 'Grace Hopper' } })
  assert.equal(res.statusCode, 200, res.body)
  const { data, info } = await sharp(res.rawPayload).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const runs: Array<[number, number]> = []
  for (let y = 0; y < info.height; y++) {
    let lit = false
    for (let x = 300; x < info.width && !lit; x++) lit = data[(y * info.width + x) * 3]! > 120
    const last = runs.at(-1)
    if (lit && last !== undefined && last[1] >= y - 12) last[1] = y
    else if (lit) runs.push([y, y])
  }
  return runs
}

describe('the quote card\'s layout', () => {
  it('puts the author of a short quote just below it, the two centred on the card', async () => {
    const runs = await textRows('Ship it.')
    assert.equal(runs.length, 2, JSON.stringify(runs))
    const [quote, author] = runs as [[number, number], [number, number]]
    assert.ok(author[0] - quote[1] < 50, `${author[0] - quote[1]} px between the quote and its author`)
    assert.ok(Math.abs((quote[0] + author[1]) / 2 - 256) < 30, `the block spans ${quote[0]}..${author[1]} of 512`)
  })

  it('keeps a long quote and its author within the card', async () => {
    const runs = await textRows('The Analytical Engine weaves algebraic patterns just as the Jacquard loom weaves flowers and leaves, and more besides, for ever and ever.')
    assert.ok(runs.length >= 2)
    assert.ok(runs[0]![0] > 20 && runs.at(-1)![1] < 500, JSON.stringify(runs))
  })
})
