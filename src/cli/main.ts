// The operators' command line: npm run cli -- <group> <command> [options].
import { ConfigError, loadConfig } from '../config.js'
import { DatabaseStartError, EXIT_STORE_UNAVAILABLE, isStoreUnavailable } from '../store/interface.js'
import { adminCommand } from './commands/admin.js'
import { withModeration } from './commands/gif-moderation.js'
import { gifsCommand } from './commands/gifs.js'
import { keysCommand } from './commands/keys.js'
import { storeCommand } from './commands/store.js'
import { type CliIo, type CommandGroup, createCliContext, UsageError } from './context.js'
import { printable } from './terminal-text.js'

const GROUPS: CommandGroup[] = [keysCommand, withModeration(gifsCommand), storeCommand, adminCommand]

function mainHelp (): string {
  return [
    'Usage: npm run cli -- <group> <command> [options]',
    '',
    'Groups:',
    ...GROUPS.map((g) => `  ${g.name.padEnd(8)} ${g.summary}`),
    '',
    'Run "npm run cli -- <group> --help" for a group\'s commands.',
    'The CLI reads the same environment as the server (DATA_DIR, ...).',
    '',
    'Exit codes: 0 done, 1 failed, 2 usage mistake (unknown command or option, invalid',
    'value), 69 PostgreSQL (DATABASE_URL) does not answer, 78 invalid configuration (as',
    'the server).'
  ].join('\n')
}

export async function runCli (argv: string[], env: Record<string, string | undefined>, io: CliIo): Promise<number> {
  const [group, ...rest] = argv
  if (group === undefined || group === '--help' || group === '-h' || group === 'help') {
    io.out(mainHelp())
    return group === undefined ? 2 : 0
  }
  const command = GROUPS.find((g) => g.name === group)
  if (!command) {
    io.err(`Unknown command group "${group}".\n\n${mainHelp()}`)
    return 2
  }
  // Help for every group, before any store is opened.
  const [sub, ...subRest] = rest
  const isHelp = (a: string | undefined): boolean => a === '--help' || a === '-h' || a === 'help'
  if (sub === undefined || isHelp(sub) || subRest.some(isHelp)) {
    io.out(command.help)
    return sub === undefined ? 2 : 0
  }
  let ctx
  try {
    ctx = createCliContext(loadConfig(env), io)
  } catch (err) {
    if (err instanceof ConfigError) { io.err(err.message); return 78 }
    throw err
  }
  try {
    return await command.run(rest, ctx)
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`Error: ${(err as Error).message}\nRun "npm run cli -- ${group} --help" for usage.`)
      return 2
    }
    // The server's refusals of a lost, unreadable or unwritable database, with its exit codes.
    if (err instanceof DatabaseStartError) { io.err(err.message); return err.exitCode }
    // The store not answering (PostgreSQL down or stalled, at open or mid-command): one
    // sentence naming the setting, and the server's exit code for it.
    if (isStoreUnavailable(err)) {
      const setting = ctx.config.databaseUrl !== undefined && !err.message.includes('DATABASE_URL') ? ' (DATABASE_URL): check that it runs and answers, then run the command again' : ''
      io.err(`Error: ${err.message.replace(/\.$/, '')}${setting}.`)
      return EXIT_STORE_UNAVAILABLE
    }
    // An unexpected failure may quote outside strings (a file name from a pack in a file
    // system error): printed through printable() like them.
    io.err(`Error: ${printable(err instanceof Error ? err.message : String(err))}`)
    return 1
  } finally {
    await ctx.close()
  }
}
