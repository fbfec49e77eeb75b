// The OpenAPI 3.1 document, generated from the route schemas (so the docs cannot drift
// from the code), at /openapi.json, and an interactive reference at /docs. The rules that
// turn route declarations into the document live here, once, rather than in each route
// (docs/openapi.md says what the document promises):
// - operationId from method and path (operationIdOf);
// - schemas marked with component() (src/http/openapi-annotations.ts) go to
//   components.schemas and are referenced by $ref; every JSON success answer is the
//   shared Envelope plus its own fields (allOf);
// - closed sets marked with closedSet() become enums (in the document only);
// - routes declaring `images` answer image bytes; routes reading a raw body take an
//   upload (raw bytes or a multipart `file` field);
// - every error status a route can answer documents the error envelope, with one
//   example per catalogue code of that status.
import type { FastifyInstance, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { ERROR_CATALOGUE, type ErrorCode } from '../errors.js'
import { EnvelopeFields, ErrorEnvelopeSchema } from './envelope.js'
import { closedSetOf, componentNameOf } from './openapi-annotations.js'
import type { BodyMode } from './route-config.js'

/** The codes every route can answer, given what it declares. */
export function routeErrorCodes (route: Pick<RouteOptions, 'config' | 'schema' | 'method'>): ErrorCode[] {
  const config = route.config ?? {}
  const schema = route.schema ?? {}
  const codes: ErrorCode[] = []
  // The management API (config `admin`) takes operator tokens, never keys (src/admin/gate.ts).
  const keyed = config.public !== true && config.admin === undefined
  if (keyed) codes.push('AUTH_MISSING', 'AUTH_EMPTY', 'AUTH_UNKNOWN_KEY', 'AUTH_KEY_DISABLED', 'AUTH_KEY_REVOKED', 'AUTH_KEY_EXPIRED', 'AUTH_KEY_ROLLED')
  if (config.admin !== undefined && config.admin !== 'page') codes.push('ADMIN_AUTH_MISSING', 'ADMIN_AUTH_INVALID', 'ADMIN_AUTH_LIMITED')
  if (config.admin !== undefined && config.admin !== 'page' && config.admin !== 'token') codes.push('ADMIN_SCOPE')
  // The key is looked up in the store, which in scale-out mode may not answer (docs/operations-faults.md).
  if (config.public !== true) codes.push('STORE_UNAVAILABLE')
  if (schema.querystring || schema.params || schema.body || config.body) codes.push('VALIDATION')
  if (config.body === 'json' || config.body === 'json-with-nulls' || config.body === 'json-or-text') codes.push('MALFORMED_JSON', 'JSON_TOO_DEEP', 'INVALID_UTF8')
  // A body whose Content-Type or Content-Length header cannot be read is refused before it is parsed.
  if (config.body) codes.push('BODY_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'BAD_CONTENT_LENGTH')
  // Rate limits apply to every route but the health checks; quotas to keyed routes.
  if (config.rateLimit !== false) codes.push('RATE_LIMITED')
  if (config.rateLimit !== false && keyed) codes.push('QUOTA_EXCEEDED')
  // A key with prepaid credits is refused what they cannot pay for (src/access/credits.ts); a free route never is.
  if (config.rateLimit !== false && keyed && (config.cost ?? 1) > 0) codes.push('CREDITS_EXHAUSTED')
  // With RATE_LIMIT_ON_STORE_ERROR=closed, a request that costs units is refused while
  // Redis does not answer (src/store/counters/redis.ts); a free one (/me) never is.
  if (config.rateLimit !== false && (config.cost ?? 1) > 0) codes.push('SERVICE_UNAVAILABLE')
  codes.push(...(config.errors ?? []))
  codes.push('INTERNAL', 'TIMEOUT')
  return [...new Set(codes)]
}

/**
 * The operationId rule: the path's segments in camelCase ("/convert/image-png" →
 * convertImagePng, "{template}" → Template). A route that takes GET and POST (an
 * action whose GET form exists for the clients that send GET with a body) is named by
 * its path alone for POST (genTemplate, genCustom) and with "ViaGet" for GET
 * (genTemplateViaGet); every other operation is the method then the path
 * (getColorRandom, headFilesGifsFile).
 */
export function operationIdOf (method: string, path: string, methodsOfPath: readonly string[]): string {
  const words = path.split('/').filter((s) => s !== '')
    .flatMap((s) => s.replace(/[{}]/g, '').split(/[^A-Za-z0-9]+/))
    .filter((w) => w !== '')
  const name = words.map((w, i) => i === 0 ? w : w[0]!.toUpperCase() + w.slice(1)).join('')
  const pascal = name === '' ? 'Root' : name[0]!.toUpperCase() + name.slice(1)
  const m = method.toLowerCase()
  const action = methodsOfPath.includes('post') && methodsOfPath.includes('get')
  if (action && m === 'post') return name
  if (action && m === 'get') return `${name}ViaGet`
  return `${m}${pascal}`
}

const REF = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const BINARY = { type: 'string', format: 'binary' }
/** Marks a schema node that becomes a shared component when the document is finished. */
const COMPONENT_MARK = 'x-uma-component'

/**
 * A GET that reads a body (the C# and Rust clients send one: docs/compatibility.md)
 * describes that body instead of declaring it. Browsers' fetch refuses a body on GET
 * ("Request with GET/HEAD method cannot have body"): a declared one made "Try it out" in
 * /docs fail, and would make any generated browser client fail. The POST twin declares the
 * same body and is listed first; the GET keeps a requestBody with no media types (valid
 * OpenAPI 3.1, and nothing for a UI to send) whose description says where the body is.
 * Swagger UI shows no description for such a body: the operation's description says it.
 */
function getBodyNotes (path: string, postTwin: string | undefined): { operation: string, body: string } {
  const twin = postTwin === undefined ? '' : `: the body of \`POST ${path}\` (\`${postTwin}\`), read the same way`
  return {
    operation: `GET with a body is the compatibility path of the clients that send one (the C# and Rust clients)${twin}. ` +
      'Browsers cannot send a body with GET, so this operation declares none and "Try it out" sends it without one' +
      (postTwin === undefined ? '.' : ': from a browser, and in new code, use POST.'),
    body: `GET with a body, the compatibility path of the C# and Rust clients${twin}. Described, not declared: browsers cannot send a body with GET.`
  }
}
const REQUEST_ID_EXAMPLE = '0b7e6c2e-5f1a-4c8e-9d3a-2f6b1c0e4a57'

/** A plain copy of a route schema for the document: component marks kept, closed sets as enums. */
function documented (node: unknown): unknown {
  if (Array.isArray(node)) return node.map(documented)
  if (node === null || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) out[key] = documented(value)
  const set = closedSetOf(node)
  if (set !== undefined) {
    const values = [...set.values()]
    // An open set is a string, one of the values or another string: `type` stays beside
    // the anyOf, so that Swagger UI's "Try it out" shows a text box, and the typed client
    // (clients/typescript/scripts/schema-types.mjs) types it as the values or any string.
    const other = set.orUrl === true ? { type: 'string', format: 'uri', description: 'An image URL' } : set.otherSpellings === undefined ? undefined : { type: 'string', description: set.otherSpellings }
    if (other !== undefined) {
      const { description, ...rest } = out
      return { type: 'string', description, anyOf: [{ ...rest, enum: values }, other] }
    }
    out.enum = values
  }
  const name = componentNameOf(node)
  if (name !== undefined) out[COMPONENT_MARK] = name
  return out
}

/** The headers of an answer of the result cache (route config `cached`, docs/result-cache.md). */
const CACHED_HEADERS = {
  'X-Cache': { description: '`miss`: this request drew the picture; `hit`: served from the result cache or from a drawing another request started (costs 1 unit)', schema: { type: 'string', enum: ['hit', 'miss'] } },
  ETag: { description: 'The picture\'s content address, quoted; absent when the result cache is off (RESULT_CACHE_MAX_BYTES=0)', schema: { type: 'string' } }
}

function jsonCopy<T> (value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}

/** What the document needs to know of a route beyond its schema, by "METHOD /openapi/{path}". */
interface RouteFacts {
  codes: ErrorCode[]
  images: readonly string[] | undefined
  cached: boolean
  body: BodyMode | undefined
  /** A raw body read as bytes only: no multipart form documented. */
  bytesOnly: boolean
  query: Record<string, unknown> | undefined
}

function errorResponses (codes: ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of codes) {
    const status = ERROR_CATALOGUE[code].status
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  const responses: Record<string, unknown> = {}
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = {
      description: list.map((c) => `\`${c}\`: ${ERROR_CATALOGUE[c].message}`).join('\n\n'),
      content: {
        'application/json': {
          schema: REF('ErrorEnvelope'),
          examples: Object.fromEntries(list.map((c) => [c, {
            summary: c,
            value: { success: false, code: status, message: ERROR_CATALOGUE[c].message, error: c, requestId: REQUEST_ID_EXAMPLE }
          }]))
        }
      }
    }
  }
  return responses
}

/** Walks every node of the document, children first, replacing a node by what `visit` returns. */
function rewrite (node: unknown, visit: (n: Record<string, unknown>) => unknown): unknown {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, visit))
  if (node === null || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) out[key] = rewrite(value, visit)
  return visit(out)
}

