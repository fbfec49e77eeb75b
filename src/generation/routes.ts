// HTTP for image generation: /gen/{template}, /gen/custom, the four /list endpoints and
// public previews of banners and icons, over the generation service (service.ts), which
// does what they answer. Fields come from the query string and from a JSON body (GET or
// POST, any content type: docs/compatibility.md, "Bodies"); the body wins where both
// give a field, and keys are matched case-insensitively.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { Envelope, ok } from '../http/envelope.js'
import { closedSet, component } from '../http/openapi-annotations.js'
import { BANNERS, ICONS } from './assets/art.js'
import { CUSTOM_BODY_LIMIT } from './custom/custom-limits.js'
import { CustomBodySchema } from './custom/custom-schema.js'
import { CONTENT_TYPES, OUTPUT_FORMATS } from './canvas/draw.js'
import { DEFAULT_MAX_BYTES, MIN_MAX_BYTES } from './pipeline/output-budget.js'
import { type Caller, type GenerationService, LIST_KINDS, type Picture } from './service.js'
import { MAX_FIELD_LENGTH, templateByName, TEMPLATES, type TemplateFields } from './template-registry.js'

export interface GenerationOptions {
  /** What the routes do (service.ts), built by src/app.ts. */
  service: GenerationService
}

const FIELD_NAMES = [...new Set(TEMPLATES.flatMap((t) => Object.keys(t.fields)))].sort()
/** Fields whose value is JSON (FieldDoc.json): a body's JSON value reaches the template as its JSON text. */
const JSON_FIELDS = new Set(FIELD_NAMES.filter((name) => TEMPLATES.some((t) => t.fields[name]?.json === true)))
/** Fields of several values (FieldDoc.list): a body's array reaches the template as its JSON text too (listValues). */
const LIST_FIELDS = new Set(FIELD_NAMES.filter((name) => TEMPLATES.some((t) => t.fields[name]?.list === true)))

/** A field's documentation: which templates read it, and what it means to each. */
function fieldDescription (name: string): string {
  const uses = TEMPLATES.filter((t) => t.fields[name] !== undefined)
  const texts = new Set(uses.map((t) => t.fields[name]!.description))
  const defaults = new Set(uses.map((t) => t.fields[name]!.default))
  if (texts.size > 1 || defaults.size > 1) {
    return uses.map((t) => `${t.name}: ${t.fields[name]!.description}${t.fields[name]!.default ? ` (default ${t.fields[name]!.default})` : ''}`).join('; ')
  }
  const where = uses.length === TEMPLATES.length ? '' : `(${uses.map((t) => t.name).join(', ')}) `
  const only = [...defaults][0]
  return `${where}${[...texts][0]}${only ? `. Default: ${only}` : ''}`
}

/** The hosted names of banners and icons are a closed set; a URL works too. */
const ASSET_FIELDS: Record<string, () => readonly string[]> = { banner: () => Object.keys(BANNERS), icon: () => Object.keys(ICONS) }

/** What was done to keep a picture within max_bytes or its frame budget (output-budget.ts). */
export const REDUCED_HEADER = 'x-image-reduced'
/**
 * The parameters of a /gen/{template} request the template does not read: accepted, as
 * existing clients send fields of their own (docs/compatibility.md), and named here so
 * that a misspelt one (colour_bar, Username2) is seen.
 */
export const IGNORED_HEADER = 'x-ignored-parameters'
/** The fields every template reads beside its own (service.ts). */
const COMMON_FIELDS: ReadonlySet<string> = new Set(['output', 'format', 'animated', 'max_bytes'])
/** At most this many names in X-Ignored-Parameters, each cut to MAX_IGNORED_NAME characters. */
const MAX_IGNORED_NAMES = 20
const MAX_IGNORED_NAME = 64

/**
 * The X-Ignored-Parameters value for `names` (lower-cased keys a template does not read),
 * or undefined when there is none: each name percent-encoded (a header holds visible ASCII
 * only, and a comma separates the names), at most MAX_IGNORED_NAMES, then how many more.
 */
