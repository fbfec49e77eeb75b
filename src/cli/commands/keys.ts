// npm run cli -- keys ...: API keys for operators.
import { parseArgs } from 'node:util'
import { daysAgo, type GroupUsage, MAX_REPORT_DAYS, monthRange, parseDay, rangeProblem, usageCsv, usageReport } from '../../account/usage-report.js'
import { utcDay } from '../../access/usage-recorder.js'
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
  usage [NAME] [--from DAY [--to DAY] | --month YYYY-MM | --days N] [--by day|month]
        [--json|--csv]
                       Requests and cost units per endpoint group, for one key or all:
                       from DAY to DAY (UTC, both included; --to defaults to today), one
                       UTC month, or the last N days (default 30). --by day or month: one
                       row per period. --csv: the billing export (header
                       period,key_id,key_name,endpoint_group,requests,units; per month
                       unless --by day). The same numbers as /me and the usage export.
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

/** The days `keys usage` covers: --from/--to, --month or the last --days (30 by default). */
function usageRange (values: { days?: string, from?: string, to?: string, month?: string }, now: number): { from: string, to: string } {
  const chosen = [values.days !== undefined && '--days', values.month !== undefined && '--month', (values.from ?? values.to) !== undefined && '--from/--to'].filter(Boolean)
  if (chosen.length > 1) throw new UsageError(`keys usage takes one of --from/--to, --month or --days, got ${chosen.join(' and ')}`)
  if (values.month !== undefined) {
    const month = monthRange(values.month)
    if (!month) throw new UsageError(`--month must be a UTC month as YYYY-MM, such as 2026-11, got "${values.month}"`)
    return month
  }
  if (values.from !== undefined || values.to !== undefined) {
    if (values.from === undefined) throw new UsageError('--to needs --from: keys usage --from YYYY-MM-DD --to YYYY-MM-DD')
    for (const [option, day] of [['--from', values.from], ['--to', values.to]] as const) {
      if (day !== undefined && parseDay(day) === undefined) throw new UsageError(`${option} must be a UTC day as YYYY-MM-DD, such as 2026-11-01, got "${day}"`)
    }
    const range = { from: values.from, to: values.to ?? utcDay(now) }
    const problem = rangeProblem(range.from, range.to)
    if (problem !== undefined) throw new UsageError(`keys usage: ${problem.replaceAll('"from"', '--from').replaceAll('"to"', '--to')}`)
    return range
  }
  const days = values.days === undefined ? 30 : Number(values.days)
  if (!Number.isInteger(days) || days < 1 || days > MAX_REPORT_DAYS) throw new UsageError(`--days must be a whole number from 1 to ${MAX_REPORT_DAYS}, got "${values.days}"`)
  return { from: daysAgo(now, days - 1), to: utcDay(now) }
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
          const { values, positionals } = parseArgs({
            args: rest,
            options: { days: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, month: { type: 'string' }, by: { type: 'string' }, json: { type: 'boolean' }, csv: { type: 'boolean' } },
            allowPositionals: true
          })
          if (positionals.length > 1) throw new UsageError('keys usage takes at most one key name: keys usage [NAME] [--from DAY --to DAY | --month YYYY-MM | --days N]')
          if (values.json === true && values.csv === true) throw new UsageError('keys usage prints --json or --csv, not both')
          const range = usageRange(values, Date.now())
          const by = values.by ?? (values.csv === true ? 'month' : undefined)
          if (by !== undefined && by !== 'day' && by !== 'month') throw new UsageError(`--by must be day or month, got "${by}"`)
          const all = await keys.list()
          const chosen = positionals[0] === undefined ? all : all.filter((k) => k.name === positionals[0])
          if (chosen.length === 0) throw new KeyError(`No key named "${positionals[0]}": see "keys list"`)
          const report = await usageReport(store, { ...range, group: by ?? 'month', keyId: positionals[0] === undefined ? undefined : chosen[0]!.id })
          // CRLF line ends (RFC 4180): ctx.out ends the last line with its own newline.
          if (values.csv === true) { ctx.out(usageCsv(report).slice(0, -1)); return 0 }
          if (by !== undefined) {
            if (values.json === true) { ctx.out(JSON.stringify(report, null, 2)); return 0 }
            ctx.out(`Usage from ${report.from} to ${report.to} (UTC days, both included) per ${by}, as the server has written it (every few seconds):`)
            ctx.out(table([
              ['PERIOD', 'KEY', 'GROUP', 'REQUESTS', 'UNITS'],
              ...report.rows.map((r) => [r.period, r.key_name, r.endpoint_group, String(r.requests), String(r.units)]),
              ['total', '', '', String(report.totals.requests), String(report.totals.units)]
            ]))
            return 0
          }
          // Totals per key and group over the range: the report's rows summed over its periods.
          const perKey = chosen.map((k) => {
            const groups: Record<string, GroupUsage> = {}
            for (const r of report.rows) {
              if (r.key_id !== String(k.id)) continue
              const g = (groups[r.endpoint_group] ??= { requests: 0, units: 0 })
              g.requests += r.requests
              g.units += r.units
            }
            return { name: k.name, since: report.from, to: report.to, groups }
          })
          if (values.json === true) { ctx.out(JSON.stringify(perKey, null, 2)); return 0 }
          const rows = [['KEY', 'GROUP', 'REQUESTS', 'UNITS']]
          for (const r of perKey) {
            const entries = Object.entries(r.groups)
            if (entries.length === 0) rows.push([r.name, '-', '0', '0'])
            for (const [group, u] of entries) rows.push([r.name, group, String(u.requests), String(u.units)])
          }
          rows.push(['total', '', String(report.totals.requests), String(report.totals.units)])
          ctx.out(`Usage from ${report.from} to ${report.to} (UTC days, both included), as the server has written it (every few seconds):`)
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