const ENVELOPE_KEYS = Object.keys(EnvelopeFields)

/** A JSON success answer: the shared Envelope and the route's own fields. */
function splitEnvelope (schema: Record<string, unknown>): unknown {
  const properties = schema.properties as Record<string, unknown> | undefined
  if (schema.type !== 'object' || properties === undefined || !ENVELOPE_KEYS.every((k) => k in properties)) return schema
  const own = Object.fromEntries(Object.entries(properties).filter(([k]) => !ENVELOPE_KEYS.includes(k)))
  const required = ((schema.required as string[] | undefined) ?? []).filter((k) => !ENVELOPE_KEYS.includes(k))
  const { properties: _p, required: _r, type: _t, ...rest } = schema
  return { ...rest, allOf: [REF('Envelope'), { type: 'object', ...(required.length > 0 ? { required } : {}), properties: own }] }
}

/**
 * Markdown renders `<key>` as an HTML tag, that is, as nothing: outside code spans, a
 * tag-like `<word>` becomes a code span, shown literally in /docs and in generated comments.
 */
export function literalAngles (text: string): string {
  return text.split(/(`[^`]*`)/).map((part, i) => i % 2 === 1 ? part : part.replace(/<\/?[A-Za-z][^<>`]*>/g, (tag) => `\`${tag}\``)).join('')
}

