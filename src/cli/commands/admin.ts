// npm run cli -- admin ...: operator tokens of the management API (/admin/v1/,
// docs/admin-api.md) and its audit log.
import { parseArgs } from 'node:util'
import { CLI_ACTOR, createAuditLog } from '../../admin/audit.js'
import { createOperatorTokens, OperatorTokenError, parseScopes } from '../../admin/tokens.js'
import { ADMIN_SCOPES } from '../../store/interface.js'
import { type CommandGroup, UsageError } from '../context.js'
import { positiveInt } from '../options.js'
import { printable, printableJson } from '../terminal-text.js'

const HELP = `Usage: npm run cli -- admin <command> [options]

Commands:
  tokens create --name NAME --scope SCOPES
                       Make an operator token for the management API (/admin/v1/). SCOPES:
                       comma-separated, of ${ADMIN_SCOPES.join(', ')}. The token is printed
                       once, on the last line: keep it (only its SHA-256 is stored).
  tokens list [--json] Operator tokens: name, prefix, scopes, status, created, last used.
  tokens revoke NAME   Refuse a token from now on (on every instance within 2 s).
  audit [--limit N] [--action ACTION] [--json]
                       The audit log, newest first: every change made through the
                       management API or this command line (who, what, when, from where).

While no operator token exists (and ADMIN_TOKEN is unset), the management API answers 404.

Exit codes: 0 done, 1 failed (no such token, name taken), 2 usage mistake, 69 PostgreSQL
(DATABASE_URL) does not answer, 78 invalid configuration (environment).`

function table (rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n')
}

export const adminCommand: CommandGroup = {
  name: 'admin',
  summary: 'operator tokens of the management API, and its audit log',
  help: HELP,
  async run (args, ctx) {
    const [command, ...rest] = args
    const store = async () => (await ctx.store()).admin
    if (command === 'tokens') {
      const [sub, ...options] = rest
      const tokens = createOperatorTokens(await store(), ctx.config.adminToken)
      const audit = createAuditLog(await store())
      if (sub === 'create') {
        const { values } = parseArgs({ args: options, options: { name: { type: 'string' }, scope: { type: 'string' } } })
        if (values.name === undefined) throw new UsageError('admin tokens create needs --name NAME')
        if (values.scope === undefined) throw new UsageError(`admin tokens create needs --scope, of ${ADMIN_SCOPES.join(', ')} (comma-separated)`)
        let scopes
        try { scopes = parseScopes(values.scope) } catch (err) { throw new UsageError((err as Error).message) }
        try {
          const { token, record } = await tokens.create(values.name, scopes)
          await audit.write({ actor: CLI_ACTOR, action: 'token.create', target: `token:${record.name}`, details: { scopes } })
          ctx.out(`Created operator token "${record.name}" (scopes ${scopes.join(', ')}). It is shown only now: keep it.`)
          ctx.out(token)
          return 0
        } catch (err) {
          if (err instanceof OperatorTokenError) { ctx.err(`Error: ${err.message}`); return 1 }
          throw err
        }
      }
      if (sub === 'list') {
        const { values } = parseArgs({ args: options, options: { json: { type: 'boolean' } } })
        const list = await tokens.list()
        if (values.json) {
          ctx.out(printableJson(list.map((t) => ({ name: t.name, prefix: t.prefix, scopes: t.scopes, status: t.status, created_at: t.createdAt.toISOString(), last_used_at: t.lastUsedAt?.toISOString() ?? null }))))
          return 0
        }
        if (list.length === 0) {
          ctx.out(`No operator tokens${ctx.config.adminToken === undefined ? ': the management API answers 404 until one exists ("admin tokens create")' : ' (ADMIN_TOKEN is set)'}.`)
          return 0
        }
        ctx.out(table([['NAME', 'PREFIX', 'SCOPES', 'STATUS', 'CREATED', 'LAST USED'],
          ...list.map((t) => [printable(t.name), t.prefix, t.scopes.join(','), t.status, t.createdAt.toISOString(), t.lastUsedAt?.toISOString() ?? '-'])]))
        return 0
      }
      if (sub === 'revoke') {
        const { positionals } = parseArgs({ args: options, options: {}, allowPositionals: true })
        if (positionals.length !== 1) throw new UsageError('admin tokens revoke takes one token name: admin tokens revoke NAME')
        const name = positionals[0]!
        const revoked = await tokens.revoke(name)
        if (revoked === undefined) { ctx.err(`Error: no operator token named "${printable(name)}": see "admin tokens list"`); return 1 }
        await audit.write({ actor: CLI_ACTOR, action: 'token.revoke', target: `token:${revoked.name}`, details: null })
        ctx.out(`Revoked operator token "${printable(revoked.name)}": refused from now on.`)
        return 0
      }
      throw new UsageError(`Unknown command "tokens ${sub ?? ''}": use tokens create, tokens list or tokens revoke`)
    }
    if (command === 'audit') {
      const { values } = parseArgs({ args: rest, options: { limit: { type: 'string' }, action: { type: 'string' }, json: { type: 'boolean' } } })
      const entries = await createAuditLog(await store()).read({ limit: positiveInt(values.limit, 'limit') ?? 50, ...(values.action === undefined ? {} : { action: values.action }) })
      if (values.json) {
        ctx.out(printableJson(entries.map((e) => ({ id: String(e.id), at: e.at.toISOString(), actor: e.actor, action: e.action, target: e.target, details: e.details, address: e.address }))))
        return 0
      }
      if (entries.length === 0) { ctx.out('No changes recorded yet.'); return 0 }
      ctx.out(table([['AT', 'ACTOR', 'ACTION', 'TARGET', 'FROM', 'DETAILS'],
        ...entries.map((e) => [e.at.toISOString(), printable(e.actor), printable(e.action), printable(e.target ?? '-'), printable(e.address ?? '-'), e.details === null ? '' : printable(JSON.stringify(e.details))])]))
      return 0
    }
    throw new UsageError(`Unknown command "${command ?? ''}": use tokens or audit`)
  }
}
