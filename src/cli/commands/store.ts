// npm run cli -- store ...: backing up an install, moving it between stores.
import path from 'node:path'
import { parseArgs } from 'node:util'
import { CopyError, copySqliteToPostgres } from '../copy-to-postgres.js'
import { BackupError, backupSqlite } from '../../store/sqlite/backup.js'
import { gifDirOf } from '../../store/local-gif-files.js'
import { type CommandGroup, UsageError } from '../context.js'

const HELP = `Usage: npm run cli -- store <command> [options]

Commands:
  backup FILE [--force]
      Write a consistent copy of the SQLite database in DATA_DIR to FILE, safe while
      the server is serving and writing (SQLite's online backup). The gif files live
      beside it in DATA_DIR/gifs and never change once written: copy that folder too.
      To restore: stop the server, put FILE at DATA_DIR/utility-media.sqlite (removing
      any -wal and -shm files beside it), put the gifs folder back, start.
      On PostgreSQL (DATABASE_URL set) use pg_dump instead.

  copy-to-postgres [--database-url URL]
      Copy everything of the SQLite install in DATA_DIR (keys, limits, usage, the gif
      catalog and its files) into an empty PostgreSQL database: DATABASE_URL, or the
      URL given. One transaction: on any failure the target is left unchanged.
      Then start the instances with DATABASE_URL set.`

export const storeCommand: CommandGroup = {
  name: 'store',
  summary: 'back up the SQLite database; copy a SQLite install into PostgreSQL (scale-out mode)',
  help: HELP,
  async run (args, ctx) {
    const [command, ...rest] = args
    if (command === 'backup') return backup(rest, ctx)
    if (command !== 'copy-to-postgres') throw new UsageError(`Unknown command "store ${command}"`)
    const { values } = parseArgs({ args: rest, options: { 'database-url': { type: 'string' } } })
    const url = values['database-url'] ?? ctx.config.databaseUrl
    if (!url) throw new UsageError('Give the target with --database-url postgres://... or DATABASE_URL')
    if (!/^postgres(ql)?:\/\//.test(url)) throw new UsageError(`--database-url must be a PostgreSQL URL, got "${url}"`)
    ctx.err(`Copying ${ctx.config.dataDir} into PostgreSQL...`)
    try {
      const report = await copySqliteToPostgres(ctx.config.dataDir, url, (text) => ctx.err(`  ${text}`))
      ctx.out(`Copied ${report.keys} keys, ${report.usageRows} usage rows, ${report.gifs} gifs and ${report.files} gif files.`)
      return 0
    } catch (err) {
      if (err instanceof CopyError) { ctx.err(`Error: ${err.message}`); return 1 }
      throw err
    }
  }
}

async function backup (args: string[], ctx: Parameters<CommandGroup['run']>[1]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { force: { type: 'boolean' } }, allowPositionals: true })
  if (ctx.config.databaseUrl !== undefined) {
    ctx.err('Error: DATABASE_URL is set: keys, usage and the gif catalog live in PostgreSQL. Back it up with pg_dump ' +
      '(pg_dump --format=custom --file=FILE "$DATABASE_URL"; restore with pg_restore), and the gif files with your object storage\'s tools.')
    return 1
  }
  if (positionals.length !== 1) throw new UsageError('Give the backup file: npm run cli -- store backup FILE')
  try {
    const report = await backupSqlite(ctx.config.dataDir, positionals[0]!, { overwrite: values.force === true })
    ctx.out(`Backed up ${path.join(ctx.config.dataDir, 'utility-media.sqlite')} to ${report.file} (${report.bytes} bytes).`)
    ctx.err(`The gif files are not in it: copy ${gifDirOf(ctx.config.dataDir)} as well (its files never change once written).`)
    return 0
  } catch (err) {
    if (err instanceof BackupError) { ctx.err(`Error: ${err.message}`); return 1 }
    throw err
  }
}
