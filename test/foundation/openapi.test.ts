// /openapi.json is a valid OpenAPI 3.1 document that lists every route the server has,
// with the error envelope documented on each.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import { createTestApp, json, type TestApp } from '../helpers.js'

let t: TestApp
let doc: any

before(async () => {
  t = await createTestApp()
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' })
  assert.equal(res.statusCode, 200)
  doc = json(res)
})
after(() => t.close())

/** Fastify's /x/:id is OpenAPI's /x/{id}. */
function openApiPath (url: string): string {
  return url.replace(/:(\w+)/g, '{$1}')
}

describe('/openapi.json', () => {
  it('validates as OpenAPI 3.1', async () => {
    assert.equal(doc.openapi, '3.1.0')
    const result = await new Validator().validate(doc)
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 2000))
  })

  it('lists every route the server has', () => {
    const documented = new Set<string>()
    for (const [p, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${p}`)
    }
    const served = t.app.routeTable.filter((r) => !r.hidden)
    assert.ok(served.length >= 3)
    for (const route of served) {
      assert.ok(documented.has(`${route.method} ${openApiPath(route.url)}`), `${route.method} ${route.url} is not in /openapi.json`)
    }
  })

  it('documents the error envelope for every error status of every route, and the key on protected ones', () => {
    const publicRoutes = new Set(t.app.routeTable.filter((r) => r.public).map((r) => `${r.method} ${openApiPath(r.url)}`))
    for (const [p, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const statuses = Object.keys(op.responses)
        assert.ok(statuses.includes('500'), `${method} ${p} documents no 500`)
        for (const status of statuses.filter((s) => Number(s) >= 400)) {
          const schema = op.responses[status].content['application/json'].schema
          assert.deepEqual(schema.required?.sort(), ['code', 'error', 'message', 'requestId', 'success'], `${method} ${p} ${status}`)
        }
        // HEAD routes share their GET route's access rule.
        const isPublic = publicRoutes.has(`${method === 'head' ? 'GET' : method.toUpperCase()} ${p}`)
        assert.equal(statuses.includes('401'), !isPublic, `${method} ${p}: 401 documented iff protected`)
        if (!isPublic) assert.deepEqual(op.security, [{ apiKey: [] }])
      }
    }
  })

  it('serves the interactive reference at /docs without a key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' })
    const page = res.statusCode === 302 ? await t.app.inject({ method: 'GET', url: String(res.headers.location).startsWith('/') ? String(res.headers.location) : `/docs/${res.headers.location}` }) : res
    assert.equal(page.statusCode, 200)
    assert.match(String(page.headers['content-type']), /text\/html/)
    assert.match(page.body, /swagger/i)
  })
})
