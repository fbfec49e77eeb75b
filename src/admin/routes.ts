// The management API under /admin/v1/ (docs/admin-api.md): keys, usage export, gif
// moderation and the audit log, for a storefront or the operator console. Every route
// declares `admin` (its scope): the request gate asks for no API key, the admin gate
// (gate.ts) for an operator token holding that scope. Every change is written to the audit log.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { AppError } from '../errors.js'
import { ok } from '../http/envelope.js'
import type { UsageRecorder } from '../access/usage-recorder.js'
import { rangeProblem, usageCsv, usageReport, type UsagePeriod } from '../account/usage-report.js'
import { removeGif } from '../gifs/manage.js'
import type { GifFileStore } from '../store/gif-files.js'
import { type ApiKeyRecord, type AuditEntry, type GifCatalogStore, type GifReport, type GifReportStatus, type KeyStore, storedCredits, type UsageStore } from '../store/interface.js'
import { keyStatus } from '../access/keys.js'
import type { AuditLog } from './audit.js'
import { IDEMPOTENCY_KEY_PATTERN, type Idempotency } from './idempotency.js'
import type { KeyAdmin, KeyChanges } from './key-admin.js'
import {
  AdminKeySchema, AuditSchema, CreatedKeySchema, CreateKeyBody, DEFAULT_PAGE, DismissedSchema, GifReportsSchema, GifStateSchema, IdParams, KeyListSchema,
  PageQuery, RollBody, RolledKeySchema, UpdateKeyBody, UsageAnswerSchema, WhoamiSchema
} from './schemas.js'

export interface AdminRoutesOptions {
  keys: KeyAdmin
  keyStore: KeyStore
  usageStore: UsageStore
  /** Pending usage is written first: the export holds everything answered so far. */
  usage: UsageRecorder
  gifs: GifCatalogStore
  files: GifFileStore
  audit: AuditLog
  idempotency: Idempotency
  now?: () => number
}

/** The key as the management API shows it (snake_case): its status as an operator reads it (expired past its expiry). */
export function keyView (k: ApiKeyRecord, now = Date.now()) {
  const l = k.limits
  const remaining = storedCredits(k)
  return {
    id: String(k.id),
    name: k.name,
    prefix: k.prefix,
    owner: k.owner,
    meta: k.meta as Record<string, unknown> | null,
    status: keyStatus(k, now),
    source: k.source,
    rate: l.rateMax != null && l.rateWindowMs != null ? { max: l.rateMax, window_seconds: Math.round(l.rateWindowMs / 1000) } : null,
    quota: l.quotaMax != null && l.quotaPeriod != null ? { max: l.quotaMax, period: l.quotaPeriod } : null,
    credits: remaining === null ? null : { remaining, refill: k.credits?.refill ?? null },
    expires_at: k.expiresAt?.toISOString() ?? null,
    created_at: k.createdAt.toISOString(),
    updated_at: k.updatedAt.toISOString()
  }
}

function auditView (e: AuditEntry) {
  return { id: String(e.id), at: e.at.toISOString(), actor: e.actor, action: e.action, target: e.target, details: e.details, address: e.address }
}

/** The fields of a change worth keeping in the audit log: never a secret (a body holds none). */
const changed = (body: object): Record<string, unknown> => ({ ...body })

