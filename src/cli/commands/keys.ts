// npm run cli -- keys ...: API keys for operators.
import { parseArgs } from 'node:util'
import { daysAgo, sumByGroup } from '../../account/usage-report.js'
import { createKeyService, invalidName, KEY_NAME_PATTERN, KeyError } from '../../access/keys.js'
import { formatDuration, parseQuota, parseRate } from '../../config/units.js'
import type { ApiKeyRecord, KeyLimits } from '../../store/interface.js'
import { type CommandGroup, UsageError } from '../context.js'

const HELP = `Usage: npm run cli -- keys <command> [options]

Commands:
  create --name NAME [--rate R] [--quota Q]
                       Create a key. The key is printed once, on the last line: keep it.
  list [--json]        List keys: name, prefix, status, limits, source, creation date.
  limits NAME [--rate R|default] [--quota Q|none]
                       Show or change a key's rate limit and quota.
  usage [NAME] [--days N] [--json]
                       Requests and cost units per endpoint group over the last N days
                       (default 30), for one key or all.
  disable NAME         Refuse a key until it is enabled again.
  enable NAME          Accept a disabled key again.
  revoke NAME          Refuse a key for good (it cannot be enabled again). Its name is
                       free again: "keys create --name NAME" moves the revoked key to
                       NAME.revoked-ID (its usage history stays) and makes a new one.
  rename OLD NEW       Rename a key (the key itself does not change).

Rates:  UNITS/WINDOW, such as 100/1m, 1000/1h, 20/10s ("default": the service default,
        RATE_LIMIT_MAX per RATE_LIMIT_WINDOW).
Quotas: UNITS/day or UNITS/month (UTC), such as 10000/day ("none": no quota).
Units:  most requests cost 1; image conversion and generation cost more (see docs/keys.md).

Names: 1 to 64 letters, digits, dots, dashes or underscores.
Keys are stored only as a SHA-256 hash: a lost key cannot be shown again; create a new one.

Exit codes: 0 done, 1 failed (no such key, name taken), 2 usage mistake (unknown command
or option, invalid name, rate or quota), 69 PostgreSQL (DATABASE_URL) does not answer,
78 invalid configuration (environment).`

function table (rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n')
}

function describe (k: ApiKeyRecord): Record<string, unknown> {
  return { name: k.name, prefix: k.prefix, status: k.status, source: k.source, limits: k.limits, createdAt: k.createdAt.toISOString(), updatedAt: k.updatedAt.toISOString() }
}

function rateText (l: KeyLimits): string {
  return l.rateMax == null || l.rateWindowMs == null ? 'default' : `${l.rateMax}/${formatDuration(l.rateWindowMs)}`
}

function quotaText (l: KeyLimits): string {
  return l.quotaMax == null || l.quotaPeriod == null ? 'none' : `${l.quotaMax}/${l.quotaPeriod}`
}

/** --rate and --quota values into limits; undefined fields are left as they are. */
function limitsFrom (values: { rate?: string, quota?: string }): Partial<KeyLimits> {
  const limits: Partial<KeyLimits> = {}
  if (values.rate !== undefined) {
    if (values.rate === 'default') {
      limits.rateMax = null
      limits.rateWindowMs = null
    } else {
      const rate = parseRate(values.rate)
      if (!rate) throw new UsageError(/^\s*0+\s*(\/|per)/i.test(values.rate) ? `--rate: the count must be at least 1, got "${values.rate}" (to refuse a key, use keys disable)` : `--rate must look like 100/1m, 1000/1h or "default", got "${values.rate}"`)
      limits.rateMax = rate.max
      limits.rateWindowMs = rate.windowMs
    }
  }
  if (values.quota !== undefined) {
    if (values.quota === 'none') {
      limits.quotaMax = null
      limits.quotaPeriod = null
    } else {
      const quota = parseQuota(values.quota)
      if (!quota) throw new UsageError(/^\s*0+\s*(\/|per)/i.test(values.quota) ? `--quota: the count must be at least 1, got "${values.quota}" (to refuse a key, use keys disable)` : `--quota must look like 10000/day, 50000/month or "none", got "${values.quota}"`)
      limits.quotaMax = quota.max
      limits.quotaPeriod = quota.period
    }
  }
  return limits
}

function oneName (rest: string[], command: string): string {
  const { positionals, values } = parseArgs({ args: rest, options: { name: { type: 'string' } }, allowPositionals: true })
  const name = values.name ?? positionals[0]
  if (!name || positionals.length > 1) throw new UsageError(`keys ${command} takes one key name: keys ${command} NAME`)
  return name
}

