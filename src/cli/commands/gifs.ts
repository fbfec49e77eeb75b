// npm run cli -- gifs ...: the gif catalog for operators.
import { parseArgs } from 'node:util'
import { importGifs, ImportError } from '../../gifs/importer.js'
import { addExternalGif, removeGifs } from '../../gifs/manage.js'
import { starterHashes } from '../../gifs/starter.js'
import { GIF_TYPES } from '../../gifs/types.js'
import { createGifCatalog } from '../../gifs/catalog.js'
import { type GifRecord, StoreConflictError } from '../../store/interface.js'
import { type CommandGroup, UsageError } from '../context.js'

/** Progress goes to stderr every this many files, or this often, whichever comes first. */
const PROGRESS_EVERY_FILES = 100
const PROGRESS_EVERY_MS = 2000
const DEFAULT_LIST_LIMIT = 100
/** Ids collected per page for --category and --starter. */
const REMOVE_PAGE = 1000

const HELP = `Usage: npm run cli -- gifs <command> [options]

Commands:
  import FOLDER|FILE [--category NAME] [--dry-run]
        Import gifs from FOLDER laid out as <category>/<file>.gif, or with
        --category a flat folder of gifs, or one gif FILE, for that category.
        Each file is checked (a real GIF, every frame decodable), duplicates (same
        content) are skipped, and every refused file is reported with the reason.
        Safe to re-run and to interrupt. --dry-run checks everything and changes
        nothing.
        Exit code 0 when every file was added or already there, 1 if any was refused.
  list [--category NAME] [--limit N] [--json]
        List gifs: id, category, size, dimensions, frames, file or URL.
  stats [--json]
        Number of gifs per category (every type, empty ones too).
  remove ID... | --category NAME | --starter
        Remove gifs from the catalog (and their files, when nothing else uses them):
        the ids given, every gif of a category, or every starter gif (those generated
        on the first start), in one transaction. Exit code 1 if an id is unknown
        (the others are removed).
  add-url URL --category NAME [--width W --height H --frames N]
        Add an entry served from elsewhere (a CDN): the API answers URL as "file".

Types: ${GIF_TYPES.join(', ')}

Exit codes: 0 done, 1 failed (a file refused, an unknown id, a store error), 2 usage
mistake (unknown command or option, a bad id or type), 69 PostgreSQL (DATABASE_URL) does
not answer, 78 invalid configuration.`

function table (rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n')
}

