// /color/info and /color/random over HTTP: every accepted input form, every refusal.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../support/helpers.js'

let t: TestApp
before(async () => { t = await createTestApp() })
after(() => t.close())

async function get (url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: t.auth })
  assert.match(String(res.headers['content-type']), /^application\/json/)
  return { status: res.statusCode, body: json(res) }
}

async function expectError (url: string, status: number, error: string, parameter?: string) {
  const { status: s, body } = await get(url)
  assert.equal(s, status, `${url}: ${JSON.stringify(body)}`)
  assert.equal(body.success, false)
  assert.equal(body.code, status)
  assert.equal(body.error, error)
  assert.equal(typeof body.requestId, 'string')
  if (parameter) {
    assert.equal(body.parameter, parameter)
    assert.match(body.message, new RegExp(`"${parameter}"|${parameter}=`))
  }
  return body
}

describe('GET /color/info', () => {
  it('answers the envelope, the fields clients read, and the designer\'s facts for hex=00ff00', async () => {
    const { status, body } = await get('/color/info?hex=00ff00')
    assert.equal(status, 200)
    assert.deepEqual(body, {
      success: true,
      code: 200,
      message: '',
      r: 0,
      g: 255,
      b: 0,
      hex: '#00ff00',
      name: 'Lime',
      exactName: true,
      nameDistance: 0,
      nameHex: '#00ff00',
      alpha: 1,
      rgb: 'rgb(0, 255, 0)',
      hsl: { h: 120, s: 100, l: 50 },
      hsv: { h: 120, s: 100, v: 100 },
      cmyk: { c: 100, m: 0, y: 100, k: 0 },
      lab: { l: 87.74, a: -86.18, b: 83.19 },
      luminance: 0.7152,
      text: { color: 'black', hex: '#000000', contrastWithBlack: 15.3, contrastWithWhite: 1.37 },
      complementary: { r: 255, g: 0, b: 255, hex: '#ff00ff', name: 'Fuchsia' }
    })
  })

  for (const hex of ['00ff00', '00FF00', '%2300ff00', '%2300FF00', '0f0', '%230F0', '00ff00ff', '0f0f']) {
    it(`reads hex=${hex} as lime`, async () => {
      const { status, body } = await get(`/color/info?hex=${hex}`)
      assert.equal(status, 200)
      assert.deepEqual([body.r, body.g, body.b, body.hex, body.name, body.alpha], [0, 255, 0, '#00ff00', 'Lime', 1])
    })
  }

  it('reports the alpha of an 8-digit hex and describes the opaque colour', async () => {
    const { body } = await get('/color/info?hex=ff000080')
    assert.deepEqual([body.hex, body.name, body.alpha], ['#ff0000', 'Red', 0.502])
  })

  for (const rgb of ['47,79,79', '47, 79, 79', '47%2C%2079%2C%2079', 'rgb(47,79,79)', 'rgb(47,%2079,%2079)', 'RGB(%2047 , 79 , 79 )', '+47,79,79+']) {
    it(`reads rgb=${rgb}`, async () => {
      const { status, body } = await get(`/color/info?rgb=${rgb}`)
      assert.equal(status, 200)
      assert.deepEqual([body.r, body.g, body.b, body.hex, body.exactName], [47, 79, 79, '#2f4f4f', true])
      assert.match(body.name, /^Dark Slate Gr[ae]y$/)
    })
  }

  for (const name of ['Dark Slate Gray', 'darkslategray', 'dark-slate-grey', 'DARK_SLATE_GRAY', 'dark%20slate%20gray', '  darkSlateGray ']) {
    it(`finds name=${name}`, async () => {
      const { status, body } = await get(`/color/info?name=${encodeURIComponent(name).replace(/%25/g, '%')}`)
      assert.equal(status, 200)
      assert.deepEqual([body.r, body.g, body.b, body.hex, body.exactName, body.nameDistance], [47, 79, 79, '#2f4f4f', true, 0])
      assert.match(body.name, /^Dark Slate Gr[ae]y$/)
    })
  }

  it('finds names of the long list, ignoring accents', async () => {
    const { body } = await get(`/color/info?name=${encodeURIComponent('a l’orange')}`)
    assert.deepEqual([body.name, body.hex], ['À l’Orange', '#f2850d'])
  })

  it('names a value by its nearest colour and says how far it is', async () => {
    const { body } = await get('/color/info?hex=2f4f50')
    assert.equal(body.exactName, false)
    assert.ok(body.nameDistance > 0 && body.nameDistance < 2, String(body.nameDistance))
    assert.notEqual(body.nameHex, '#2f4f50')
    assert.equal(body.hex, '#2f4f50')
  })

  it('prefers the CSS keyword on an exact match', async () => {
    for (const [hex, name] of [['ff0000', 'Red'], ['663399', 'Rebecca Purple'], ['ffffff', 'White'], ['000000', 'Black']]) {
      const { body } = await get(`/color/info?hex=${hex}`)
      assert.equal(body.name, name)
    }
  })

  it('picks white text on dark colours with both contrast ratios', async () => {
    const { body } = await get('/color/info?hex=000080')
    assert.equal(body.text.color, 'white')
    assert.ok(body.text.contrastWithWhite > body.text.contrastWithBlack)
  })

  it('answers 400 COLOR_HEX_EMPTY explaining the unencoded # for hex=#00ff00', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/color/info?hex=#00ff00', headers: t.auth })
    assert.equal(res.statusCode, 400)
    const body = json(res)
    assert.equal(body.error, 'COLOR_HEX_EMPTY')
    assert.equal(body.parameter, 'hex')
    assert.match(body.message, /%23/)
    await expectError('/color/info?hex=', 400, 'COLOR_HEX_EMPTY', 'hex')
  })

  for (const hex of ['00ff0', 'ggg', '00ff00f', '%23%2300ff00', '0x00ff00', 'lime']) {
    it(`refuses hex=${hex} with COLOR_HEX_INVALID`, async () => {
      const body = await expectError(`/color/info?hex=${hex}`, 400, 'COLOR_HEX_INVALID', 'hex')
      assert.match(body.example, /hex=00ff00/)
    })
  }

  for (const rgb of ['', '1,2', '1,2,3,4', 'a,b,c', '1.5,2,3', '-1,2,3', 'rgb(1,2,3', '1;2;3']) {
    it(`refuses rgb=${rgb} with COLOR_RGB_INVALID`, async () => {
      const body = await expectError(`/color/info?rgb=${encodeURIComponent(rgb)}`, 400, 'COLOR_RGB_INVALID', 'rgb')
      assert.match(body.example, /rgb=0,255,0/)
    })
  }

  it('refuses out-of-range channels naming the value', async () => {
    const body = await expectError('/color/info?rgb=0,256,0', 400, 'COLOR_RGB_INVALID', 'rgb')
    assert.match(body.message, /256/)
  })

  it('answers 404 with close spellings for an unknown name', async () => {
    const body = await expectError('/color/info?name=darkslategrai', 404, 'COLOR_NAME_NOT_FOUND', 'name')
    assert.ok(body.suggestions.includes('Dark Slate Gray'), JSON.stringify(body.suggestions))
    assert.ok(body.suggestions.length <= 5)
    assert.match(body.message, /Dark Slate Gray/)
  })

  it('answers 404 with no suggestions for a name close to nothing', async () => {
    const body = await expectError('/color/info?name=qqqqqqqqqqqqqqqqqqqqzzzz', 404, 'COLOR_NAME_NOT_FOUND', 'name')
    assert.deepEqual(body.suggestions, [])
  })

  it('refuses an empty or oversized name with COLOR_NAME_INVALID', async () => {
    await expectError('/color/info?name=', 400, 'COLOR_NAME_INVALID', 'name')
    await expectError(`/color/info?name=${'a'.repeat(101)}`, 400, 'COLOR_NAME_INVALID', 'name')
  })

  it('refuses a request with none of name, hex, rgb', async () => {
    const body = await expectError('/color/info', 400, 'COLOR_QUERY_MISSING')
    assert.deepEqual(body.parameters, ['name', 'hex', 'rgb'])
    await expectError('/color/info?color=red', 400, 'COLOR_QUERY_MISSING')
  })

  it('refuses several of name, hex, rgb, naming them', async () => {
    const body = await expectError('/color/info?hex=fff&rgb=1,2,3', 400, 'COLOR_QUERY_AMBIGUOUS')
    assert.deepEqual(body.parameters, ['hex', 'rgb'])
    assert.match(body.message, /hex and rgb/)
  })

  it('refuses a repeated parameter, naming it', async () => {
    const body = await expectError('/color/info?hex=fff&hex=000', 400, 'VALIDATION')
    assert.match(body.message, /"hex"/)
  })
})