export function ignoredParameters (names: readonly string[]): string | undefined {
  if (names.length === 0) return undefined
  const shown = names.slice(0, MAX_IGNORED_NAMES).map((n) => encodeURIComponent(n.slice(0, MAX_IGNORED_NAME)).replace(/'/g, '%27'))
  if (names.length > MAX_IGNORED_NAMES) shown.push(`(${names.length - MAX_IGNORED_NAMES} more)`)
  return shown.join(', ')
}

const OutputSchema = (description: string) => Type.Optional(closedSet(Type.String({ maxLength: MAX_FIELD_LENGTH, description }), { values: () => OUTPUT_FORMATS }))
/**
 * A field that is a number, sent as a JSON number or as a string (the hosted service's
 * clients send every field as a string, and query parameters are strings). The string
 * comes first: with Ajv's coercion a JSON number becomes its string, as it did when every
 * field was a string, so templates read strings either way.
 */
const NumberField = (description: string) => Type.Union([Type.String({ maxLength: MAX_FIELD_LENGTH }), Type.Number()], { description })
/**
 * A JSON field (the leaderboard's players): a JSON array in a body, or its JSON text (a
 * query parameter). Only its shape is declared here: the template checks every value
 * and names the bad one (`players[3].xp`).
 */
const JsonField = (description: string) => Type.Union([
  Type.Array(Type.Object({
    username: Type.Optional(Type.String()),
    display_name: Type.Optional(Type.String()),
    avatar: Type.Optional(Type.String()),
    level: Type.Optional(Type.Union([Type.Number(), Type.String()])),
    xp: Type.Optional(Type.Union([Type.Number(), Type.String()])),
    value: Type.Optional(Type.Union([Type.Number(), Type.String()])),
    label: Type.Optional(Type.String()),
    rank: Type.Optional(Type.Union([Type.Integer(), Type.String()])),
    id: Type.Optional(Type.String())
  }, { additionalProperties: true })),
  // Second: a bad player in an array is then named by the array's error (`players.0.username`).
  // Its length is checked by the template (at most MAX_PLAYERS_JSON_LENGTH, the 400 naming
  // `players`), within the route's body limit.
  Type.String()
], { description })
/**
 * A JSON field in the query string: its JSON text, a string. Documented so, not as the
 * body's array: Swagger UI's "Try it out" fills a query parameter whose schema is an array
 * of objects with a sample made from that schema, and so would send `players` with every
 * template (/docs, docs/generation.md); the POST body keeps the array and its example.
 */
const JsonTextField = (description: string) => Type.String({ contentMediaType: 'application/json', description })
/**
 * A list field (a profile's badges) in a body: an array of strings, or the values
 * separated by commas as in the query string (which keeps the string alone: see
 * JsonTextField). The array comes first, so that a bad item is named by its place
 * (`badges.2`); the template checks how many there are and what each names.
 */
const ListField = (description: string) => Type.Union([
  Type.Array(Type.String({ maxLength: MAX_FIELD_LENGTH })),
  Type.String({ maxLength: MAX_FIELD_LENGTH })
], { description })
/** The template fields, as a JSON body (`body`) or as query parameters (`query`), which differ in JSON fields only. */
function templateFields (where: 'body' | 'query') {
  return Type.Object({
    output: OutputSchema('png, jpg, webp or gif (each template has its default: png); gif and webp move when an image does (animated)'),
    format: OutputSchema('The same as output'),
    animated: Type.Optional(closedSet(Type.String({ maxLength: MAX_FIELD_LENGTH, description: 'auto (default: the picture moves when an avatar, banner or icon is an animated GIF or WebP and output is gif or webp), true (the same; refused for png and jpg), false (a still: the first frames)' }), { values: () => ['auto', 'true', 'false'] })),
    max_bytes: Type.Optional(NumberField(`Largest answer in bytes, ${MIN_MAX_BYTES}..${DEFAULT_MAX_BYTES} (default ${DEFAULT_MAX_BYTES}): a larger picture gets fewer colours (or a lower quality), then fewer frames, then a smaller scale, then becomes a still, as the X-Image-Reduced header says`)),
    ...Object.fromEntries(FIELD_NAMES.map((name) => {
      if (TEMPLATES.some((t) => t.fields[name]?.numeric === true)) return [name, Type.Optional(NumberField(fieldDescription(name)))]
      if (JSON_FIELDS.has(name)) return [name, Type.Optional(where === 'body' ? JsonField(fieldDescription(name)) : JsonTextField(fieldDescription(name)))]
      if (LIST_FIELDS.has(name) && where === 'body') return [name, Type.Optional(ListField(fieldDescription(name)))]
      const field = Type.String({ maxLength: MAX_FIELD_LENGTH, description: fieldDescription(name) })
      const names = ASSET_FIELDS[name]
      if (names !== undefined) return [name, Type.Optional(closedSet(field, { values: names, orUrl: true }))]
      // Every template's values of a field they share (status, theme), as one set.
      const sets = TEMPLATES.flatMap((t) => t.fields[name]?.values ?? [])
      const otherSpellings = TEMPLATES.map((t) => t.fields[name]?.otherSpellings).find((s) => s !== undefined)
      return [name, Type.Optional(sets.length === 0 ? field : closedSet(field, { values: () => [...new Set(sets.flatMap((values) => values()))], otherSpellings }))]
    }))
  }, {
    additionalProperties: true,
    description: 'Every field is a string, or a number where it is one (level, xp, max_bytes…); each template reads its own (see each field)',
    // The body's examples: the one "Try it out" starts a POST from (src/http/openapi.ts).
    // None for the query parameters: what the user fills in is what is sent.
    ...(where === 'body' ? { examples: [{ username: 'Ada', members: 'Member #42', banner: 'space', icon: 'star', output: 'png' }, ...TEMPLATES.flatMap((t) => t.example === undefined ? [] : [t.example])] } : {})
  })
}
export const FieldsSchema = component('TemplateFields', templateFields('body'))
const QueryFieldsSchema = templateFields('query')
const ListSchema = Envelope({ list: Type.Array(Type.String()) })
const IMAGE_TYPES = [...new Set(Object.values(CONTENT_TYPES))]
const IMAGE_DESCRIPTION = 'The image bytes (image/png, image/jpeg, image/webp or image/gif as asked by `output` or `format`; an animated GIF or WebP when an image moves, see `animated`), at most `max_bytes`, with X-Image-Reduced naming what was reduced to stay within it (colours, quality, frames, scale, still); errors are JSON envelopes'
const IGNORED_DESCRIPTION = 'A parameter the template does not read is accepted and named in the X-Ignored-Parameters header (comma-separated, percent-encoded, lower-cased), also on error answers'

/** Units of a key's rate limit and quota one drawn image costs. */
export const GENERATION_COST = 5
/** Units a picture costs when it is served without drawing: from the result cache, from another request's drawing, or a 304. */
export const SERVED_FROM_CACHE_COST = 1
/** `miss` when this request drew its picture, `hit` when it was served from the cache or another request's drawing. */
export const CACHE_HEADER = 'x-cache'

/** The request as the service sees it: whose, until when it is wanted, how long it has run. */
function callerOf (reply: FastifyReply): Caller {
  let signal: AbortSignal | undefined
  return {
    owner: reply.request.apiKey?.id,
    // Asked for only when the work starts, and once (each call makes a new one, and only
    // the last fires): a request refused by its checks, or a preview kept, never pays
    // for a deadline signal (src/access/request-gate.ts).
    get signal () { return (signal ??= reply.workSignal()) },
    elapsedMs: () => reply.elapsedTime,
    ifNoneMatch: reply.request.headers['if-none-match']
  }
}

/**
 * The picture as the answer: its content type, X-Image-Reduced naming what was reduced,
 * X-Cache and its ETag, or 304 when the client has it. A request answered meanwhile (its
 * deadline) or whose client left is left as it is.
 */
async function sendPicture (reply: FastifyReply, make: (caller: Caller) => Promise<Picture>): Promise<FastifyReply> {
  let picture: Picture
  try {
    picture = await make(callerOf(reply))
  } catch (err) {
    if (reply.sent || reply.raw.destroyed) return reply
    throw err
  }
  // A picture served without drawing (the cache, a 304) costs one unit (docs/result-cache.md, "What it costs").
  if (picture.kind === 'not-modified' || picture.cache === 'hit') reply.servedCost = SERVED_FROM_CACHE_COST
  if (picture.kind === 'not-modified') return reply.code(304).header('etag', picture.etag).header(CACHE_HEADER, 'hit').send()
  const { encoded } = picture
  if (encoded.reduced.length > 0) void reply.header(REDUCED_HEADER, encoded.reduced.join(','))
  if (picture.etag !== undefined) void reply.header('etag', picture.etag)
  return reply.header(CACHE_HEADER, picture.cache).type(CONTENT_TYPES[picture.format]).send(encoded.bytes)
}

export const generationRoutes: FastifyPluginAsyncTypebox<GenerationOptions> = async (app, { service }) => {
  app.route({
    method: ['GET', 'POST'],
    url: '/gen/:template',
    exposeHeadRoute: false,
    // Drawing is CPU work: it costs more of a key's rate limit (docs/keys.md, "Rate limits, quotas and costs").
    config: { body: 'json', cost: GENERATION_COST, linkable: true, images: IMAGE_TYPES, cached: true, errors: ['TEMPLATE_NOT_FOUND', 'UNKNOWN_ASSET', 'UNKNOWN_FONT', 'UNKNOWN_LOCALE', 'INVALID_COLOR', 'REMOTE_FETCH_REFUSED', 'REMOTE_FETCH_FAILED', 'REMOTE_FETCH_TOO_LARGE', 'REMOTE_FETCH_TIMEOUT', 'REMOTE_IMAGE_INVALID', 'GEN_BUDGET_EXCEEDED', 'RENDER_BUSY', 'TIMEOUT', 'WORK_TOO_LARGE'] },
    schema: {
      tags: ['generation'],
      summary: `Draw a template (${TEMPLATES.map((t) => t.name).join(', ')})`,
      description: `Fields as query parameters or a JSON body (GET or POST). ${IMAGE_DESCRIPTION}. ${IGNORED_DESCRIPTION}. Templates: ${TEMPLATES.map((t) => `\`${t.name}\` (${t.summary})`).join('; ')}.`,
      params: Type.Object({ template: closedSet(Type.String({ description: 'A name from /list/templates' }), { values: () => TEMPLATES.map((t) => t.name) }) }),
      querystring: QueryFieldsSchema,
      body: FieldsSchema
    },
    async handler (request, reply) {
      const fields: TemplateFields = {}
      const ignored = new Set<string>()
      const template = templateByName(request.params.template)
      for (const source of [request.query as Record<string, unknown>, (request.body ?? {}) as Record<string, unknown>]) {
        for (const [key, value] of Object.entries(source)) {
          const name = key.toLowerCase()
          if (template !== undefined && !COMMON_FIELDS.has(name) && !Object.hasOwn(template.fields, name)) ignored.add(name)
          if (typeof value === 'string' || typeof value === 'number') fields[name] = String(value)
          else if (typeof value === 'object' && value !== null && (JSON_FIELDS.has(name) || LIST_FIELDS.has(name))) fields[name] = JSON.stringify(value)
        }
      }
      const named = ignoredParameters([...ignored])
      if (named !== undefined) void reply.header(IGNORED_HEADER, named)
      return await sendPicture(reply, async (caller) => await service.template(request.params.template, fields, caller))
    }
  })

  app.route({
    method: ['GET', 'POST'],
    url: '/gen/custom',
    exposeHeadRoute: false,
    bodyLimit: CUSTOM_BODY_LIMIT,
    config: { body: 'json', cost: GENERATION_COST, linkable: true, images: IMAGE_TYPES, cached: true, bodyTooLarge: 'use image URLs instead of embedding data', errors: ['GEN_LIMIT_EXCEEDED', 'UNKNOWN_ASSET', 'UNKNOWN_FONT', 'INVALID_COLOR', 'REMOTE_FETCH_REFUSED', 'REMOTE_FETCH_FAILED', 'REMOTE_FETCH_TOO_LARGE', 'REMOTE_FETCH_TIMEOUT', 'REMOTE_IMAGE_INVALID', 'GEN_BUDGET_EXCEEDED', 'RENDER_BUSY', 'TIMEOUT', 'WORK_TOO_LARGE'] },
    schema: {
      tags: ['generation'],
      summary: 'Draw a layered custom image',
      description: `A base (rectangle or image), image elements and texts, drawn in order. ${IMAGE_DESCRIPTION}. See docs/generation.md for every field and limit.`,
      body: CustomBodySchema
    },
    async handler (request, reply) {
      return await sendPicture(reply, async (caller) => await service.custom(request.body ?? {}, caller))
    }
  })

  for (const kind of LIST_KINDS) {
    app.get(`/list/${kind}`, {
      schema: { tags: ['lists'], summary: `The ${kind} /gen accepts`, response: { 200: ListSchema } }
    }, async () => ok({ list: service.list(kind) }))
  }

  for (const kind of ['banner', 'icon'] as const) {
    app.get(`/assets/${kind}s/:name`, {
      config: { public: true, anyOrigin: true, images: ['image/png'], errors: ['ASSET_NOT_FOUND', 'RENDER_BUSY', 'TIMEOUT'] },
      schema: {
        tags: ['generation'],
        summary: `Preview of a ${kind} (PNG, public)`,
        description: `The ${kind} as a PNG image, without an API key, so it can be linked from chat embeds.`,
        params: Type.Object({ name: Type.String({ description: `A name from /list/${kind}s, optionally ending in .png` }) })
      }
    }, async (request, reply) => {
      const name = request.params.name.replace(/\.png$/i, '')
      const png = await service.preview(kind, name, callerOf(reply))
      return reply.type('image/png').header('cache-control', 'public, max-age=3600').send(png)
    })
  }
}
