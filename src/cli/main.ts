// The operators' command line: npm run cli -- <group> <command> [options].
import { ConfigError, loadConfig } from '../config.js'
import { describeOrigin, type SettingsOrigin } from '../env-file.js'
import { describeStore } from '../store/index.js'
import { DatabaseMissingError, DatabaseStartError, EXIT_STORE_UNAVAILABLE, isStoreUnavailable } from '../store/interface.js'
import { adminCommand } from './commands/admin.js'
import { withModeration } from './commands/gif-moderation.js'
import { gifsCommand } from './commands/gifs.js'
import { keysCommand } from './commands/keys.js'
import { storeCommand } from './commands/store.js'
import { type CliIo, type CommandGroup, createCliContext, UsageError } from './context.js'
import { printable } from './terminal-text.js'

/** The option, accepted by every command, that lets it create a database that is not there. */
export const CREATE_STORE = '--create-store'

const GROUPS: CommandGroup[] = [keysCommand, withModeration(gifsCommand), storeCommand, adminCommand]

function mainHelp (): string {
  return [
    'Usage: npm run cli -- <group> <command> [options]',
    '',
    'Groups:',
    ...GROUPS.map((g) => `  ${g.name.padEnd(8)} ${g.summary}`),
    '',
    'Run "npm run cli -- <group> --help" for a group\'s commands.',
    '',
    'The CLI reads the same settings as the server: the environment, then the file',
    'ENV_FILE names (or ./.env). Under systemd, give it the unit\'s EnvironmentFile:',
    '  ENV_FILE=/etc/utility-media-api.env npm run cli -- keys list',
    'Every command first says on stderr which store it uses and where DATA_DIR (or',
    'DATABASE_URL) came from. A command never creates a database: one that does not',
    `exist is refused (exit 66) unless ${CREATE_STORE} is given (the server's first start`,
    'creates it too).',
    '',
    'Exit codes: 0 done, 1 failed, 2 usage mistake (unknown command or option, invalid',
    'value), 65 the database file is not SQLite, 66 no database there (DATA_DIR or',
    'DATABASE_URL, see above), 69 PostgreSQL (DATABASE_URL) does not answer, 78 invalid',
    'configuration (as the server).'
  ].join('\n')
}

/**
 * `origin`: where the settings came from (src/cli/index.ts reads .env or ENV_FILE); absent
 * when a caller passes the whole environment itself (tests).
 */
export async function runCli (argv: string[], env: Record<string, string | undefined>, io: CliIo, origin?: SettingsOrigin): Promise<number> {
  const create = argv.includes(CREATE_STORE)
  const [group, ...rest] = argv.filter((a) => a !== CREATE_STORE)
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
    ctx = createCliContext(loadConfig(env), io, { create })
  } catch (err) {
    if (err instanceof ConfigError) { io.err(err.message); return 78 }
    throw err
  }
  // One line on stderr (stdout stays the command's output: JSON, CSV, a key).
  const setting = ctx.config.databaseUrl ? 'DATABASE_URL' : 'DATA_DIR'
  const from = describeOrigin(setting, env, origin)
  io.err(`Store: ${describeStore(ctx.config)} (${from})`)
  try {
    return await command.run(rest, ctx)
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`Error: ${(err as Error).message}\nRun "npm run cli -- ${group} --help" for usage.`)
      return 2
    }
    if (err instanceof DatabaseMissingError) {
      const missing = err.where.startsWith('PostgreSQL') ? 'DATABASE_URL' : 'DATA_DIR'
      const fix = missing === 'DATA_DIR' ? 'Point DATA_DIR at the data the server uses' : 'Point DATABASE_URL at the database the server uses'
      io.err(`Error: no database at ${err.where} (${describeOrigin(missing, env, origin)}); nothing was created. ${fix}, or ENV_FILE at the settings file the server reads ` +
        `(a systemd unit's EnvironmentFile: ENV_FILE=/etc/utility-media-api.env npm run cli -- ...), or add ${CREATE_STORE} to make a new, empty database there.`)
      return err.exitCode
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