export const keysCommand: CommandGroup = {
  name: 'keys',
  summary: 'create, list, rename, disable, enable and revoke API keys',
  help: HELP,
  async run (args, ctx) {
    const [command, ...rest] = args
    const store = await ctx.store()
    const keys = createKeyService(store.keys)
    try {
      switch (command) {
        case 'create': {
          const { values, positionals } = parseArgs({ args: rest, options: { name: { type: 'string' }, rate: { type: 'string' }, quota: { type: 'string' } }, allowPositionals: true })
          if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}": use keys create --name NAME`)
          if (!values.name) throw new UsageError('keys create needs a name: keys create --name NAME')
          if (!KEY_NAME_PATTERN.test(values.name)) throw new UsageError(invalidName(values.name))
          const limits = limitsFrom(values)
          let created = await keys.create(values.name)
          if (Object.keys(limits).length > 0) {
            created = { ...created, record: (await store.keys.setLimits(created.record.name, limits))! }
          }
          ctx.out(`Created key "${created.record.name}" (${created.record.prefix}…), rate ${rateText(created.record.limits)}, quota ${quotaText(created.record.limits)}. It is shown only now; keep it:`)
          ctx.out(created.key)
          return 0
        }
        case 'list': {
          const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean' } } })
          const list = await keys.list()
          if (values.json) { ctx.out(JSON.stringify(list.map(describe), null, 2)); return 0 }
          if (list.length === 0) { ctx.out('No keys. Create one with: npm run cli -- keys create --name NAME'); return 0 }
          ctx.out(table([
            ['NAME', 'PREFIX', 'STATUS', 'RATE', 'QUOTA', 'SOURCE', 'CREATED'],
            ...list.map((k) => [k.name, `${k.prefix}…`, k.status, rateText(k.limits), quotaText(k.limits), k.source, k.createdAt.toISOString()])
          ]))
          return 0
        }
        case 'limits': {
          const { values, positionals } = parseArgs({ args: rest, options: { rate: { type: 'string' }, quota: { type: 'string' } }, allowPositionals: true })
          if (positionals.length !== 1) throw new UsageError('keys limits takes one key name: keys limits NAME [--rate R] [--quota Q]')
          const name = positionals[0]!
          const limits = limitsFrom(values)
          const record = Object.keys(limits).length > 0 ? await store.keys.setLimits(name, limits) : await store.keys.findByName(name)
          if (!record) throw new KeyError(`No key named "${name}": see "keys list"`)
          ctx.out(`Key "${record.name}": rate ${rateText(record.limits)}, quota ${quotaText(record.limits)}.`)
          return 0
        }
        case 'usage': {
          const { values, positionals } = parseArgs({ args: rest, options: { days: { type: 'string' }, json: { type: 'boolean' } }, allowPositionals: true })
          if (positionals.length > 1) throw new UsageError('keys usage takes at most one key name: keys usage [NAME] [--days N]')
          const days = values.days === undefined ? 30 : Number(values.days)
          if (!Number.isInteger(days) || days < 1 || days > 3660) throw new UsageError(`--days must be a whole number from 1 to 3660, got "${values.days}"`)
          const all = await keys.list()
          const chosen = positionals[0] === undefined ? all : all.filter((k) => k.name === positionals[0])
          if (chosen.length === 0) throw new KeyError(`No key named "${positionals[0]}": see "keys list"`)
          const since = daysAgo(Date.now(), days - 1)
          const report = []
          for (const k of chosen) {
            const groups = sumByGroup(await store.usage.list({ keyId: k.id, sinceDay: since }))
            report.push({ name: k.name, since, groups })
          }
          if (values.json) { ctx.out(JSON.stringify(report, null, 2)); return 0 }
          const rows = [['KEY', 'GROUP', 'REQUESTS', 'UNITS']]
          for (const r of report) {
            const entries = Object.entries(r.groups)
            if (entries.length === 0) rows.push([r.name, '-', '0', '0'])
            for (const [group, u] of entries) rows.push([r.name, group, String(u.requests), String(u.units)])
          }
          ctx.out(`Usage since ${since} (UTC), written by the server every few seconds:`)
          ctx.out(table(rows))
          return 0
        }
        case 'rename': {
          const { positionals } = parseArgs({ args: rest, allowPositionals: true })
          if (positionals.length !== 2) throw new UsageError('keys rename takes the old and the new name: keys rename OLD NEW')
          const [from, to] = positionals as [string, string]
          if (!KEY_NAME_PATTERN.test(to)) throw new UsageError(invalidName(to))
          const record = await keys.rename(from, to)
          ctx.out(`Key "${from}" is now named "${record.name}".`)
          return 0
        }
        case 'disable':
        case 'enable':
        case 'revoke': {
          const name = oneName(rest, command)
          const record = await keys[command](name)
          ctx.out(`Key "${record.name}" is now ${record.status}.`)
          return 0
        }
        default:
          throw new UsageError(`Unknown command "keys ${command}"`)
      }
    } catch (err) {
      if (err instanceof KeyError) { ctx.err(`Error: ${err.message}`); return 1 }
      throw err
    }
  }
}
