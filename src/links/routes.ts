// Signed links (docs/links.md): POST /links mints one; GET /l/... serves one with no
// header. A link names a request of a linkable route (route config `linkable`) and the
// key it runs as; serving it replays that request through the whole request path as the
// key (app.inject with the process's internal credential: src/access/internal-credential.ts),
// so the route's auth, rate limit, quota, usage, deadline and error envelope apply as to
// the keyed request, and /l itself is free. In order: the link's form, its signature
// (403 before any work or write), its expiry (410), the key's state (within
// KEY_CACHE_TTL_MS, the key cache's), then the request.
import { createHash } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest, InjectOptions, LightMyRequestResponse } from 'fastify'
import { Type } from 'typebox'
import { AppError } from '../errors.js'
import { Envelope, ok } from '../http/envelope.js'
import { REQUEST_ID_HEADER } from '../http/request-id.js'
import { INTERNAL_CREDENTIAL_HEADER, type InternalCredential } from '../access/internal-credential.js'
import { type LinkSigner, linkSignature, signedMessage } from '../access/link-secrets.js'
import type { ApiKeyRecord, KeyStore, MintedLinkStore } from '../store/interface.js'
import { MAX_LINK_LENGTH, MAX_MINTED_URL_LENGTH, mintedId, mintedIdOf, parseLink, type TargetRequest, targetRequest, targetWithBody } from './link-path.js'

export interface LinkOptions {
  /** Undefined: links are off (DATABASE_URL without LINK_SIGNING_KEYS), and answer 503 LINKS_NOT_CONFIGURED. */
  signer: LinkSigner | undefined
  publicUrl: string
  keys: KeyStore
  minted: MintedLinkStore
  internal: InternalCredential
  /** The root app's inject: the replay enters the request path at its start. */
  inject: (options: InjectOptions) => Promise<LightMyRequestResponse>
  /** Seconds since the epoch (tests set their own). */
  nowSeconds?: () => number
}

/** The linked request's answer: what a link passes on of it. */
interface Replayed {
  statusCode: number
  headers: LightMyRequestResponse['headers']
  rawPayload: Buffer
}

/** Longest expires_in: ten years. A link that should not end is minted without one. */
export const MAX_EXPIRES_IN = 10 * 365 * 86_400
/** Largest POST /links body: a /gen/custom description within it, as a stored link. */
export const MINT_BODY_LIMIT = 256 * 1024
/** max-age of a link that never expires (RFC 8246: with immutable, a year is the conventional "for ever"). */
const YEAR_SECONDS = 31_536_000

/** Headers of the target's answer that the link's answer carries too. */
const FORWARDED = ['content-type', 'etag', 'last-modified', 'x-cache', 'x-image-reduced', 'retry-after',
  'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'ratelimit-policy',
  'x-quota-limit', 'x-quota-remaining', 'x-quota-reset', 'x-credits-remaining'] as const

/**
 * What the linked request itself can answer, which the link's answer passes on unchanged:
 * the picture routes' own errors (src/generation/routes.ts) and the key's limits.
 */
const TARGET_ERRORS = ['TEMPLATE_NOT_FOUND', 'UNKNOWN_ASSET', 'UNKNOWN_FONT', 'INVALID_COLOR', 'GEN_LIMIT_EXCEEDED', 'REMOTE_FETCH_REFUSED',
  'REMOTE_FETCH_FAILED', 'REMOTE_FETCH_TOO_LARGE', 'REMOTE_FETCH_TIMEOUT', 'REMOTE_IMAGE_INVALID', 'GEN_BUDGET_EXCEEDED', 'RENDER_BUSY',
  'WORK_TOO_LARGE', 'RATE_LIMITED', 'QUOTA_EXCEEDED', 'CREDITS_EXHAUSTED', 'SERVICE_UNAVAILABLE', 'STORE_UNAVAILABLE', 'VALIDATION', 'MALFORMED_JSON'] as const
const LinkErrors = ['LINK_MALFORMED', 'LINK_TOO_LONG', 'LINK_INVALID', 'LINK_EXPIRED', 'LINK_KEY_REFUSED', 'LINK_NOT_FOUND', 'LINK_BODY_INVALID',
  'LINK_NOT_LINKABLE', 'LINKS_NOT_CONFIGURED', ...TARGET_ERRORS] as const

