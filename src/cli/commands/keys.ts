// npm run cli -- keys ...: API keys for operators.
import { parseArgs } from 'node:util'
import { createKeyService, KeyError } from '../../keys/keys.js'
import type { ApiKeyRecord } from '../../store/interface.js'
import { type CommandGroup, UsageError } from '../context.js'

const HELP = `Usage: npm run cli -- keys <command> [options]

Commands:
  create --name NAME   Create a key. The key is printed once, on the last line: keep it.
  list [--json]        List keys: name, shown prefix, status, source, creation date.
  disable NAME         Refuse a key until it is enabled again.
  enable NAME          Accept a disabled key again.
  revoke NAME          Refuse a key for good (it cannot be enabled again).

Names: 1 to 64 letters, digits, dots, dashes or underscores.
Keys are stored only as a SHA-256 hash: a lost key cannot be shown again; create a new one.`

function table (rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n')
}

function describe (k: ApiKeyRecord): Record<string, unknown> {
  return { name: k.name, prefix: k.prefix, status: k.status, source: k.source, createdAt: k.createdAt.toISOString(), updatedAt: k.updatedAt.toISOString() }
}

function oneName (rest: string[], command: string): string {
  const { positionals, values } = parseArgs({ args: rest, options: { name: { type: 'string' } }, allowPositionals: true })
  const name = values.name ?? positionals[0]
  if (!name || positionals.length > 1) throw new UsageError(`keys ${command} takes one key name: keys ${command} NAME`)
  return name
}

export const keysCommand: CommandGroup = {
  name: 'keys',
  summary: 'create, list, disable, enable and revoke API keys',
  help: HELP,
  async run (args, ctx) {
    const [command, ...rest] = args
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      ctx.out(HELP)
      return command === undefined ? 2 : 0
    }
    if (rest.includes('--help') || rest.includes('-h')) { ctx.out(HELP); return 0 }
    const keys = createKeyService((await ctx.store()).keys)
    try {
      switch (command) {
        case 'create': {
          const { values, positionals } = parseArgs({ args: rest, options: { name: { type: 'string' } }, allowPositionals: true })
          if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}": use keys create --name NAME`)
          if (!values.name) throw new UsageError('keys create needs a name: keys create --name NAME')
          const created = await keys.create(values.name)
          ctx.out(`Created key "${created.record.name}" (${created.record.prefix}…). It is shown only now; keep it:`)
          ctx.out(created.key)
          return 0
        }
        case 'list': {
          const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean' } } })
          const list = await keys.list()
          if (values.json) { ctx.out(JSON.stringify(list.map(describe), null, 2)); return 0 }
          if (list.length === 0) { ctx.out('No keys. Create one with: npm run cli -- keys create --name NAME'); return 0 }
          ctx.out(table([
            ['NAME', 'PREFIX', 'STATUS', 'SOURCE', 'CREATED'],
            ...list.map((k) => [k.name, `${k.prefix}…`, k.status, k.source, k.createdAt.toISOString()])
          ]))
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