function finishDocument (doc: Record<string, any>, facts: Map<string, RouteFacts>): Record<string, any> {
  const schemas: Record<string, unknown> = {
    Envelope: { type: 'object', description: 'The fields every JSON answer carries', required: ENVELOPE_KEYS, properties: jsonCopy(EnvelopeFields) },
    ErrorEnvelope: (() => { const { $id: _id, ...rest } = jsonCopy(ErrorEnvelopeSchema) as unknown as Record<string, unknown>; return rest })()
  }
  const paths = doc.paths as Record<string, Record<string, any>>
  for (const [path, item] of Object.entries(paths)) {
    const methods = Object.keys(item)
    for (const method of methods) {
      // fastify-swagger shares one operation object between the methods of a route.
      const op = item[method] = jsonCopy(item[method])
      const route = facts.get(`${method.toUpperCase()} ${path}`)
      op.operationId = operationIdOf(method, path, methods)
      if (route === undefined) continue
      const responses = op.responses as Record<string, any>
      // fastify-swagger's placeholder for a route that declares no 200: a route that
      // only fails (/gen/html) documents no success; the others say what they answer.
      if (responses['200']?.description === 'Default Response') {
        if (responses['200'].content === undefined && route.images === undefined) delete responses['200']
        else responses['200'].description = op.summary ?? 'Success'
      }
      for (const [status, response] of Object.entries(errorResponses(route.codes))) responses[status] = response
      if (route.images !== undefined) {
        responses['200'] = {
          description: `The image bytes (${route.images.join(', ')})`,
          content: Object.fromEntries(route.images.map((type) => [type, { schema: { ...BINARY, contentMediaType: type } }])),
          ...(route.cached ? { headers: CACHED_HEADERS } : {})
        }
        if (route.cached) responses['304'] = { description: 'Not Modified: `If-None-Match` named this picture\'s `ETag` (costs 1 unit)', headers: { ETag: CACHED_HEADERS.ETag } }
        delete responses.default
      }
      if (route.body === 'raw') {
        // A route whose query takes `url` fetches the file from there instead: then no body.
        const { url, ...fields } = (route.query?.properties ?? {}) as Record<string, Record<string, unknown>>
        op.requestBody = {
          required: url === undefined,
          description: 'The file: the raw bytes as the body (any content type)' + (route.bytesOnly ? '' : ', or a multipart form with the file in `file`') + (url === undefined ? '' : '; none when the query gives `url`'),
          content: {
            'application/octet-stream': { schema: BINARY },
            'image/*': { schema: BINARY },
            ...(route.bytesOnly
              ? {}
              : {
                  'multipart/form-data': {
                    schema: {
                      type: 'object',
                      required: ['file'],
                      properties: { file: { ...BINARY, description: 'The file to convert' }, ...fields }
                    }
                  }
                })
          }
        }
      } else if (op.requestBody !== undefined && (route.body === 'json' || route.body === 'json-with-nulls')) {
        // An empty body reads as {} (src/http/body.ts).
        op.requestBody.required = false
      }
      if (method === 'get' && op.requestBody !== undefined) {
        const postTwin = methods.includes('post') ? operationIdOf('post', path, methods) : undefined
        const notes = getBodyNotes(path, postTwin)
        op.requestBody = { description: notes.body, content: {} }
        op.description = typeof op.description === 'string' ? `${notes.operation}\n\n${op.description}` : notes.operation
        if (postTwin !== undefined && typeof op.summary === 'string') op.summary = `${op.summary} — GET with a body, for older clients`
      }
    }
    // The POST twin first: it is the one a browser (and "Try it out") can send a body with.
    if (methods.includes('post') && methods.includes('get')) paths[path] = { post: item.post, ...item }
  }

  // Marked schemas become components (the innermost first, so that a component holding
  // another refers to it), every JSON success answer is split into Envelope + fields.
  let finished = rewrite(doc, (node) => {
    const name = node[COMPONENT_MARK]
    if (typeof name !== 'string') return node
    const { [COMPONENT_MARK]: _mark, ...schema } = node
    schemas[name] ??= schema
    return REF(name)
  }) as Record<string, any>
  for (const [name, schema] of Object.entries(schemas)) {
    if (name !== 'Envelope' && name !== 'ErrorEnvelope') schemas[name] = splitEnvelope(schema as Record<string, unknown>)
  }
  for (const item of Object.values(finished.paths as Record<string, Record<string, any>>)) {
    for (const op of Object.values(item)) {
      const ok = op.responses?.['200']?.content?.['application/json']
      if (ok?.schema !== undefined) ok.schema = splitEnvelope(ok.schema)
    }
  }
  finished.components = { ...finished.components, schemas: { ...finished.components?.schemas, ...schemas } }
  // A body's first schema example is the body "Try it out" starts from (Swagger UI
  // otherwise fills every field with "string", which no colour or URL field accepts).
  for (const item of Object.values(finished.paths as Record<string, Record<string, any>>)) {
    for (const op of Object.values(item)) {
      const media = op.requestBody?.content?.['application/json']
      const ref = typeof media?.schema?.$ref === 'string' ? schemas[media.schema.$ref.replace('#/components/schemas/', '')] as Record<string, unknown> : media?.schema
      const examples = (ref as { examples?: unknown[] } | undefined)?.examples
      if (media !== undefined && Array.isArray(examples) && examples.length > 0) media.example = examples[0]
    }
  }
  finished = rewrite(finished, (node) => typeof node.description === 'string' ? { ...node, description: literalAngles(node.description) } : node) as Record<string, any>
  return finished
}

