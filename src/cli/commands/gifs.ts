// npm run cli -- gifs ...: the gif catalog for operators.
import { parseArgs } from 'node:util'
import { createRequire } from 'node:module'
import { exportPack } from '../../gifs/exporter.js'
import { importGifs, ImportError } from '../../gifs/importer.js'
import { NEAR_DUPLICATE_MAX_DISTANCE } from '../../gifs/perceptual-hash.js'
import { addExternalGif, removeGifs } from '../../gifs/manage.js'
import { starterHashes } from '../../gifs/starter.js'
import { GIF_TYPES } from '../../gifs/types.js'
import { createGifCatalog } from '../../gifs/catalog.js'
import { type GifRecord, StoreConflictError } from '../../store/interface.js'
import { type CliContext, type CommandGroup, UsageError } from '../context.js'
import { nearDuplicateMode, positiveInt } from '../options.js'
import { createProgress } from '../progress.js'
import { printable, printableJson } from '../terminal-text.js'
import { pullCommand, PULL_HELP } from './gifs-pull.js'

const pkg = createRequire(import.meta.url)('../../../package.json') as { name: string, version: string }
const DEFAULT_LIST_LIMIT = 100
/** Ids collected per page for --category and --starter. */
const REMOVE_PAGE = 1000
/**
 * Lines printed for one kind of per-file news (refused, near-duplicate) before the rest
 * is only counted: a pack of 20,000 refused entries printed 823 MB.
 */
export const MAX_NEWS_LINES = 200

/** Prints up to MAX_NEWS_LINES lines, then counts; `finish` says how many were not shown. */
function newsLines (ctx: CliContext, what: string): { line (text: string): void, finish (): void } {
  let count = 0
  return {
    line (text) { if (++count <= MAX_NEWS_LINES) ctx.err(text) },
    finish () {
      if (count > MAX_NEWS_LINES) ctx.err(`… and ${count - MAX_NEWS_LINES} more ${what} not shown (${count} in all; the first ${MAX_NEWS_LINES} are above)`)
    }
  }
}

