// GET /me: what a key's owner may know about it: its name, limits, quota left, usage.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Config } from '../config.js'
import { Envelope, ok } from '../http/envelope.js'
import { periodEnd, type UsageRecorder, utcDay } from '../access/usage-recorder.js'
import type { Store } from '../store/interface.js'
import { AppError } from '../errors.js'
import type { LinkSigner } from '../access/link-secrets.js'
import { daysAgo, readUsage, sumByGroup } from './usage-report.js'

/** How far back /me reports usage. */
export const USAGE_REPORT_DAYS = 30

const LinksSchema = Type.Object({
  id: Type.String({ description: 'The key\'s link id: the first part of every link it signs (public)' }),
  secret: Type.String({ description: 'The key\'s link secret: signs links with no call (docs/links.md). Keep it as secret as the key; POST /me/links/roll replaces it' })
})

const GroupUsageSchema = Type.Record(Type.String(), Type.Object({ requests: Type.Integer(), units: Type.Integer() }))

export const MeSchema = Envelope({
  // The JS, Rust and C# clients read `id` and `created`; the Rust client parses `created`
  // strictly as RFC 3339 (docs/compatibility.md, "/me").
  id: Type.String({ description: 'The key\'s id (not the key)' }),
  created: Type.String({ format: 'date-time', description: 'When the key was created, RFC 3339 in UTC' }),
  name: Type.String({ description: 'The key\'s name' }),
  prefix: Type.String({ description: 'The first characters of the key' }),
  createdAt: Type.String({ format: 'date-time', description: 'The same as created' }),
  rateLimit: Type.Object({
    max: Type.Integer({ description: 'Units per window' }),
    windowSeconds: Type.Integer(),
    own: Type.Boolean({ description: 'false when the service default applies' })
  }),
  quota: Type.Union([Type.Null(), Type.Object({
    max: Type.Integer(),
    period: Type.Union([Type.Literal('day'), Type.Literal('month')]),
    used: Type.Integer(),
    remaining: Type.Integer(),
    resetsInSeconds: Type.Integer()
  })]),
  usage: Type.Object({
    today: GroupUsageSchema,
    last30Days: GroupUsageSchema
  }, { description: 'Requests and cost units per endpoint group (UTC days)' }),
  links: Type.Union([Type.Null(), LinksSchema], { description: 'What signs links to pictures with no call (docs/links.md); null while the operator has links off' })
})

export const RolledSchema = Envelope({ links: LinksSchema })

export interface AccountOptions {
  config: Config
  usage: UsageRecorder
  store: Store
  /** Undefined while links are off (src/access/link-secrets.ts, loadLinkKeys). */
  links: LinkSigner | undefined
}

export const accountRoutes: FastifyPluginAsyncTypebox<AccountOptions> = async (app, { config, usage, store, links }) => {
  app.get('/me', {
    // Free: a key over its limit can still look at its state.
    config: { cost: 0 },
    schema: {
      tags: ['account'],
      summary: 'Your key: name, limits, quota left and usage',
      response: { 200: MeSchema }
    }
  }, async (request) => {
    const key = request.apiKey!
    const now = Date.now()
    // Counted usage is written in batches: include what is still pending.
    await usage.flush()
    const entries = await readUsage(store.usage, { keyId: key.id, from: daysAgo(now, USAGE_REPORT_DAYS - 1), to: utcDay(now) })
    let quota = null
    if (key.limits.quotaMax != null && key.limits.quotaPeriod != null) {
      const period = key.limits.quotaPeriod
      const used = await usage.quotaUsed(key.id, period, now)
      quota = {
        max: key.limits.quotaMax,
        period,
        used,
        remaining: Math.max(0, key.limits.quotaMax - used),
        resetsInSeconds: Math.ceil((periodEnd(period, now) - now) / 1000)
      }
    }
    const created = key.createdAt.toISOString()
    return ok({
      id: String(key.id),
      created,
      name: key.name,
      prefix: key.prefix,
      createdAt: created,
      rateLimit: {
        max: key.limits.rateMax ?? config.rateLimitMax,
        windowSeconds: Math.round((key.limits.rateWindowMs ?? config.rateLimitWindowMs) / 1000),
        own: key.limits.rateMax != null
      },
      quota,
      usage: { today: sumByGroup(entries, utcDay(now)), last30Days: sumByGroup(entries) },
      links: links === undefined ? null : { id: key.linkId, secret: links.secret(key) }
    })
  })

  app.post('/me/links/roll', {
    config: { cost: 0, errors: ['LINKS_NOT_CONFIGURED'] },
    schema: {
      tags: ['account'],
      summary: 'Replace your key\'s link secret: every link signed with the old one stops working',
      description: 'Answers the new secret. Links minted or signed before stop working at once on this instance, and on the others within KEY_CACHE_TTL_MS (403 LINK_INVALID); the key itself and its link id stay the same.',
      response: { 200: RolledSchema }
    }
  }, async (request) => {
    if (links === undefined) throw new AppError('LINKS_NOT_CONFIGURED')
    const rolled = await store.keys.rollLinkSeed(request.apiKey!.id)
    if (rolled === undefined) throw new AppError('AUTH_UNKNOWN_KEY')
    return ok({ links: { id: rolled.linkId, secret: links.secret(rolled) } })
  })
}
