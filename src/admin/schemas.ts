// The management API's shapes (snake_case, as the contract of issue 39 fixes them):
// what the console and storefronts send and read. Described in /admin/openapi.json.
import { Type } from 'typebox'
import { Envelope } from '../http/envelope.js'
import { component } from '../http/openapi-annotations.js'
import { DEFAULT_PAGE_SIZE, KEY_META_MAX_BYTES, KEY_OWNER_MAX_LENGTH, MAX_CREDITS, MAX_PAGE_SIZE, MAX_ROLL_GRACE_SECONDS } from '../access/keys.js'

export const MAX_PAGE = MAX_PAGE_SIZE
export const DEFAULT_PAGE = DEFAULT_PAGE_SIZE

const Period = Type.Union([Type.Literal('day'), Type.Literal('month')])
export const RateSchema = Type.Object({
  max: Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'Units per window' }),
  window_seconds: Type.Integer({ minimum: 1, maximum: 31 * 86_400 })
}, { additionalProperties: false })
export const QuotaSchema = Type.Object({
  max: Type.Integer({ minimum: 1, maximum: MAX_CREDITS, description: 'Units per UTC day or month' }),
  period: Period
}, { additionalProperties: false })
export const RefillSchema = Type.Object({
  amount: Type.Integer({ minimum: 1, maximum: MAX_CREDITS, description: 'Credits the key is brought back up to at each new UTC day or month (never lowered)' }),
  period: Period
}, { additionalProperties: false })

const Nullable = <T extends ReturnType<typeof Type.Object> | ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description === undefined ? {} : { description })

export const KeyStatusSchema = Type.Union([Type.Literal('active'), Type.Literal('disabled'), Type.Literal('revoked'), Type.Literal('expired')])

export const KeyFields = {
  id: Type.String({ description: 'The key\'s id (not the key)', examples: ['12'] }),
  name: Type.String({ examples: ['shop-cus_123'] }),
  prefix: Type.String({ description: 'The first characters of the key', examples: ['um_AbCd'] }),
  owner: Type.Union([Type.String(), Type.Null()], { description: 'The storefront\'s customer id' }),
  meta: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], { description: 'The storefront\'s own small JSON object' }),
  status: KeyStatusSchema,
  source: Type.String({ description: 'Where the key came from: admin, cli, env, bootstrap' }),
  rate: Type.Union([RateSchema, Type.Null()], { description: 'null: the service default (RATE_LIMIT_MAX)' }),
  quota: Type.Union([QuotaSchema, Type.Null()], { description: 'null: no quota' }),
  credits: Type.Union([Type.Object({ remaining: Type.Integer(), refill: Type.Union([RefillSchema, Type.Null()]) }), Type.Null()], { description: 'Prepaid units; null: no credits, unmetered' }),
  expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' })
}

export const AdminKeySchema = component('AdminKey', Envelope(KeyFields))
export const CreatedKeySchema = component('AdminCreatedKey', Envelope({
  key: Type.Union([Type.String(), Type.Null()], { description: 'The key itself, shown this once (null on a replay whose answer is no longer kept, after 24 h)' }),
  ...KeyFields
}))
export const RolledKeySchema = component('AdminRolledKey', Envelope({
  key: Type.String({ description: 'The new key, shown this once' }),
  previous_valid_until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Until when the old key keeps working; null: refused at once' }),
  ...KeyFields
}))
export const KeyListSchema = Envelope({
  keys: Type.Array(Type.Object(KeyFields)),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last' })
})

const Meta = Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], { description: `A small JSON object of the storefront's (at most ${KEY_META_MAX_BYTES} bytes as JSON)` })
const ExpiresAt = Type.Union([Type.String({ format: 'date-time', description: 'ISO 8601, such as 2026-12-31T23:59:59Z' }), Type.Null()])