function positiveInt (value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${option} must be a whole number of at least 1, got "${value}"`)
  return Number(value)
}

function describe (g: GifRecord, fileUrl: string): Record<string, unknown> {
  return { id: String(g.id), category: g.category, file: fileUrl, hash: g.hash, external: g.url !== null, size: g.size, width: g.width, height: g.height, frames: g.frames, addedAt: g.addedAt.toISOString() }
}

export const gifsCommand: CommandGroup = {
  name: 'gifs',
  summary: 'import, list, count and remove the gifs of GET /sfw/gif/{type}',
  help: HELP,
  async run (args, ctx) {
    const [command, ...rest] = args
    const fullStore = await ctx.store()
    const store = fullStore.gifs
    try {
      switch (command) {
        case 'import': {
          const { values, positionals } = parseArgs({ args: rest, options: { category: { type: 'string' }, 'dry-run': { type: 'boolean' } }, allowPositionals: true })
          if (positionals.length !== 1) throw new UsageError('gifs import takes one folder or file: gifs import FOLDER|FILE [--category NAME] [--dry-run]')
          const dryRun = values['dry-run'] === true
          let lastProgress = Date.now()
          const report = await importGifs({
            folder: positionals[0]!,
            category: values.category,
            dryRun,
            store,
            files: fullStore.gifFiles,
            onReject: (file, reason) => ctx.err(`rejected ${file}: ${reason}`),
            onProgress: (done, total) => {
              const now = Date.now()
              if (done === total ? total >= PROGRESS_EVERY_FILES : (done % PROGRESS_EVERY_FILES === 0 || now - lastProgress >= PROGRESS_EVERY_MS)) {
                lastProgress = now
                ctx.err(`progress: ${done}/${total} files (${Math.floor(done / total * 100)}%)`)
              }
            }
          })
          for (const name of report.cleaned) ctx.err(`cleaned ${name}: left by an interrupted import`)
          ctx.out(`${dryRun ? 'Dry run: would add' : 'Added'} ${report.added.length}, skipped ${report.duplicates.length} duplicate(s), rejected ${report.rejected.length}.`)
          return report.rejected.length > 0 ? 1 : 0
        }
        case 'list': {
          const { values } = parseArgs({ args: rest, options: { category: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } } })
          const category = values.category?.toLowerCase()
          if (category !== undefined && !(GIF_TYPES as readonly string[]).includes(category)) {
            throw new UsageError(`"${values.category}" is not a gif type: use one of ${GIF_TYPES.join(', ')}`)
          }
          const limit = positiveInt(values.limit, 'limit') ?? DEFAULT_LIST_LIMIT
          const catalog = createGifCatalog({ store, publicUrl: ctx.config.publicUrl })
          const list = await store.list({ category, limit })
          if (values.json) { ctx.out(JSON.stringify(list.map((g) => describe(g, catalog.fileUrl(g))), null, 2)); return 0 }
          if (list.length === 0) { ctx.out('No gifs. Import some with: npm run cli -- gifs import FOLDER'); return 0 }
          ctx.out(table([
            ['ID', 'CATEGORY', 'SIZE', 'WxH', 'FRAMES', 'FILE'],
            ...list.map((g) => [String(g.id), g.category, String(g.size), `${g.width}x${g.height}`, String(g.frames), catalog.fileUrl(g)])
          ]))
          if (list.length === limit) ctx.err(`(first ${limit}; use --limit to see more)`)
          return 0
        }
        case 'stats': {
          const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean' } } })
          const counts = await store.counts()
          const all = Object.fromEntries(GIF_TYPES.map((t) => [t, counts[t] ?? 0]))
          if (values.json) { ctx.out(JSON.stringify(all, null, 2)); return 0 }
          const total = Object.values(all).reduce((a, b) => a + b, 0)
          ctx.out(table([['CATEGORY', 'GIFS'], ...Object.entries(all).map(([t, n]) => [t, String(n)]), ['total', String(total)]]))
          const empty = GIF_TYPES.filter((t) => all[t] === 0)
          if (empty.length > 0) ctx.err(`Empty categories answer 404 (GIF_CATEGORY_EMPTY): ${empty.join(', ')}`)
          return 0
        }
        case 'remove': {
          const { values, positionals } = parseArgs({ args: rest, options: { category: { type: 'string' }, starter: { type: 'boolean' } }, allowPositionals: true })
          const ways = [positionals.length > 0, values.category !== undefined, values.starter === true].filter(Boolean).length
          if (ways !== 1) throw new UsageError('gifs remove takes ids, --category NAME or --starter (one of them): gifs remove ID... | --category NAME | --starter')
          const badId = positionals.find((p) => !/^\d{1,15}$/.test(p))
          if (badId !== undefined) throw new UsageError(`gifs remove takes numeric ids (see gifs list), got "${badId}"`)
          const category = values.category?.toLowerCase()
          if (category !== undefined && !(GIF_TYPES as readonly string[]).includes(category)) {
            throw new UsageError(`"${values.category}" is not a gif type: use one of ${GIF_TYPES.join(', ')}`)
          }
          let ids: number[]
          if (positionals.length > 0) {
            ids = [...new Set(positionals.map(Number))]
          } else {
            const starter = values.starter === true ? starterHashes() : undefined
            ids = []
            for (let afterId = 0; ;) {
              const page = await store.list({ category, limit: REMOVE_PAGE, afterId })
              for (const g of page) if (starter === undefined || (g.hash !== null && starter.has(g.hash))) ids.push(g.id)
              if (page.length < REMOVE_PAGE) break
              afterId = page.at(-1)!.id
            }
          }
          const removed = await removeGifs(store, fullStore.gifFiles, ids)
          const counts = new Map<string, number>()
          for (const g of removed) counts.set(g.category, (counts.get(g.category) ?? 0) + 1)
          ctx.out(`Removed ${removed.length} gif(s)${counts.size > 0 ? `: ${[...counts].map(([c, n]) => `${c} ${n}`).join(', ')}` : ''}.`)
          const gone = new Set(removed.map((g) => g.id))
          const unknown = ids.filter((id) => !gone.has(id))
          if (unknown.length > 0) { ctx.err(`Error: no gif has the id ${unknown.join(', ')}`); return 1 }
          return 0
        }
        case 'add-url': {
          const { values, positionals } = parseArgs({ args: rest, options: { category: { type: 'string' }, width: { type: 'string' }, height: { type: 'string' }, frames: { type: 'string' } }, allowPositionals: true })
          if (positionals.length !== 1 || !values.category) throw new UsageError('gifs add-url takes one URL and a category: gifs add-url URL --category NAME')
          const record = await addExternalGif(store, {
            category: values.category,
            url: positionals[0]!,
            width: positiveInt(values.width, 'width'),
            height: positiveInt(values.height, 'height'),
            frames: positiveInt(values.frames, 'frames')
          })
          ctx.out(`Added gif ${record.id} (${record.category}): ${record.url}`)
          return 0
        }
        default:
          throw new UsageError(`Unknown command "gifs ${command}"`)
      }
    } catch (err) {
      if (err instanceof ImportError) { ctx.err(`Error: ${err.message}`); return 1 }
      if (err instanceof StoreConflictError) { ctx.err(`Error: ${err.message}`); return 1 }
      throw err
    }
  }
}