const HELP = `Usage: npm run cli -- gifs <command> [options]

Commands:
  import PACK|FOLDER|FILE [--category NAME] [--near-duplicates skip|report|keep] [--dry-run]
        Import a gif pack (a folder with manifest.json, or a .tar.gz or .zip of one:
        docs/gif-packs.md), or FOLDER laid out as <category>/<file>.gif, or with
        --category a flat folder of gifs, or one gif FILE, for that category.
        Each file is checked (a real GIF, every frame decodable), duplicates (same
        content in the same category) are skipped but given the attribution the
        catalog lacks, and every refused file is reported with the reason.
        --near-duplicates: what to do with a gif that looks like one of its category
        (the same gif resized or re-encoded: perceptual hashes at most
        ${NEAR_DUPLICATE_MAX_DISTANCE} bits apart): skip it, add it and report it (the default), or keep
        it silently. Safe to re-run and to interrupt. --dry-run checks everything and
        changes nothing.
        Exit code 0 when every file was added or already there, 1 if any was refused.
  export FOLDER [--category NAME]
        Write the catalog (or one category) as a gif pack into FOLDER (new or
        empty): <category>/<sha256>.gif and manifest.json with attribution, which
        imports identically on another install.
${PULL_HELP}
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

/**
 * A gif as `gifs list --json` prints it: snake_case, with the API's names where GET
 * /sfw/gif/{type} answers the same field (`bytes`, `anime_name`, `dominant_color`, ...),
 * so a script reads one shape from both (issue 39 item 7; it printed camelCase).
 */
function describe (g: GifRecord, fileUrl: string): Record<string, unknown> {
  const attribution = { anime_name: g.animeName ?? null, artist: g.artist ?? null, artist_url: g.artistUrl ?? null, source_url: g.sourceUrl ?? null, dominant_color: g.dominantColor ?? null }
  return { id: String(g.id), category: g.category, file: fileUrl, hash: g.hash, external: g.url !== null, hidden: g.hidden, bytes: g.size, width: g.width, height: g.height, frames: g.frames, ...attribution, added_at: g.addedAt.toISOString() }
}

export const gifsCommand: CommandGroup = {
  name: 'gifs',
  summary: 'import, export, pull, list, count and remove the gifs of GET /sfw/gif/{type}',
  help: HELP,
  async run (args, ctx) {
    const [command, ...rest] = args
    const fullStore = await ctx.store()
    const store = fullStore.gifs
    try {
      switch (command) {
        case 'import': {
          const { values, positionals } = parseArgs({ args: rest, options: { category: { type: 'string' }, 'near-duplicates': { type: 'string' }, 'dry-run': { type: 'boolean' } }, allowPositionals: true })
          if (positionals.length !== 1) throw new UsageError('gifs import takes one pack, folder or file: gifs import PACK|FOLDER|FILE [--category NAME] [--near-duplicates skip|report|keep] [--dry-run]')
          const dryRun = values['dry-run'] === true
          const nearDuplicates = nearDuplicateMode(values['near-duplicates'], 'report')
          const progress = createProgress(ctx, 'files')
          const unpacking = createProgress(ctx, 'archive entries unpacked')
          const rejected = newsLines(ctx, 'refused')
          const near = newsLines(ctx, 'near-duplicates')
          // Every string that comes from the pack (entry and file names, URLs, reasons
          // quoting them) is printed through printable(): no control byte reaches the terminal.
          const report = await importGifs({
            folder: positionals[0]!,
            category: values.category,
            dryRun,
            nearDuplicates,
            store,
            files: fullStore.gifFiles,
            onUnpackProgress: (entries, total) => unpacking.update(entries, total),
            onStart: ({ kind, total, archive }) => {
              unpacking.finish()
              if (kind === 'pack') ctx.err(`pack${archive !== undefined ? ` ${printable(archive)}` : ''}: ${total} gif(s) in its manifest`)
            },
            onReject: (file, reason) => rejected.line(`rejected ${printable(file)}: ${printable(reason)}`),
            onNearDuplicate: (file, of, distance, added) => near.line(`near-duplicate ${printable(file)}: looks like gif ${of} (${distance} bits apart)${added ? ', added anyway' : ', skipped'}`),
            onProgress: (done, total) => progress.update(done, total)
          }).finally(() => { unpacking.finish(); progress.finish() })
          rejected.finish()
          near.finish()
          for (const name of report.cleaned) ctx.err(`cleaned ${printable(name)}: left by an interrupted import`)
          const extra = [
            report.attributed.length > 0 ? `attribution filled in for ${report.attributed.length}` : '',
            report.nearDuplicates.length > 0 ? `${report.nearDuplicates.length} near-duplicate(s) ${nearDuplicates === 'skip' ? 'skipped' : 'added'}` : ''
          ].filter(Boolean)
          ctx.out(`${dryRun ? 'Dry run: would add' : 'Added'} ${report.added.length}, skipped ${report.duplicates.length} duplicate(s), rejected ${report.rejected.length}.${extra.length > 0 ? ` ${extra.join('; ')}.` : ''}`)
          return report.rejected.length > 0 ? 1 : 0
        }
        case 'export': {
          const { values, positionals } = parseArgs({ args: rest, options: { category: { type: 'string' } }, allowPositionals: true })
          if (positionals.length !== 1) throw new UsageError('gifs export takes one folder: gifs export FOLDER [--category NAME]')
          const report = await exportPack({ store, files: fullStore.gifFiles, dir: positionals[0]!, category: values.category, generator: `${pkg.name} ${pkg.version}` })
          for (const m of report.missing) ctx.err(`missing gif ${m.id}: this install has no file ${printable(m.hash)}.gif (not exported)`)
          ctx.out(`Exported ${report.files} gif file(s) and ${report.external} external entr${report.external === 1 ? 'y' : 'ies'} to ${positionals[0]}.`)
          return report.missing.length > 0 ? 1 : 0
        }
        case 'pull': {
          return await pullCommand(rest, ctx, fullStore, pkg)
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
          if (values.json) { ctx.out(printableJson(list.map((g) => describe(g, catalog.fileUrl(g))))); return 0 }
          if (list.length === 0) { ctx.out('No gifs. Import some with: npm run cli -- gifs import FOLDER'); return 0 }
          ctx.out(table([
            ['ID', 'CATEGORY', 'SIZE', 'WxH', 'FRAMES', 'SHOWN', 'FILE'],
            // A record's category and URL may come from a pack or another writer of the store.
            ...list.map((g) => [String(g.id), printable(g.category), String(g.size), `${g.width}x${g.height}`, String(g.frames), g.hidden ? 'hidden' : 'yes', printable(catalog.fileUrl(g))])
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
          ctx.out(`Added gif ${record.id} (${record.category}): ${printable(record.url ?? '')}`)
          return 0
        }
        default:
          throw new UsageError(`Unknown command "gifs ${command}"`)
      }
    } catch (err) {
      // Import errors quote archive entries and manifest text: printable() (the others
      // quote what the operator typed).
      if (err instanceof ImportError) { ctx.err(`Error: ${printable(err.message)}`); return 1 }
      if (err instanceof StoreConflictError) { ctx.err(`Error: ${err.message}`); return 1 }
      throw err
    }
  }
}
