// /openapi.json is a valid OpenAPI 3.1 document that lists every route the server has,
// with the error envelope documented on each, and that generates a usable client:
// operation ids, shared components, image and upload content, enums of closed sets.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import openapiTS, { astToString } from 'openapi-typescript'
import { ERROR_CATALOGUE, type ErrorCode } from '../../../src/errors.js'
import { BANNERS, ICONS } from '../../../src/generation/assets/art.js'
import { OUTPUT_FORMATS } from '../../../src/generation/canvas/draw.js'
import { LOCALES } from '../../../src/generation/locale/locale.js'
import { TEMPLATES } from '../../../src/generation/template-registry.js'
import { GIF_TYPES } from '../../../src/gifs/types.js'
import { docsContentSecurityPolicy, literalAngles, operationIdOf } from '../../../src/http/openapi.js'
import { createTestApp, json, type TestApp } from '../../support/helpers.js'

let t: TestApp
let doc: any

before(async () => {
  t = await createTestApp({ config: { publicUrl: 'https://media.example.com' } })
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' })
  assert.equal(res.statusCode, 200)
  doc = json(res)
})
after(() => t.close())

/** Fastify's /x/:id is OpenAPI's /x/{id}. */
function openApiPath (url: string): string {
  return url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}')
}

function operations (): Array<{ method: string, path: string, op: any }> {
  return Object.entries<Record<string, any>>(doc.paths).flatMap(([path, item]) => Object.entries<any>(item).map(([method, op]) => ({ method, path, op })))
}

function resolve (node: any): any {
  if (typeof node?.$ref !== 'string') return node
  const name = node.$ref.replace('#/components/schemas/', '')
  assert.ok(doc.components.schemas[name], `${node.$ref} resolves`)
  return resolve(doc.components.schemas[name])
}

/** Every property of an object schema, through $ref and allOf. */
function propertiesOf (node: any): Record<string, any> {
  const schema = resolve(node)
  return Object.assign({}, schema.properties, ...(schema.allOf ?? []).map(propertiesOf))
}

function walk (node: unknown, visit: (n: any, path: string) => void, path = ''): void {
  if (node === null || typeof node !== 'object') return
  visit(node, path)
  for (const [k, v] of Object.entries(node)) walk(v, visit, `${path}/${k}`)
}