export const CreateKeyBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: '1 to 64 letters, digits, dots, dashes or underscores; made from the owner (or random) when absent' })),
  owner: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: KEY_OWNER_MAX_LENGTH }))),
  meta: Type.Optional(Meta),
  rate: Type.Optional(Type.Union([RateSchema, Type.Null()])),
  quota: Type.Optional(Type.Union([QuotaSchema, Type.Null()])),
  credits: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: MAX_CREDITS }), Type.Null()])),
  refill: Type.Optional(Type.Union([RefillSchema, Type.Null()])),
  expires_at: Type.Optional(ExpiresAt)
}, { additionalProperties: false, examples: [{ name: 'shop-cus_123', owner: 'cus_123', credits: 1000, refill: { amount: 1000, period: 'month' } }] })

export const UpdateKeyBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  owner: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: KEY_OWNER_MAX_LENGTH }))),
  meta: Type.Optional(Meta),
  rate: Type.Optional(Type.Union([RateSchema, Type.Null()], { description: 'null: the service default' })),
  quota: Type.Optional(Type.Union([QuotaSchema, Type.Null()], { description: 'null: no quota' })),
  credits: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: MAX_CREDITS }), Type.Null()], { description: 'Sets what is left; null: no credits (unmetered)' })),
  add_credits: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CREDITS, description: 'Adds to what is left' })),
  refill: Type.Optional(Type.Union([RefillSchema, Type.Null()])),
  expires_at: Type.Optional(ExpiresAt),
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('disabled')]))
}, { additionalProperties: false, examples: [{ add_credits: 500 }] })

export const RollBody = Type.Object({
  grace_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ROLL_GRACE_SECONDS, description: 'How long the old key keeps working (default 0: refused at once)' }))
}, { additionalProperties: false })

export const IdParams = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,15}$', examples: ['12'] }) })

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: DEFAULT_PAGE })),
  cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'next_cursor of the page before' }))
}

export const UsageRowSchema = Type.Object({
  period: Type.String({ description: 'YYYY-MM-DD or YYYY-MM (UTC)' }),
  key_id: Type.String(),
  key_name: Type.String(),
  endpoint_group: Type.String(),
  requests: Type.Integer(),
  units: Type.Integer({ description: 'Billed units: what credits and quotas count' })
})
export const UsageAnswerSchema = component('AdminUsage', Envelope({
  from: Type.String(),
  to: Type.String(),
  group: Period,
  rows: Type.Array(UsageRowSchema)
}))

export const GifReportSchema = Type.Object({
  id: Type.String(),
  gif: Type.Union([Type.Object({
    id: Type.String(),
    category: Type.String(),
    hidden: Type.Boolean(),
    width: Type.Integer(),
    height: Type.Integer(),
    file_url: Type.String({ description: 'The gif\'s bytes for an operator, hidden ones too: /admin/v1/gifs/{id}/file' })
  }), Type.Null()], { description: 'null once the gif is removed' }),
  key_name: Type.Union([Type.String(), Type.Null()], { description: 'The reporting key\'s name; null once the key is gone' }),
  reason: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  dismissed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()])
})
export const GifReportsSchema = Envelope({ reports: Type.Array(GifReportSchema), next_cursor: Type.Union([Type.String(), Type.Null()]) })
export const DismissedSchema = Envelope({ report: GifReportSchema })
export const GifStateSchema = Envelope({ id: Type.String(), category: Type.String(), hidden: Type.Boolean() })

export const AuditEntrySchema = Type.Object({
  id: Type.String(),
  at: Type.String({ format: 'date-time' }),
  actor: Type.String({ description: '"token:NAME", "ADMIN_TOKEN" or "cli"' }),
  action: Type.String({ examples: ['key.create'] }),
  target: Type.Union([Type.String(), Type.Null()], { examples: ['key:12'] }),
  details: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
  address: Type.Union([Type.String(), Type.Null()], { description: 'The client address; null from the command line' })
})
export const AuditSchema = Envelope({ entries: Type.Array(AuditEntrySchema), next_cursor: Type.Union([Type.String(), Type.Null()]) })

export const WhoamiSchema = Envelope({ token: Type.Object({ name: Type.String(), scopes: Type.Array(Type.String()) }) })