describe('GET /color/random', () => {
  it('answers a well-formed colour, named, with its facts', async () => {
    const { status, body } = await get('/color/random')
    assert.equal(status, 200)
    assert.equal(body.success, true)
    assert.match(body.hex, /^#[0-9a-f]{6}$/)
    assert.equal(body.hex, '#' + [body.r, body.g, body.b].map((x: number) => x.toString(16).padStart(2, '0')).join(''))
    assert.equal(typeof body.name, 'string')
    assert.match(body.name, /^\S/)
    assert.equal(body.seed, undefined)
    assert.equal(typeof body.lab.l, 'number')
  })

  it('gives the same colour for the same seed, and a different one for another seed', async () => {
    const a1 = (await get('/color/random?seed=my-palette-1')).body
    const a2 = (await get('/color/random?seed=my-palette-1')).body
    const b = (await get('/color/random?seed=my-palette-2')).body
    assert.equal(a1.hex, a2.hex)
    assert.equal(a1.seed, 'my-palette-1')
    assert.notEqual(a1.hex, b.hex)
  })

  it('refuses an empty or oversized seed', async () => {
    await expectError('/color/random?seed=', 400, 'COLOR_SEED_INVALID', 'seed')
    await expectError(`/color/random?seed=${'s'.repeat(101)}`, 400, 'COLOR_SEED_INVALID', 'seed')
  })
})
