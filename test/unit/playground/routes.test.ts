// The playground's server side: the page and its files public and under the CSP, the
// template description the page builds its form from, and what a missing build says.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, describe, it } from 'node:test'
import Fastify from 'fastify'
import { TEMPLATES } from '../../../src/generation/template-registry.js'
import { errorHandlerPlugin } from '../../../src/http/error-handler.js'
import { PLAYGROUND_CSP, playgroundRoutes } from '../../../src/playground/routes.js'
import { createTestApp, json, type TestApp, tempDir } from '../../support/helpers.js'

let t: TestApp
before(async () => { t = await createTestApp() })
after(() => t.close())

interface Described { name: string, defaultFormat: string, fields: Array<{ name: string, kind: string, description: string, default: string }> }

describe('/playground', () => {
  it('serves the page, its script and its style without a key, under the CSP, revalidated by ETag', async () => {
    for (const [url, type] of [['/playground', /^text\/html/], ['/playground/main.js', /^text\/javascript/], ['/playground/style.css', /^text\/css/]] as const) {
      const res = await t.app.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 200)}`)
      assert.match(String(res.headers['content-type']), type)
      assert.equal(res.headers['content-security-policy'], PLAYGROUND_CSP)
      assert.equal(res.headers['x-content-type-options'], 'nosniff')
      assert.equal(res.headers['cache-control'], 'no-cache')
      const again = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(res.headers.etag) } })
      assert.equal(again.statusCode, 304, url)
      assert.equal(again.body, '')
    }
    const page = await t.app.inject({ method: 'GET', url: '/playground' })
    assert.ok(!page.body.includes(t.key))
  })

  it('answers other names under /playground with the 404 envelope, never a file of the disk', async () => {
    for (const url of ['/playground/routes.js', '/playground/..%2F..%2Fpackage.json', '/playground/index.html.map']) {
      const res = await t.app.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 404, url)
      assert.equal(json(res).error, 'NOT_FOUND')
    }
  })

  it('is left out of the OpenAPI document: it is the page, not the API', async () => {
    const doc = json(await t.app.inject({ method: 'GET', url: '/openapi.json' }))
    assert.deepEqual(Object.keys(doc.paths).filter((p) => p.startsWith('/playground')), [])
  })

  it('describes every template and field /gen/{template} draws, with its default', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/playground/templates.json' })
    assert.equal(res.statusCode, 200)
    const body = json(res)
    assert.equal(body.success, true)
    assert.deepEqual(body.templates.map((x: Described) => x.name), TEMPLATES.map((x) => x.name))
    for (const template of TEMPLATES) {
      const described = body.templates.find((x: Described) => x.name === template.name) as Described
      assert.equal(described.defaultFormat, template.defaultFormat)
      assert.deepEqual(described.fields.map((f) => [f.name, f.default, f.description]), Object.entries(template.fields).map(([name, doc]) => [name, doc.default ?? '', doc.description]))
    }
  })

  it('gives each field the kind of input the server reads it as: a wrong value is refused as that kind', async () => {
    const body = json(await t.app.inject({ method: 'GET', url: '/playground/templates.json' }))
    const refusal: Record<string, { value: string, error: string }> = {
      color: { value: 'not-a-colour', error: 'INVALID_COLOR' },
      font: { value: 'No Such Font', error: 'UNKNOWN_FONT' },
      banner: { value: 'no-such-banner', error: 'UNKNOWN_ASSET' },
      icon: { value: 'no-such-icon', error: 'UNKNOWN_ASSET' }
    }
    // What a template cannot draw without (the leaderboard's players), sent beside the wrong value.
    const required: Record<string, Record<string, unknown>> = { leaderboard: { players: [{ username: 'ada' }] } }
    let checked = 0
    for (const template of body.templates as Described[]) {
      for (const field of template.fields) {
        const wrong = refusal[field.kind]
        if (wrong === undefined) continue
        // On the template's example, so that its required fields (the leaderboard's players) are there.
        const res = await t.app.inject({ method: 'POST', url: `/gen/${template.name}`, headers: t.auth, payload: { ...required[template.name], [field.name]: wrong.value } })
        assert.equal(res.statusCode, 400, `${template.name}.${field.name} (${field.kind}) took "${wrong.value}"`)
        assert.equal(json(res).error, wrong.error, `${template.name}.${field.name}`)
        checked++
      }
    }
    assert.ok(checked >= 15, `${checked} fields checked`)
  })

  it('gives a field of a closed set (locale, status) a select of its values; a value outside it is refused naming the field', async () => {
    const body = json(await t.app.inject({ method: 'GET', url: '/playground/templates.json' }))
    let checked = 0
    for (const template of body.templates as Described[]) {
      for (const field of template.fields.filter((f) => f.kind === 'select')) {
        const options = (field as unknown as { options: string[] }).options
        assert.ok(options.length > 1 && options.includes(field.default), `${template.name}.${field.name}: ${JSON.stringify(options)}`)
        const res = await t.app.inject({ method: 'POST', url: `/gen/${template.name}`, headers: t.auth, payload: { ...(template as unknown as { example?: Record<string, unknown> }).example, [field.name]: 'no-such-value' } })
        assert.equal(res.statusCode, 400, `${template.name}.${field.name} took a value outside its set`)
        assert.match(json(res).message, new RegExp(`"${field.name}"`))
        checked++
      }
    }
    // locale on the four templates, status on the rank card.
    assert.ok(checked >= 5, `${checked} fields checked`)
  })

  it('says how to build the page when the bundle is missing', async () => {
    const empty = tempDir('uma-no-bundle-')
    const app = Fastify({ logger: false })
    try {
      await app.register(errorHandlerPlugin)
      await app.register(playgroundRoutes, { bundleDir: empty })
      const res = await app.inject({ method: 'GET', url: '/playground' })
      assert.equal(res.statusCode, 503)
      const envelope = json(res)
      assert.equal(envelope.error, 'PLAYGROUND_NOT_BUILT')
      assert.match(envelope.message, /npm run build/)
    } finally {
      await app.close()
      fs.rmSync(empty, { recursive: true, force: true })
    }
  })
})
