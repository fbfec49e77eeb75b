// npm run cli -- store ...: moving an install between stores.
import { parseArgs } from 'node:util'
import { CopyError, copySqliteToPostgres } from '../../store/copy-to-postgres.js'
import { type CommandGroup, UsageError } from '../context.js'

const HELP = `Usage: npm run cli -- store <command> [options]

Commands:
  copy-to-postgres [--database-url URL]
      Copy everything of the SQLite install in DATA_DIR (keys, limits, usage, the gif
      catalog and its files) into an empty PostgreSQL database: DATABASE_URL, or the
      URL given. One transaction: on any failure the target is left unchanged.
      Then start the instances with DATABASE_URL set.`

export const storeCommand: CommandGroup = {
  name: 'store',
  summary: 'copy a SQLite install into PostgreSQL (scale-out mode)',
  help: HELP,
  async run (args, ctx) {
    const [command, ...rest] = args
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