export const adminRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, opts) => {
  const now = opts.now ?? Date.now
  const tags = ['admin']
  const write = async (request: FastifyRequest, action: string, target: string | null, details: Record<string, unknown> | null): Promise<void> => {
    await opts.audit.write({ actor: request.operator!.actor, action, target, details, address: request.ip })
  }
  const id = (params: { id: string }): number => Number(params.id)

  app.get('/admin/v1/whoami', {
    config: { admin: 'token', cost: 0 },
    schema: { tags, summary: 'The operator token you call with: its name and scopes', response: { 200: WhoamiSchema } }
  }, async (request) => ok({ token: { name: request.operator!.name, scopes: request.operator!.scopes } }))

  // --- keys
  app.post('/admin/v1/keys', {
    config: { admin: 'keys', body: 'json-with-nulls', errors: ['ADMIN_KEY_INVALID', 'ADMIN_KEY_CONFLICT', 'IDEMPOTENCY_MISMATCH', 'IDEMPOTENCY_IN_PROGRESS'] },
    schema: {
      tags,
      summary: 'Create a key: the key itself is answered this once',
      description: 'With an `Idempotency-Key` header, a retry (same operator token, same body) makes nothing new: within 24 h it gets the first answer again (200, `Idempotent-Replayed: true`), secret included; later the same id with `key: null`. The same header with another body answers 409 `IDEMPOTENCY_MISMATCH`.',
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN.source, description: '1 to 255 printable characters, such as the checkout session id' })) }),
      body: CreateKeyBody,
      response: { 200: CreatedKeySchema, 201: CreatedKeySchema }
    }
  }, async (request, reply) => {
    const body = request.body as KeyChanges
    const make = async () => {
      const { key, record } = await opts.keys.create(body)
      await write(request, 'key.create', `key:${record.id}`, { name: record.name, ...changed(body) })
      return { ...ok({ key, ...keyView(record, now()) }), code: 201 }
    }
    const idemKey = request.headers['idempotency-key']
    if (typeof idemKey !== 'string') {
      reply.code(201)
      return await make()
    }
    const outcome = await opts.idempotency.run(request.operator!.actor, idemKey, body, make)
    if (outcome.kind === 'made') {
      reply.code(201)
      return outcome.answer
    }
    reply.header('idempotent-replayed', 'true')
    if (outcome.kind === 'replayed') return { ...outcome.answer, code: 200 }
    const record = await opts.keys.get(outcome.keyId)
    return { ...ok({ key: null, ...keyView(record, now()) }), message: 'This Idempotency-Key made this key more than 24 hours ago: its secret is no longer kept (roll the key for a new one)' }
  })

  app.get('/admin/v1/keys', {
    config: { admin: 'keys', cost: 0 },
    schema: {
      tags,
      summary: 'List keys, filtered by owner, name or status, a page at a time',
      querystring: Type.Object({
        owner: Type.Optional(Type.String({ maxLength: 200 })),
        name: Type.Optional(Type.String({ maxLength: 64 })),
        status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('disabled'), Type.Literal('revoked'), Type.Literal('expired')])),
        ...PageQuery
      }),
      response: { 200: KeyListSchema }
    }
  }, async (request) => {
    // Credits are read from the store: what this instance counted is written first.
    await opts.usage.flush()
    const { keys, nextCursor } = await opts.keys.page(request.query)
    const at = now()
    return ok({ keys: keys.map((k) => keyView(k, at)), next_cursor: nextCursor })
  })

  app.get('/admin/v1/keys/:id', {
    config: { admin: 'keys', cost: 0, errors: ['ADMIN_KEY_NOT_FOUND'] },
    schema: { tags, summary: 'One key', params: IdParams, response: { 200: AdminKeySchema } }
  }, async (request) => {
    await opts.usage.flush()
    return ok(keyView(await opts.keys.get(id(request.params)), now()))
  })

  app.patch('/admin/v1/keys/:id', {
    config: { admin: 'keys', body: 'json-with-nulls', errors: ['ADMIN_KEY_NOT_FOUND', 'ADMIN_KEY_INVALID', 'ADMIN_KEY_CONFLICT'] },
    schema: {
      tags,
      summary: 'Change a key: name, owner, meta, limits, credits, refill, expiry, status',
      description: '`credits` sets what is left (null: no credits, unmetered), `add_credits` adds to it; `rate` null is the service default, `quota`, `refill` and `expires_at` null remove them.',
      params: IdParams,
      body: UpdateKeyBody,
      response: { 200: AdminKeySchema }
    }
  }, async (request) => {
    const body = request.body as KeyChanges
    // This instance's counts are written first: `credits` then sets what is left after
    // them, and the answer's `remaining` includes them (as GET does).
    await opts.usage.flush()
    const record = await opts.keys.update(id(request.params), body)
    await write(request, 'key.update', `key:${record.id}`, changed(body))
    return ok(keyView(record, now()))
  })

  app.delete('/admin/v1/keys/:id', {
    config: { admin: 'keys', errors: ['ADMIN_KEY_NOT_FOUND'] },
    schema: { tags, summary: 'Revoke a key: refused from now on, for good', params: IdParams, response: { 200: AdminKeySchema } }
  }, async (request) => {
    const record = await opts.keys.revoke(id(request.params))
    await write(request, 'key.revoke', `key:${record.id}`, { name: record.name })
    return ok(keyView(record, now()))
  })

  app.post('/admin/v1/keys/:id/roll', {
    config: { admin: 'keys', body: 'json-with-nulls', errors: ['ADMIN_KEY_NOT_FOUND', 'ADMIN_KEY_INVALID'] },
    schema: {
      tags,
      summary: 'Give a key a new secret; the old one keeps working grace_seconds',
      description: 'The key keeps its id, name, limits, credits and usage: only its secret changes. The new secret is answered this once.',
      params: IdParams,
      body: RollBody,
      response: { 200: RolledKeySchema }
    }
  }, async (request) => {
    const grace = request.body.grace_seconds ?? 0
    const { key, record } = await opts.keys.roll(id(request.params), grace)
    await write(request, 'key.roll', `key:${record.id}`, { grace_seconds: grace })
    return ok({ key, previous_valid_until: grace === 0 ? null : record.previousValidUntil?.toISOString() ?? null, ...keyView(record, now()) })
  })

  // --- usage
  const UsageQuery = {
    from: Type.String({ description: 'First UTC day, YYYY-MM-DD (included)', examples: ['2026-11-01'] }),
    to: Type.String({ description: 'Last UTC day, YYYY-MM-DD (included)', examples: ['2026-11-30'] }),
    group: Type.Optional(Type.Union([Type.Literal('day'), Type.Literal('month')], { default: 'day' }))
  }
  async function report (query: { from: string, to: string, group?: UsagePeriod }, keyId: number | undefined) {
    const problem = rangeProblem(query.from, query.to)
    if (problem !== undefined) throw new AppError('VALIDATION', `Invalid query: ${problem}`)
    return await usageReport({ usage: opts.usageStore, keys: opts.keyStore, flush: async () => await opts.usage.flush() }, { from: query.from, to: query.to, group: query.group ?? 'day', keyId })
  }

  app.get('/admin/v1/usage', {
    config: { admin: 'usage', cost: 0 },
    schema: {
      tags,
      summary: 'Requests and billed units per key, endpoint group and day or month: the billing export',
      description: 'The same numbers as `keys usage` and `/me` (pending counts are written first). `format=csv` answers text/csv with the header `period,key_id,key_name,endpoint_group,requests,units`.',
      querystring: Type.Object({
        ...UsageQuery,
        key: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'One key\'s id' })),
        format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')], { default: 'json' }))
      }),
      response: { 200: UsageAnswerSchema }
    }
  }, async (request, reply) => {
    const q = request.query
    const result = await report(q, q.key === undefined ? undefined : Number(q.key))
    if (q.format === 'csv') {
      reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="usage-${result.from}-${result.to}.csv"`)
      // The JSON schema describes the JSON answer; the CSV goes out as text.
      return await reply.send(usageCsv(result) as never)
    }
    return ok({ from: result.from, to: result.to, group: result.group, rows: result.rows })
  })

  app.get('/admin/v1/keys/:id/usage', {
    config: { admin: 'usage', cost: 0, errors: ['ADMIN_KEY_NOT_FOUND'] },
    schema: {
      tags,
      summary: 'One key\'s usage rows (the console\'s chart)',
      params: IdParams,
      querystring: Type.Object(UsageQuery),
      response: { 200: UsageAnswerSchema }
    }
  }, async (request) => {
    const record = await opts.keys.get(id(request.params))
    const result = await report(request.query, record.id)
    return ok({ from: result.from, to: result.to, group: result.group, rows: result.rows })
  })

  // --- gifs
  async function reportView (r: GifReport, names: Map<number, string>) {
    const gif = await opts.gifs.get(r.gifId)
    return {
      id: String(r.id),
      gif: gif === undefined ? null : { id: String(gif.id), category: gif.category, hidden: gif.hidden, width: gif.width, height: gif.height, file_url: `/admin/v1/gifs/${gif.id}/file` },
      key_name: r.keyId === null ? null : names.get(r.keyId) ?? null,
      reason: r.reason,
      created_at: r.createdAt.toISOString(),
      dismissed_at: r.dismissedAt?.toISOString() ?? null
    }
  }

  app.get('/admin/v1/gifs/reports', {
    config: { admin: 'gifs', cost: 0 },
    schema: {
      tags,
      summary: 'Gif reports, oldest first: open ones by default',
      querystring: Type.Object({ status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('dismissed'), Type.Literal('all')], { default: 'open' })), ...PageQuery }),
      response: { 200: GifReportsSchema }
    }
  }, async (request) => {
    const { limit = DEFAULT_PAGE, cursor, status = 'open' } = request.query
    const page = await opts.gifs.reports({ afterId: cursor === undefined ? 0 : Number(cursor), limit: limit + 1, status: status as GifReportStatus })
    const shown = page.slice(0, limit)
    const names = new Map((await opts.keyStore.list()).map((k) => [k.id, k.name]))
    return ok({ reports: await Promise.all(shown.map(async (r) => await reportView(r, names))), next_cursor: page.length > limit ? String(shown[shown.length - 1]!.id) : null })
  })

  app.post('/admin/v1/gifs/reports/:id/dismiss', {
    config: { admin: 'gifs', errors: ['ADMIN_REPORT_NOT_FOUND'] },
    schema: { tags, summary: 'Dismiss a report: nothing wrong with the gif; the report leaves the open queue', params: IdParams, response: { 200: DismissedSchema } }
  }, async (request) => {
    const dismissed = await opts.gifs.dismissReport(id(request.params), new Date(now()))
    if (dismissed === undefined) throw new AppError('ADMIN_REPORT_NOT_FOUND', `No gif report has the id ${request.params.id}: ids come from GET /admin/v1/gifs/reports`)
    await write(request, 'report.dismiss', `report:${dismissed.id}`, { gif: String(dismissed.gifId), reason: dismissed.reason })
    const names = new Map((await opts.keyStore.list()).map((k) => [k.id, k.name]))
    return ok({ report: await reportView(dismissed, names) })
  })

  app.get('/admin/v1/gifs/:id/file', {
    config: { admin: 'gifs', cost: 0, errors: ['GIF_NOT_FOUND'], images: ['image/gif'] },
    schema: { tags, summary: 'A gif\'s bytes, hidden ones too (an external one: a redirect to its URL)', params: IdParams }
  }, async (request, reply) => {
    const gif = await opts.gifs.get(id(request.params))
    if (gif === undefined) throw new AppError('GIF_NOT_FOUND', `No gif has the id ${request.params.id}`)
    if (gif.hash === null) return await reply.redirect(gif.url!, 302)
    const bytes = await opts.files.read(gif.hash)
    if (bytes === undefined) throw new AppError('GIF_NOT_FOUND', `The file of gif ${gif.id} is not stored on this instance`)
    reply.type(gif.contentType).header('cache-control', 'private, no-store')
    return reply.send(bytes)
  })

  for (const hide of [true, false]) {
    app.post(`/admin/v1/gifs/:id/${hide ? 'hide' : 'unhide'}`, {
      config: { admin: 'gifs', errors: ['GIF_NOT_FOUND'] },
      schema: { tags, summary: hide ? 'Hide a gif: never picked, its public file answers 404; nothing deleted' : 'Put a hidden gif back among the picks', params: IdParams, response: { 200: GifStateSchema } }
    }, async (request) => {
      const gifId = id(request.params)
      const after = hide ? await opts.gifs.hide(gifId) : await opts.gifs.unhide(gifId)
      if (after === undefined) throw new AppError('GIF_NOT_FOUND', `No gif has the id ${gifId}`)
      await write(request, hide ? 'gif.hide' : 'gif.unhide', `gif:${gifId}`, { category: after.category })
      return ok({ id: String(after.id), category: after.category, hidden: after.hidden })
    })
  }

  app.delete('/admin/v1/gifs/:id', {
    config: { admin: 'gifs', errors: ['GIF_NOT_FOUND'] },
    schema: { tags, summary: 'Remove a gif from the catalog, and its file when nothing else refers to it', params: IdParams, response: { 200: GifStateSchema } }
  }, async (request) => {
    const gifId = id(request.params)
    const removed = await removeGif(opts.gifs, opts.files, gifId)
    if (removed === undefined) throw new AppError('GIF_NOT_FOUND', `No gif has the id ${gifId}`)
    await write(request, 'gif.remove', `gif:${gifId}`, { category: removed.category, hash: removed.hash, url: removed.url })
    return ok({ id: String(removed.id), category: removed.category, hidden: removed.hidden })
  })

  // --- audit
  app.get('/admin/v1/audit', {
    config: { admin: 'keys', cost: 0 },
    schema: {
      tags,
      summary: 'The audit log, newest first: every change, who made it, when and from where',
      querystring: Type.Object({ action: Type.Optional(Type.String({ maxLength: 64, examples: ['key.create'] })), ...PageQuery }),
      response: { 200: AuditSchema }
    }
  }, async (request) => {
    const { limit = DEFAULT_PAGE, cursor, action } = request.query
    const entries = await opts.audit.read({ beforeId: cursor === undefined ? undefined : Number(cursor), limit: limit + 1, action })
    const shown = entries.slice(0, limit)
    return ok({ entries: shown.map(auditView), next_cursor: entries.length > limit ? String(shown[shown.length - 1]!.id) : null })
  })
}