export interface OpenApiOptions { publicUrl: string, version: string }

/** The path of the management API's own document (docs/admin-api.md). */
export const ADMIN_OPENAPI_PATH = '/admin/openapi.json'

declare module 'fastify' {
  interface FastifyInstance {
    /** The management API's OpenAPI document: the routes declaring `admin`, absent from /openapi.json. */
    adminOpenApi (): Record<string, any>
  }
}

const headerName = (name: string): string => name.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('-')

/**
 * The document of the routes declaring `admin`, by the same rules as the public one
 * (finishDocument): components, the envelope, one example per error code.
 */
function adminDocument (routes: readonly RouteOptions[], opts: OpenApiOptions): Record<string, any> {
  const facts = new Map<string, RouteFacts>()
  const paths: Record<string, Record<string, any>> = {}
  for (const route of routes) {
    const s = documented(route.schema ?? {}) as Record<string, any>
    const path = route.url.replace(/:(\w+)/g, '{$1}')
    const inParams = (where: string, schema: Record<string, any> | undefined, named = (n: string) => n) =>
      Object.entries((schema?.properties ?? {}) as Record<string, Record<string, unknown>>).map(([name, p]) => {
        const { description, ...rest } = p
        return { name: named(name), in: where, required: where === 'path' || ((schema?.required ?? []) as string[]).includes(name), ...(description === undefined ? {} : { description }), schema: rest }
      })
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue
      const responses: Record<string, unknown> = {}
      for (const [status, schema] of Object.entries((s.response ?? {}) as Record<string, unknown>)) responses[status] = { description: 'Default Response', content: { 'application/json': { schema } } }
      if (Object.keys(responses).length === 0) responses['200'] = { description: 'Default Response' }
      const operation = {
        summary: s.summary,
        ...(s.description === undefined ? {} : { description: s.description }),
        tags: s.tags,
        parameters: [...inParams('path', s.params), ...inParams('query', s.querystring), ...inParams('header', s.headers, headerName)],
        ...(s.body === undefined ? {} : { requestBody: { content: { 'application/json': { schema: s.body } } } }),
        responses,
        ...(route.config?.admin === 'page' ? {} : { security: [{ operatorToken: [] }] })
      }
      ;(paths[path] ??= {})[method.toLowerCase()] = operation
      facts.set(`${method} ${path}`, { codes: routeErrorCodes(route), images: route.config?.images, cached: false, body: route.config?.body, bytesOnly: false, query: s.querystring })
    }
  }
  const publicPath = new URL(opts.publicUrl).pathname.replace(/\/+$/, '') || '/'
  return finishDocument({
    openapi: '3.1.0',
    info: {
      title: 'Utility Media API: management',
      version: opts.version,
      description: 'The operator\'s API (docs/admin-api.md): keys, usage export, gif moderation, audit log. ' +
        'Every call carries an operator token (`umo_...`, never an API key) as `Authorization: Bearer <token>`, with the scope the operation names. ' +
        'While no operator token exists, every path answers 404.'
    },
    servers: [{ url: publicPath, description: 'This server' }],
    tags: [{ name: 'admin', description: 'The management API' }],
    components: { securitySchemes: { operatorToken: { type: 'http', scheme: 'bearer', description: 'An operator token: `npm run cli -- admin tokens create --name NAME --scope keys,usage,gifs`, or ADMIN_TOKEN' } } },
    paths
  }, facts)
}

