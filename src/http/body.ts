// The shared body mechanism, built once for every route (docs/compatibility.md,
// "Bodies"):
// - GET may carry a body (the C# and Rust clients send JSON with GET);
// - a body is read as bytes whatever its declared content type, then decoded by the
//   route's declared mode (route config `body`, see route-config.ts);
// - JSON object keys are matched case-insensitively against the route's body schema
//   (the hosted service is ASP.NET, whose binder ignores case);
// - a JSON `null` is an absent field, at every depth: the hosted service's own C#
//   client sends every field of its classes, `null` where the user set nothing;
// - a body nested deeper than MAX_JSON_DEPTH is refused (400 JSON_TOO_DEEP) before it is
//   walked: a 4 KB body of 2,000 nested arrays overflowed the walk's stack (a 500, issue 35).
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import sjson from 'secure-json-parse'
import { AppError } from '../errors.js'

/**
 * Most levels of objects and arrays a JSON body may nest. The deepest body of this API
 * (/gen/custom's layers and their fields) nests fewer than ten; JSON.parse itself takes
 * any depth, but each level of the walk below is a stack frame.
 */
export const MAX_JSON_DEPTH = 64

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })

export function decodeUtf8 (bytes: Buffer): string {
  try {
    return utf8.decode(bytes)
  } catch {
    throw new AppError('INVALID_UTF8')
  }
}

/**
 * JSON.parse that drops __proto__ and constructor.prototype keys instead of honouring
 * them. Such a key needs the word itself, or a \u escape that could spell it, in the
 * text: without either (three scans of the text, no regular expression), JSON.parse
 * alone gives the same value, and secure-json-parse's own two scans are skipped
 * (measured on a 10 KB Markdown body: bench/text-conversion.bench.ts, docs/performance.md).
 */
function parseJsonText (text: string): unknown {
  if (!text.includes('__proto__') && !text.includes('constructor') && !text.includes('\\u')) return JSON.parse(text)
  return sjson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' })
}

export function parseJson (text: string): unknown {
  try {
    return parseJsonText(text)
  } catch (err) {
    const detail = err instanceof SyntaxError ? `: ${err.message}` : ''
    throw new AppError('MALFORMED_JSON', `The request body is not valid JSON${detail}`)
  }
}

type JsonSchema = {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  additionalProperties?: boolean | JsonSchema
}

/** For each object level of a schema: lower-cased key → declared key, and the child schemas. */
interface KeyMap {
  names: Map<string, string>
  children: Map<string, KeyMap>
  items?: KeyMap
}

const keyMaps = new WeakMap<object, KeyMap | null>()

function buildKeyMap (schema: JsonSchema | undefined, depth = 0): KeyMap | null {
  if (!schema || typeof schema !== 'object' || depth > 16) return null
  const cached = keyMaps.get(schema)
  if (cached !== undefined) return cached
  const map: KeyMap = { names: new Map(), children: new Map() }
  const variants = [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]
  let useful = false
  for (const variant of variants) {
    if (variant.properties) {
      for (const [name, child] of Object.entries(variant.properties)) {
        map.names.set(name.toLowerCase(), name)
        const childMap = buildKeyMap(child, depth + 1)
        if (childMap) map.children.set(name, childMap)
        useful = true
      }
    }
    if (variant.items) {
      const itemsMap = buildKeyMap(variant.items, depth + 1)
      if (itemsMap) { map.items = itemsMap; useful = true }
    }
  }
  const result = useful ? map : null
  keyMaps.set(schema, result)
  return result
}

/**
 * Renames object keys to the spelling the schema declares, ignoring case (others are
 * kept), and drops every object member whose value is null, at every depth.
 */
export function normalizeKeys (value: unknown, schema: unknown, options: { keepNulls?: boolean } = {}): unknown {
  return applyKeyMap(value, buildKeyMap(schema as JsonSchema) ?? undefined, 1, options.keepNulls === true)
}

function applyKeyMap (value: unknown, map: KeyMap | undefined, depth: number, keepNulls = false): unknown {
  if (value === null || typeof value !== 'object') return value
  if (depth > MAX_JSON_DEPTH) {
    throw new AppError('JSON_TOO_DEEP', `The JSON body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep, the most this server reads: send only the fields the endpoint documents (see /docs), none of which nests that deep`, { details: { limit: MAX_JSON_DEPTH } })
  }
  if (Array.isArray(value)) return value.map((v) => applyKeyMap(v, map?.items, depth + 1, keepNulls))
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    if (v === null && !keepNulls) continue
    const declared = map?.names.get(key.toLowerCase()) ?? key
    // An exact spelling wins over a case variant sent beside it (unless it is null).
    if (declared !== key && (value as Record<string, unknown>)[declared] != null) continue
    out[declared] = applyKeyMap(v, map?.children.get(declared), depth + 1, keepNulls)
  }
  return out
}

function decodeBody (request: FastifyRequest): unknown {
  const mode = request.routeOptions.config.body
  const raw = request.body
  if (mode === undefined || mode === 'raw' || !(raw === undefined || Buffer.isBuffer(raw))) return raw
  const text = raw === undefined ? '' : decodeUtf8(raw)
  const schema = request.routeOptions.schema?.body
  if (mode === 'json' || mode === 'json-with-nulls') {
    if (text.trim() === '') return {}
    // A body of `null` is no body, as a null field is no field (in 'json' mode).
    return normalizeKeys(parseJson(text), schema, { keepNulls: mode === 'json-with-nulls' }) ?? {}
  }
  // json-or-text
  const trimmed = text.trim()
  if (trimmed === '') return ''
  const first = trimmed[0]
  if (first === '{' || first === '[' || first === '"') {
    let parsed: unknown
    try {
      parsed = parseJsonText(trimmed)
    } catch {
      // Not JSON after all: the text itself.
      return text
    }
    // JSON, but nested too deep: refused as in the json mode, not read as text.
    return normalizeKeys(parsed, schema)
  }
  return text
}

function decodeHook (request: FastifyRequest, _reply: unknown, done: (err?: Error) => void): void {
  try {
    request.body = decodeBody(request)
    done()
  } catch (err) {
    done(err as Error)
  }
}

export const bodyPlugin = fp(async function body (app: FastifyInstance) {
  // Every body is read as bytes, within the route's body limit, whatever its content
  // type; the route's mode decides what the bytes mean.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer' }, function readBytes (_request, bytes, done) {
    done(null, bytes)
  })
  // Only routes that declare a mode pay for decoding.
  app.addHook('onRoute', function addDecoder (route) {
    const mode = route.config?.body
    if (mode === undefined || mode === 'raw') return
    const existing = route.preValidation === undefined ? [] : Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation]
    route.preValidation = [decodeHook, ...existing]
  })
}, { name: 'body' })