describe('/openapi.json', () => {
  it('validates as OpenAPI 3.1', async () => {
    assert.equal(doc.openapi, '3.1.0')
    const result = await new Validator().validate(doc)
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 2000))
  })

  it('lists every route the server has', () => {
    const documented = new Set(operations().map(({ method, path }) => `${method.toUpperCase()} ${path}`))
    // The management API has its own document (test/unit/admin/routes.test.ts).
    const served = t.app.routeTable.filter((r) => !r.hidden && !r.admin)
    assert.ok(served.length >= 3)
    for (const route of served) {
      assert.ok(documented.has(`${route.method} ${openApiPath(route.url)}`), `${route.method} ${route.url} is not in /openapi.json`)
    }
  })

  it('documents the error envelope for every error status of every route, and the key on protected ones', () => {
    const publicRoutes = new Set(t.app.routeTable.filter((r) => r.public).map((r) => `${r.method} ${openApiPath(r.url)}`))
    for (const { method, path, op } of operations()) {
      const statuses = Object.keys(op.responses)
      assert.ok(statuses.includes('500'), `${method} ${path} documents no 500`)
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        const media = op.responses[status].content['application/json']
        assert.deepEqual(media.schema, { $ref: '#/components/schemas/ErrorEnvelope' }, `${method} ${path} ${status}`)
        assert.deepEqual(resolve(media.schema).required?.sort(), ['code', 'error', 'message', 'requestId', 'success'])
      }
      // HEAD routes share their GET route's access rule.
      const isPublic = publicRoutes.has(`${method === 'head' ? 'GET' : method.toUpperCase()} ${path}`)
      assert.equal(statuses.includes('401'), !isPublic, `${method} ${path}: 401 documented iff protected`)
      if (!isPublic) assert.deepEqual(op.security, [{ apiKey: [] }])
    }
  })

  it('shows, under each error status, examples of catalogue codes that really answer that status', () => {
    let seen = 0
    for (const { method, path, op } of operations()) {
      for (const status of Object.keys(op.responses).filter((s) => Number(s) >= 400)) {
        const examples = Object.values<any>(op.responses[status].content['application/json'].examples ?? {})
        assert.ok(examples.length > 0, `${method} ${path} ${status} has no example`)
        for (const { value } of examples) {
          assert.equal(value.code, Number(status), `${method} ${path} ${status}: example ${value.error}`)
          assert.equal(ERROR_CATALOGUE[value.error as ErrorCode]?.status, Number(status), `${value.error} is a ${status} in src/errors.ts`)
          assert.equal(value.success, false)
          seen++
        }
      }
    }
    assert.ok(seen > 100)
    const gen = doc.paths['/gen/{template}'].post.responses
    assert.ok('AUTH_UNKNOWN_KEY' in gen['401'].content['application/json'].examples)
    assert.ok('BODY_TOO_LARGE' in gen['413'].content['application/json'].examples)
    assert.ok('RENDER_BUSY' in gen['503'].content['application/json'].examples)
  })

  it('lists 503 SERVICE_UNAVAILABLE on every operation a closed rate limit can refuse (RATE_LIMIT_ON_STORE_ERROR=closed), not on free or unlimited ones', () => {
    const examplesOf = (op: any, status: string): Record<string, unknown> => op.responses[status]?.content['application/json'].examples ?? {}
    let keyed = 0
    for (const { method, path, op } of operations()) {
      const limited = 'RATE_LIMITED' in examplesOf(op, '429')
      // /me and the roll of its link secret cost nothing: never refused for the counters (src/store/counters/redis.ts).
      const refusable = limited && path !== '/me' && path !== '/me/links/roll'
      assert.equal('SERVICE_UNAVAILABLE' in examplesOf(op, '503'), refusable || path === '/readyz', `${method} ${path}`)
      if (refusable && op.security !== undefined) {
        keyed++
        assert.ok('STORE_UNAVAILABLE' in examplesOf(op, '503'), `${method} ${path}: both 503s of a keyed operation`)
      }
    }
    assert.ok(keyed > 20, `${keyed} keyed operations`)
    assert.match(doc.paths['/color/random'].get.responses['503'].description, /`SERVICE_UNAVAILABLE`: /)
  })

  it('gives every operation a unique, readable operationId', () => {
    const ids = operations().map(({ op }) => op.operationId)
    assert.ok(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]*$/.test(id)), ids.join(' '))
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique')
    const id = (method: string, path: string) => doc.paths[path][method].operationId
    assert.equal(id('get', '/color/random'), 'getColorRandom')
    assert.equal(id('post', '/gen/{template}'), 'genTemplate')
    assert.equal(id('get', '/gen/{template}'), 'genTemplateViaGet')
    assert.equal(id('post', '/gen/custom'), 'genCustom')
    assert.equal(id('post', '/convert/image-png'), 'convertImagePng')
    assert.equal(id('get', '/files/gifs/{file}'), 'getFilesGifsFile')
    assert.equal(id('head', '/files/gifs/{file}'), 'headFilesGifsFile')
    assert.equal(operationIdOf('get', '/', ['get']), 'getRoot')
  })

  it('keeps shared schemas under components.schemas and refers to them', () => {
    const schemas = doc.components.schemas
    for (const name of ['Envelope', 'ErrorEnvelope', 'Gif', 'GifAnswer', 'Colour', 'CustomImage', 'CustomBase', 'CustomImageLayer', 'CustomText', 'CustomGlobal', 'TemplateFields']) {
      assert.ok(schemas[name], `components.schemas.${name}`)
    }
    const ok = (path: string, method = 'get') => doc.paths[path][method].responses['200'].content['application/json'].schema
    assert.deepEqual(ok('/color/random'), { $ref: '#/components/schemas/Colour' })
    assert.deepEqual(ok('/color/info'), { $ref: '#/components/schemas/Colour' })
    assert.deepEqual(ok('/sfw/gif/{imageType}'), { $ref: '#/components/schemas/GifAnswer' })
    assert.deepEqual(doc.paths['/gen/custom'].post.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/CustomImage' })
    assert.deepEqual(doc.paths['/gen/{template}'].post.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/TemplateFields' })
    assert.deepEqual(schemas.CustomImage.properties.images.items, { $ref: '#/components/schemas/CustomImageLayer' })
    assert.deepEqual(schemas.CustomImage.properties.texts.items, { $ref: '#/components/schemas/CustomText' })
    // The envelope is written once: every JSON success answer refers to it.
    walk(doc.paths, (node, path) => {
      if (node.properties !== undefined) assert.ok(!('success' in node.properties && 'message' in node.properties), `envelope inlined at ${path}`)
    })
    for (const { path, op } of operations()) {
      const schema = op.responses['200']?.content?.['application/json']?.schema
      if (schema === undefined || path === '/healthz') continue
      assert.deepEqual(Object.keys(propertiesOf(schema)).slice(0, 3), ['success', 'code', 'message'], path)
    }
  })

  it('documents image answers as binary image content', () => {
    const images: Array<[string, string, string[]]> = [
      ['/gen/{template}', 'post', ['image/png', 'image/jpeg', 'image/webp', 'image/gif']],
      ['/gen/{template}', 'get', ['image/png', 'image/jpeg', 'image/webp', 'image/gif']],
      ['/gen/custom', 'post', ['image/png', 'image/jpeg', 'image/webp', 'image/gif']],
      ['/convert/image-png', 'post', ['image/png']],
      ['/convert/image-jpg', 'post', ['image/jpeg']],
      ['/convert/image-webp', 'post', ['image/webp']],
      ['/files/gifs/{file}', 'get', ['image/gif', 'image/webp']],
      ['/assets/banners/{name}', 'get', ['image/png']],
      ['/assets/icons/{name}', 'get', ['image/png']]
    ]
    for (const [path, method, types] of images) {
      const content = doc.paths[path][method].responses['200'].content
      assert.deepEqual(Object.keys(content).sort(), [...types].sort(), `${method} ${path}`)
      for (const type of types) assert.deepEqual(content[type].schema, { type: 'string', format: 'binary', contentMediaType: type })
    }
  })

  it('documents uploads as raw bytes, image/* or a multipart form with a file field, or none with the query parameter url', () => {
    for (const format of ['png', 'jpg', 'webp']) {
      const body = doc.paths[`/convert/image-${format}`].post.requestBody
      // Not required: `url` fetches the image instead (docs/image-conversion.md).
      assert.equal(body.required, false)
      assert.match(body.description, /none when the query gives `url`/)
      const url = doc.paths[`/convert/image-${format}`].post.parameters.find((p: any) => p.name === 'url')
      assert.deepEqual([url?.in, url?.schema.type, url?.required], ['query', 'string', false])
      assert.deepEqual(Object.keys(body.content).sort(), ['application/octet-stream', 'image/*', 'multipart/form-data'])
      assert.deepEqual(body.content['application/octet-stream'].schema, { type: 'string', format: 'binary' })
      const form = body.content['multipart/form-data'].schema
      assert.deepEqual(form.required, ['file'])
      assert.equal(form.properties.file.format, 'binary')
      assert.ok(form.properties.quality && form.properties.background, 'quality and background form fields')
      assert.equal(form.properties.url, undefined, 'url is a query parameter, not a form field')
    }
  })

  it('never requires a body on GET (browsers cannot send one), and says GET with a body is the compatibility path', () => {
    let gets = 0
    for (const { method, path, op } of operations()) {
      if (method !== 'get' || op.requestBody === undefined) continue
      gets++
      assert.notEqual(op.requestBody.required, true, `GET ${path}`)
      assert.match(op.requestBody.description, /compatibility/i, `GET ${path}`)
    }
    assert.ok(gets >= 7)
  })

  it('gives "Try it out" no query parameter it fills in by itself: none is an array or object (Swagger UI fills those with a sample), and /gen/{template}\'s have no example', () => {
    /** The types a schema may take, through anyOf and oneOf. */
    const typesOf = (schema: any): string[] => [schema?.type ?? [], ...[...(schema?.anyOf ?? []), ...(schema?.oneOf ?? [])].map(typesOf)].flat()
    let genParameters = 0
    for (const { method, path, op } of operations()) {
      for (const p of (op.parameters ?? []).filter((p: any) => p.in === 'query')) {
        const schema = resolve(p.schema)
        assert.deepEqual(typesOf(schema).filter((type) => type === 'array' || type === 'object'), [], `${method} ${path} ${p.name}`)
        if (path !== '/gen/{template}') continue
        genParameters++
        for (const key of ['example', 'examples', 'default']) {
          assert.equal(p[key], undefined, `${method} ${path} ${p.name}.${key}`)
          assert.equal(schema[key], undefined, `${method} ${path} ${p.name} schema.${key}`)
        }
      }
    }
    assert.ok(genParameters > 0)
    // The JSON fields are their JSON text in a query string, and stay a JSON value in the body, with the body's example.
    assert.deepEqual(doc.paths['/gen/{template}'].get.parameters.find((p: any) => p.name === 'players').schema, { type: 'string', contentMediaType: 'application/json' })
    assert.equal(typesOf(propertiesOf(doc.paths['/gen/{template}'].post.requestBody.content['application/json'].schema).players)[0], 'array')
    // A list field (the profile's badges): its values separated by commas in the query, an array of strings or that string in a body.
    assert.deepEqual(typesOf(doc.paths['/gen/{template}'].get.parameters.find((p: any) => p.name === 'badges').schema), ['string'])
    const badges = propertiesOf(doc.paths['/gen/{template}'].post.requestBody.content['application/json'].schema).badges
    assert.deepEqual(typesOf(badges), ['array', 'string'])
    assert.equal(badges.anyOf[0].items.type, 'string')
    const bodyExamples = Object.values<any>(doc.paths['/gen/{template}'].post.requestBody.content['application/json'].examples ?? {}).map((e) => e.value)
    assert.ok(bodyExamples.some((value) => Array.isArray(value.players)), 'the leaderboard\'s body example')
  })

  it('lists every closed set as an enum, read from the code\'s own lists', () => {
    const param = (path: string, name: string, method = 'get') => doc.paths[path][method].parameters.find((p: any) => p.name === name).schema
    assert.deepEqual(param('/sfw/gif/{imageType}', 'imageType').enum, [...GIF_TYPES])
    assert.deepEqual(param('/gen/{template}', 'template', 'post').enum, TEMPLATES.map((t) => t.name))
    const fields = doc.components.schemas.TemplateFields.properties
    assert.deepEqual(fields.output.enum, [...OUTPUT_FORMATS])
    assert.deepEqual(fields.banner.anyOf[0].enum, Object.keys(BANNERS))
    assert.deepEqual(fields.icon.anyOf[0].enum, Object.keys(ICONS))
    assert.equal(fields.icon.anyOf[1].format, 'uri')
    // The locales, or another spelling the server reads (pt-br, zh): a string, which "Try it out" shows as a text box.
    for (const locale of [fields.locale, param('/gen/{template}', 'locale')]) {
      assert.equal(locale.type, 'string')
      assert.deepEqual(locale.anyOf.map((b: any) => [b.type, b.enum]), [['string', LOCALES], ['string', undefined]])
      assert.match(locale.anyOf[1].description, /pt-br/)
    }
    assert.deepEqual(doc.components.schemas.CustomImage.properties.output.enum, [...OUTPUT_FORMATS])
    assert.deepEqual(doc.components.schemas.CustomImageLayer.properties.type.enum, ['bitmap', 'url', 'circle', 'triangle'])
    assert.deepEqual(doc.components.schemas.CustomText.properties.align.enum, ['l', 'm', 'r'])
  })

  it('lists this server first (relative, wherever the document was loaded from), then PUBLIC_URL', () => {
    assert.deepEqual(doc.servers.map((s: any) => s.url), ['/', 'https://media.example.com'])
  })

  it('renders <key> literally: no bare HTML-like tag in any description', () => {
    assert.equal(literalAngles('as "Bearer <key>"'), 'as "Bearer `<key>`"')
    assert.equal(literalAngles('`Bearer <key>`'), '`Bearer <key>`')
    walk(doc, (node, path) => {
      if (typeof node.description !== 'string') return
      const outsideCode = node.description.split(/`[^`]*`/).join('')
      assert.doesNotMatch(outsideCode, /<[A-Za-z]/, path)
    })
    assert.match(doc.info.description, /`Bearer <key>`/)
  })

  it('generates named types for every operation with openapi-typescript', async () => {
    const source = astToString(await openapiTS(doc))
    const start = source.indexOf('export interface operations {')
    assert.ok(start >= 0)
    const block = source.slice(start)
    for (const { op } of operations()) assert.match(block, new RegExp(`\\n {4}${op.operationId}: \\{`), op.operationId)
    // Image answers are typed as bytes, not `never`.
    assert.doesNotMatch(source.slice(source.indexOf('    genTemplate: {'), source.indexOf('    genTemplateViaGet: {')), /200: \{[^}]*content\?: never/)
  })

  it('serves the interactive reference at /docs without a key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' })
    const page = res.statusCode === 302 ? await t.app.inject({ method: 'GET', url: String(res.headers.location).startsWith('/') ? String(res.headers.location) : `/docs/${res.headers.location}` }) : res
    assert.equal(page.statusCode, 200)
    assert.match(String(page.headers['content-type']), /text\/html/)
    assert.match(page.body, /swagger/i)
  })

  it('docs page policy: no upgrade-insecure-requests on plain http, blob: images, nothing external', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' })
    const csp = String(res.headers['content-security-policy'])
    assert.equal(csp, docsContentSecurityPolicy(false))
    assert.doesNotMatch(csp, /upgrade-insecure-requests/)
    assert.match(csp, /img-src 'self' data: blob:/)
    assert.doesNotMatch(csp, /https:|\*|validator\.swagger\.io/)
    assert.match(docsContentSecurityPolicy(true), /upgrade-insecure-requests/)
  })
})