const MintBodySchema = Type.Object({
  path: Type.String({ minLength: 1, maxLength: MAX_LINK_LENGTH, description: 'The keyed request\'s path and query, as you would send it: "/gen/welcome?username=Ana&avatar=https%3A%2F%2F…"', examples: ['/gen/welcome?username=Ana&members=Member%20%2342'] }),
  body: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'The JSON body of a route that takes one (/gen/custom): the link carries it as ?body= base64url of its JSON text' })),
  expires_in: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_EXPIRES_IN, description: 'Seconds until the link stops working (410); absent: never' }))
})

export const MintedSchema = Envelope({
  url: Type.String({ description: `The link: absolute, under PUBLIC_URL, at most ${MAX_MINTED_URL_LENGTH} characters; no header needed to fetch it` }),
  expires_at: Type.Union([Type.Null(), Type.String({ format: 'date-time' })], { description: 'When the link stops working (RFC 3339, UTC); null: never' })
})

export const linkRoutes: FastifyPluginAsyncTypebox<LinkOptions> = async (app, opts) => {
  const { signer, publicUrl, keys, minted, internal, inject } = opts
  const nowSeconds = opts.nowSeconds ?? (() => Math.floor(Date.now() / 1000))
  const base = publicUrl.replace(/\/+$/, '')

  function on (): LinkSigner {
    if (signer === undefined) throw new AppError('LINKS_NOT_CONFIGURED')
    return signer
  }

  /**
   * The request as the key, through the whole request path. The answer is read as a
   * stream and its bytes gathered: inject's default also decodes every answer into a
   * string (its `payload`), which for a picture of 200 KB cost more than the rest of
   * the link's path together (docs/performance.md).
   */
  async function replay (key: ApiKeyRecord, target: TargetRequest, request: FastifyRequest, ifNoneMatch?: string): Promise<Replayed> {
    const headers: Record<string, string> = { [INTERNAL_CREDENTIAL_HEADER]: internal.value(key.hash), [REQUEST_ID_HEADER]: request.id }
    if (target.body !== undefined) headers['content-type'] = 'application/json'
    if (ifNoneMatch !== undefined) headers['if-none-match'] = ifNoneMatch
    const answer = await inject({ method: target.method, url: target.url, headers, payloadAsStream: true, ...(target.body === undefined ? {} : { payload: target.body }) })
    const chunks: Buffer[] = []
    for await (const chunk of answer.stream()) chunks.push(chunk as Buffer)
    return { statusCode: answer.statusCode, headers: answer.headers, rawPayload: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }
  }

  /** The target's answer as the link's: its status, the headers clients read, its bytes. */
  function forward (reply: FastifyReply, answer: Replayed): FastifyReply {
    void reply.code(answer.statusCode)
    for (const name of FORWARDED) {
      const value = answer.headers[name]
      if (value !== undefined) void reply.header(name, value)
    }
    return reply
  }

  app.post('/links', {
    // Free: the request it runs once at minting is counted as the keyed request it is.
    config: { cost: 0, body: 'json', errors: [...LinkErrors] },
    bodyLimit: MINT_BODY_LIMIT,
    schema: {
      tags: ['links'],
      summary: 'Mint a signed link to a picture, fetchable with no header (for chat embeds)',
      description: 'Runs the request once as your key (it is drawn and counted now, and a request that would be refused is refused now, with the same error), then answers a link anyone can fetch until it expires. Every /gen/{template} and /gen/custom request can be linked, in every output format, and the image conversions of a URL (/convert/image-png, -jpg and -webp with url=). A request too long for a short link is kept by the server and linked by id. Links made with a secret that was rolled stop working. See docs/links.md, which also shows how to sign links yourself with no call at all.',
      body: MintBodySchema,
      response: { 200: MintedSchema }
    }
  }, async (request, reply) => {
    const linkSigner = on()
    const key = request.apiKey!
    const { path, body, expires_in: expiresIn } = request.body
    if (!path.startsWith('/') || path.startsWith('//')) {
      throw new AppError('VALIDATION', `"path" must be a path of this server starting with one "/", such as /gen/welcome?username=Ana, not "${path.slice(0, 40)}"`, { details: { field: 'path' } })
    }
    if (body !== undefined && /[?&]body=/.test(path)) throw new AppError('VALIDATION', 'Send the body either as "body" or in the path\'s body= parameter, not both', { details: { field: 'body' } })
    const target = body === undefined ? path : targetWithBody(path, body)
    const answer = await replay(key, targetRequest(target), request)
    if (answer.statusCode >= 300) {
      return forward(reply, answer).send(answer.rawPayload)
    }
    const expires = expiresIn === undefined ? 0 : nowSeconds() + expiresIn
    const url = (t: string): string => `${base}/l/${key.linkId}/${expires}/${linkSignature(linkSigner.secret(key), signedMessage(key.linkId, expires, t))}${t}`
    let link = url(target)
    if (link.length > MAX_MINTED_URL_LENGTH) {
      const id = mintedIdOf(key.id, target)
      await minted.save({ id, keyId: key.id, target })
      link = url(`/m/${id}`)
    }
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'ratelimit-policy', 'x-quota-limit', 'x-quota-remaining', 'x-quota-reset'] as const) {
      const value = answer.headers[name]
      if (value !== undefined) void reply.header(name, value)
    }
    return ok({ url: link, expires_at: expires === 0 ? null : new Date(expires * 1000).toISOString() })
  })

  app.route({
    method: ['GET', 'HEAD'],
    url: '/l/*',
    exposeHeadRoute: false,
    // No key (the link is the credential) and free: the target's request is counted to the link's key.
    config: { public: true, anyOrigin: true, cost: 0, rateLimit: false, images: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'], errors: [...LinkErrors] },
    schema: {
      tags: ['links'],
      summary: 'A signed link: the picture it names, with no header',
      description: 'The path is /l/{linkId}/{expires}/{signature}{target}, as POST /links answers it or a signer makes it (docs/links.md). 403 when the signature does not match (before any work), 410 once expired, 403 when the key that made it is disabled or revoked; otherwise the picture, or the error the keyed request would get. A link that never expires is cacheable for a year (immutable), an expiring one until it expires; ETag and If-None-Match (304) as on the keyed request.',
      params: Type.Object({ '*': Type.String({ description: '{linkId}/{expires}/{signature}{target}' }) })
    },
    handler: async (request, reply) => {
      void reply.header('cache-control', 'no-store')
      const link = parseLink(request.raw.url ?? '')
      const linkSigner = on()
      const key = await keys.findByLinkId(link.linkId)
      // An unknown link id is answered as a wrong signature: nothing tells the two apart.
      if (key === undefined || !linkSigner.verify(key, signedMessage(link.linkId, link.expires, link.target), link.signature)) throw new AppError('LINK_INVALID')
      const expires = Number(link.expires)
      const now = nowSeconds()
      if (expires !== 0 && expires <= now) throw new AppError('LINK_EXPIRED', `The link expired at ${new Date(expires * 1000).toISOString()}: ask its owner for a new one`)
      if (key.status !== 'active') throw new AppError('LINK_KEY_REFUSED')
      let target = link.target
      const storedId = mintedId(target)
      if (storedId !== undefined) {
        const stored = await minted.get(storedId)
        if (stored === undefined || stored.keyId !== key.id) throw new AppError('LINK_NOT_FOUND')
        target = stored.target
      }
      const ifNoneMatch = typeof request.headers['if-none-match'] === 'string' ? request.headers['if-none-match'] : undefined
      const answer = await replay(key, targetRequest(target), request, ifNoneMatch)
      // The deadline answered first (REQUEST_TIMEOUT_MS), or the client left.
      if (reply.sent) return reply
      // The key was revoked or disabled between the look-up by link id above and the
      // replay's own key check (two caches, each up to KEY_CACHE_TTL_MS old): a link
      // answers that as its own refusal, never as a keyed request's 401.
      if (answer.statusCode === 401) throw new AppError('LINK_KEY_REFUSED')
      forward(reply, answer)
      if (answer.statusCode !== 200 && answer.statusCode !== 304) return reply.send(answer.rawPayload)
      void reply.header('cache-control', expires === 0 ? `public, max-age=${YEAR_SECONDS}, immutable` : `public, max-age=${expires - now}`)
      if (answer.statusCode === 304) return reply.send()
      // The target gave no ETag: a strong one from the bytes.
      const etag = answer.headers.etag === undefined ? `"${createHash('sha256').update(answer.rawPayload).digest('base64url')}"` : String(answer.headers.etag)
      void reply.header('etag', etag)
      if (ifNoneMatch !== undefined && matches(ifNoneMatch, etag)) return reply.code(304).send()
      return reply.send(answer.rawPayload)
    }
  })
}

/** RFC 9110 §13.1.2: If-None-Match compares weakly; "*" matches any current answer. */
function matches (header: string, etag: string): boolean {
  const bare = etag.replace(/^W\//, '')
  return header.split(',').some((tag) => {
    const t = tag.trim()
    return t === '*' || t.replace(/^W\//, '') === bare
  })
}