/**
 * The reference page's policy: everything from this server, nothing external; `blob:`
 * images because Swagger UI shows image answers as blob URLs. upgrade-insecure-requests
 * only on https: on plain http (an operator's http://myhost:3000) it would send the
 * page's own scripts to an https port nobody listens on.
 */
export function docsContentSecurityPolicy (https: boolean): string {
  return [
    "default-src 'self'",
    "base-uri 'self'",
    "connect-src 'self'",
    "font-src 'self' data:",
    "frame-ancestors 'self'",
    "img-src 'self' data: blob:",
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self'",
    "form-action 'self'",
    ...(https ? ['upgrade-insecure-requests'] : [])
  ].join('; ')
}

export const openApiPlugin = fp(async function openApi (app: FastifyInstance, opts: OpenApiOptions) {
  const facts = new Map<string, RouteFacts>()
  // The first server is this one, wherever the document was loaded from (a relative
  // URL, resolved against the document's address: http://myhost:3000/docs works as
  // well as PUBLIC_URL); PUBLIC_URL's path keeps a server mounted under a prefix right.
  const publicPath = new URL(opts.publicUrl).pathname.replace(/\/+$/, '') || '/'
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Utility Media API',
        version: opts.version,
        description: 'Conversions (HTML and Markdown, images), safe-for-work gifs, image generation and colours. ' +
          'Every call carries an API key in the Authorization header, bare or as `Bearer <key>`. ' +
          'Every JSON answer carries success, code (the HTTP status) and message; every failure is that envelope.'
      },
      servers: [
        { url: publicPath, description: 'This server, at the address this document was loaded from' },
        ...(publicPath === opts.publicUrl ? [] : [{ url: opts.publicUrl, description: 'The public address (PUBLIC_URL)' }])
      ],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Your API key, bare or as `Bearer <key>`' }
        }
      }
    },
    transform ({ schema, url, route }) {
      // The management API has its own document (adminDocument): never in the public one, nor the typed client.
      if (route.config?.admin !== undefined) return { schema: { ...schema, hide: true }, url }
      const s = documented(schema ?? {}) as Record<string, unknown>
      const openApiPath = url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}')
      for (const method of [route.method].flat()) {
        facts.set(`${method} ${openApiPath}`, {
          codes: routeErrorCodes(route),
          images: route.config?.images,
          cached: route.config?.cached === true,
          body: route.config?.body,
          bytesOnly: route.config?.multipart === false,
          query: s.querystring as Record<string, unknown> | undefined
        })
      }
      if (route.config?.public !== true) s.security = [{ apiKey: [] }]
      return { schema: s as typeof schema, url }
    },
    transformObject (documentObject) {
      return finishDocument((documentObject as { openapiObject: Record<string, any> }).openapiObject, facts)
    }
  })
  const adminRoutes: RouteOptions[] = []
  app.addHook('onRoute', function recordAdminRoute (route) {
    if (route.config?.admin !== undefined && route.url !== ADMIN_OPENAPI_PATH) adminRoutes.push(route)
  })
  let admin: Record<string, any> | undefined
  app.decorate('adminOpenApi', () => (admin ??= adminDocument(adminRoutes, opts)))
  // The reference page and its assets are public, like the document itself.
  app.addHook('onRoute', function docsArePublic (route) {
    if (route.url === '/docs' || route.url.startsWith('/docs/')) route.config = { ...route.config, public: true }
  })
  await app.register(async function docsPage (scope) {
    scope.addHook('onSend', async function docsPolicy (request, reply) {
      reply.header('content-security-policy', docsContentSecurityPolicy(request.protocol === 'https'))
    })
    await scope.register(swaggerUi, {
      routePrefix: '/docs',
      // validatorUrl null: no badge fetched from validator.swagger.io (nothing external loads).
      uiConfig: { docExpansion: 'list', deepLinking: true, validatorUrl: null } as Record<string, unknown>,
      // The page is served by us, from the package's own files: nothing external loads.
      staticCSP: false,
      uiHooks: {}
    })
  })
  app.get('/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => app.swagger())
}, { name: 'openapi' })
