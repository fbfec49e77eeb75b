// npm run cli -- keys ...: API keys for operators.
import { parseArgs } from 'node:util'
import { daysAgo, sumByGroup } from '../../account/usage-report.js'
import { createKeyService, invalidName, KEY_NAME_PATTERN, KeyError, type KeyUpdate, keyStatus, MAX_CREDITS, MAX_ROLL_GRACE_SECONDS } from '../../access/keys.js'
import { formatDuration, parseDuration, parseQuota, parseRate } from '../../config/units.js'
import { type ApiKeyRecord, type KeyLimits, type KeyRefill, storedCredits } from '../../store/interface.js'
import { type CommandGroup, UsageError } from '../context.js'

const HELP = `Usage: npm run cli -- keys <command> [options]

Commands:
  create --name NAME [--rate R] [--quota Q] [--credits N] [--refill N/day|N/month]
         [--expires WHEN] [--owner OWNER]
                       Create a key. The key is printed once, on the last line: keep it.
  list [--json]        List keys: name, prefix, status, limits, credits left, expiry,
                       source, creation date.
  limits NAME [--rate R|default] [--quota Q|none]
                       Show or change a key's rate limit and quota.
  update NAME [--credits N|none] [--add-credits N] [--refill N/PERIOD|none]
         [--expires WHEN|never] [--owner OWNER|none] [--rate R|default] [--quota Q|none]
                       Change a key's credits (--credits sets what is left, --add-credits
                       adds to it), refill, expiry, owner or limits.
  roll NAME [--grace SECONDS]
                       A new secret for the same key (its limits, credits and usage stay).
                       The new key is printed once, on the last line; the old one keeps
                       working SECONDS more (default 0, at most 604800: 7 days).
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
Credits: prepaid units; a request they cannot pay for is refused (402). A refill raises
        what is left to N at each new UTC day or month (docs/billing.md).
Expiry: an ISO 8601 date and time (2027-01-31T00:00:00Z), or +DURATION from now (+30d,
        +12h), or "never".

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
  return {
    name: k.name,
    prefix: k.prefix,
    status: k.status,
    source: k.source,
    limits: k.limits,
    owner: k.owner,
    credits: k.credits === null ? null : { remaining: storedCredits(k), refill: k.credits.refill },
    expiresAt: k.expiresAt?.toISOString() ?? null,
    createdAt: k.createdAt.toISOString(),
    updatedAt: k.updatedAt.toISOString()
  }
}

/** What is left as the store holds it (the server's last units of a few seconds may not be in yet). */
function creditsText (k: ApiKeyRecord): string {
  if (k.credits === null) return '-'
  const refill = k.credits.refill === null ? '' : ` (+${k.credits.refill.amount}/${k.credits.refill.period})`
  return `${Math.max(0, storedCredits(k)!)}${refill}`
}

function expiryText (k: ApiKeyRecord): string {
  return k.expiresAt === null ? 'never' : k.expiresAt.toISOString()
}

function wholeNumber (option: string, raw: string, min: number): number {
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`${option} must be a whole number, got "${raw}"`)
  const n = Number(raw)
  if (n < min || n > MAX_CREDITS) throw new UsageError(`${option} must be from ${min} to ${MAX_CREDITS}, got "${raw}"`)
  return n
}

function parseRefill (raw: string): KeyRefill | null {
  if (raw === 'none') return null
  const m = /^\s*(\d+)\s*\/\s*(day|month)\s*$/i.exec(raw)
  if (!m) throw new UsageError(`--refill must look like 100/day, 5000/month or "none", got "${raw}"`)
  return { amount: wholeNumber('--refill', m[1]!, 1), period: m[2]!.toLowerCase() as KeyRefill['period'] }
}

function parseExpires (raw: string, now: number): Date | null {
  if (raw === 'never') return null
  if (raw.startsWith('+')) {
    const ms = parseDuration(raw.slice(1))
    if (ms === undefined) throw new UsageError(`--expires +DURATION must look like +30d, +12h or +90m, got "${raw}"`)
    return new Date(now + ms)
  }
  // A date and time with its zone, so that no server's local time zone decides it.
  const at = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d))?$/.test(raw) ? Date.parse(raw.length === 10 ? `${raw}T00:00:00Z` : raw) : NaN
  if (Number.isNaN(at)) throw new UsageError(`--expires must be an ISO 8601 date (2027-01-31, UTC) or date and time with a zone (2027-01-31T12:00:00Z), +30d, or "never", got "${raw}"`)
  return new Date(at)
}

/** --credits, --add-credits, --refill, --expires and --owner into a key update (none given: empty). */
function salesFrom (values: { credits?: string, 'add-credits'?: string, refill?: string, expires?: string, owner?: string }, now: number): KeyUpdate {
  const update: KeyUpdate = {}
  if (values.credits !== undefined) update.credits = values.credits === 'none' ? null : wholeNumber('--credits', values.credits, 0)
  if (values['add-credits'] !== undefined) update.addCredits = wholeNumber('--add-credits', values['add-credits'], 1)
  if (update.credits !== undefined && update.addCredits !== undefined) throw new UsageError('Give either --credits (sets what is left) or --add-credits (adds to it), not both')
  if (values.refill !== undefined) update.refill = parseRefill(values.refill)
  if (values.expires !== undefined) update.expiresAt = parseExpires(values.expires, now)
  if (values.owner !== undefined) update.owner = values.owner === 'none' ? null : values.owner
  return update
}

function keyLine (k: ApiKeyRecord): string {
  return `rate ${rateText(k.limits)}, quota ${quotaText(k.limits)}, credits ${creditsText(k)}, expires ${expiryText(k)}${k.owner === null ? '' : `, owner ${k.owner}`}`
}

const SALES_OPTIONS = {
  credits: { type: 'string' },
  'add-credits': { type: 'string' },
  refill: { type: 'string' },
  expires: { type: 'string' },
  owner: { type: 'string' }
} as const

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
  summary: 'create, list, update, roll, rename, disable, enable and revoke API keys',
  help: HELP,
  async run (args, ctx) {
    const [command, ...rest] = args
    const store = await ctx.store()
    const keys = createKeyService(store.keys)
    try {
      switch (command) {
        case 'create': {
          const { values, positionals } = parseArgs({ args: rest, options: { name: { type: 'string' }, rate: { type: 'string' }, quota: { type: 'string' }, ...SALES_OPTIONS }, allowPositionals: true })
          if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}": use keys create --name NAME`)
          if (!values.name) throw new UsageError('keys create needs a name: keys create --name NAME')
          if (!KEY_NAME_PATTERN.test(values.name)) throw new UsageError(invalidName(values.name))
          if (values['add-credits'] !== undefined) throw new UsageError('keys create takes --credits N (--add-credits is for keys update)')
          const limits = limitsFrom(values)
          const sales = salesFrom(values, Date.now())
          const created = await keys.createWith({
            name: values.name,
            ...(Object.keys(limits).length > 0 ? { limits } : {}),
            ...(sales.credits != null ? { credits: sales.credits } : {}),
            ...(sales.refill !== undefined ? { refill: sales.refill } : {}),
            ...(sales.expiresAt !== undefined ? { expiresAt: sales.expiresAt } : {}),
            ...(sales.owner !== undefined ? { owner: sales.owner } : {})
          })
          ctx.out(`Created key "${created.record.name}" (${created.record.prefix}…), ${keyLine(created.record)}. It is shown only now; keep it:`)
          ctx.out(created.key)
          return 0
        }
        case 'update': {
          const { values, positionals } = parseArgs({ args: rest, options: { rate: { type: 'string' }, quota: { type: 'string' }, ...SALES_OPTIONS }, allowPositionals: true })
          if (positionals.length !== 1) throw new UsageError('keys update takes one key name: keys update NAME [--credits N] [--add-credits N] [--refill N/day] [--expires WHEN] [--owner OWNER]')
          const limits = limitsFrom(values)
          const update: KeyUpdate = { ...salesFrom(values, Date.now()), ...(Object.keys(limits).length > 0 ? { limits } : {}) }
          if (Object.keys(update).length === 0) throw new UsageError('keys update needs something to change: --credits, --add-credits, --refill, --expires, --owner, --rate or --quota')
          const record = await keys.updateByName(positionals[0]!, update)
          ctx.out(`Key "${record.name}": ${keyLine(record)}.`)
          return 0
        }
        case 'roll': {
          const { values, positionals } = parseArgs({ args: rest, options: { grace: { type: 'string' } }, allowPositionals: true })
          if (positionals.length !== 1) throw new UsageError('keys roll takes one key name: keys roll NAME [--grace SECONDS]')
          const grace = values.grace === undefined ? 0 : /^\d+$/.test(values.grace) ? Number(values.grace) : NaN
          if (!Number.isInteger(grace) || grace > MAX_ROLL_GRACE_SECONDS) throw new UsageError(`--grace must be a whole number of seconds from 0 to ${MAX_ROLL_GRACE_SECONDS}, got "${values.grace}"`)
          const rolled = await keys.rollByName(positionals[0]!, grace)
          ctx.out(`Rolled key "${rolled.record.name}" (${rolled.record.prefix}…): the old key ${grace === 0 ? 'is refused from now on' : `keeps working until ${rolled.record.previousValidUntil!.toISOString()}`}. The new key is shown only now; keep it:`)
          ctx.out(rolled.key)
          return 0
        }
        case 'list': {
          const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean' } } })
          const list = await keys.list()
          if (values.json) { ctx.out(JSON.stringify(list.map(describe), null, 2)); return 0 }
          if (list.length === 0) { ctx.out('No keys. Create one with: npm run cli -- keys create --name NAME'); return 0 }
          ctx.out(table([
            ['NAME', 'PREFIX', 'STATUS', 'RATE', 'QUOTA', 'CREDITS', 'EXPIRES', 'SOURCE', 'CREATED'],
            ...list.map((k) => [k.name, `${k.prefix}…`, keyStatus(k), rateText(k.limits), quotaText(k.limits), creditsText(k), expiryText(k), k.source, k.createdAt.toISOString()])
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
