// npm run cli -- gifs pull SOURCE --category TYPE --count N: fills a category from a
// public gif API (src/gifs/pull.ts), through the SSRF-safe fetcher with the server's
// REMOTE_FETCH_* limits, at the source's pace.
import { parseArgs } from 'node:util'
import { settingShown } from '../../config.js'
import { NEAR_DUPLICATE_MAX_DISTANCE } from '../../gifs/perceptual-hash.js'
import { pullGifs, PullError } from '../../gifs/pull.js'
import { findSource, GIF_SOURCES } from '../../gifs/sources.js'
import { GIF_TYPES, isGifType } from '../../gifs/types.js'
import { createRemoteFetcher } from '../../remote-fetch/fetcher.js'
import type { Store } from '../../store/interface.js'
import { type CliContext, UsageError } from '../context.js'
import { nearDuplicateMode, positiveInt } from '../options.js'
import { createProgress } from '../progress.js'
import { printable } from '../terminal-text.js'

/** More in one run is more than any source's catalog of a category. */
const MAX_PULL_COUNT = 10_000
/**
 * An error message quoting a source (its own error text, a URL it gave) is cut past this
 * many characters: enough for ours whole (the longest lists a source's categories).
 */
const ERROR_MESSAGE_MAX = 600

export const PULL_HELP = `  pull SOURCE --category TYPE --count N [--base-url URL] [--source-category NAME]
       [--interval-ms MS] [--contact URL|EMAIL] [--near-duplicates skip|report|keep]
        Add N new gifs of TYPE from a public gif API (SOURCE: ${GIF_SOURCES.map((s) => s.name).join(', ')}).
        Each gif is checked and stored like an imported one, with the attribution
        the source gives (anime, artist, source page). Requests are paced to the
        source's published limit (--interval-ms to change it) and carry a User-Agent
        naming this API, its version and your contact (--contact, else
        GIF_PULL_CONTACT, INFO_WEBSITE or INFO_EMAIL: one is required). Base URL:
        --base-url, else the source's setting:
${GIF_SOURCES.map((s) => `          ${s.name.padEnd(11)} ${s.setting} (${settingShown(s.setting)})`).join('\n')}
        Near-duplicates (perceptual hashes at most ${NEAR_DUPLICATE_MAX_DISTANCE} bits apart) are
        skipped by default. Interrupted (even by kill -9), the same command again
        finishes the run: nothing twice, no file left behind. Exit code 1 when the
        source ran dry or failed. You are responsible for having the right to use
        what you pull (docs/gif-packs.md).`

export async function pullCommand (rest: string[], ctx: CliContext, store: Store, pkg: { name: string, version: string }): Promise<number> {
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      category: { type: 'string' },
      count: { type: 'string' },
      'base-url': { type: 'string' },
      'source-category': { type: 'string' },
      'interval-ms': { type: 'string' },
      contact: { type: 'string' },
      'near-duplicates': { type: 'string' }
    },
    allowPositionals: true
  })
  if (positionals.length !== 1 || values.category === undefined || values.count === undefined) {
    throw new UsageError('gifs pull takes a source, a category and a count: gifs pull SOURCE --category TYPE --count N')
  }
  const source = findSource(positionals[0]!)
  if (source === undefined) throw new UsageError(`"${positionals[0]}" is not a source: use one of ${GIF_SOURCES.map((s) => s.name).join(', ')}`)
  const category = values.category.trim().toLowerCase()
  if (!isGifType(category)) throw new UsageError(`"${values.category}" is not a gif type: use one of ${GIF_TYPES.join(', ')}`)
  const count = positiveInt(values.count, 'count')!
  if (count > MAX_PULL_COUNT) throw new UsageError(`--count is at most ${MAX_PULL_COUNT}, got ${count}`)
  const intervalRaw = values['interval-ms']
  if (intervalRaw !== undefined && !/^\d{1,7}$/.test(intervalRaw)) throw new UsageError(`--interval-ms must be a whole number of milliseconds, got "${intervalRaw}"`)
  const baseUrl = values['base-url'] ?? ctx.config.gifPull.baseUrls[source.setting]!
  try {
    const u = new URL(baseUrl)
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme')
  } catch {
    throw new UsageError(`--base-url must be an http(s) URL, got "${baseUrl}"`)
  }
  const contact = values.contact?.trim() || ctx.config.gifPull.contact
  if (contact === undefined) throw new UsageError('gifs pull needs a contact for the User-Agent (sources block anonymous clients): --contact URL|EMAIL, or set GIF_PULL_CONTACT')
  if (!/^[\x21-\x7e][\x20-\x7e]{0,199}$/.test(contact)) throw new UsageError('--contact must be a URL or an e-mail address in printable ASCII')

  const fetcher = createRemoteFetcher({
    allow: ctx.config.remoteFetchAllow,
    maxBytes: ctx.config.remoteFetchMaxBytes,
    timeoutMs: ctx.config.remoteFetchTimeoutMs,
    // The form nekos.best asks for: APP/VERSION (CONTACT).
    userAgent: `${pkg.name}/${pkg.version} (${contact})`
  })
  const progress = createProgress(ctx, 'gifs')
  try {
    const report = await pullGifs({
      source,
      baseUrl,
      category,
      sourceCategory: values['source-category'],
      count,
      store: store.gifs,
      files: store.gifFiles,
      fetcher,
      dataDir: ctx.config.dataDir,
      intervalMs: intervalRaw !== undefined ? Number(intervalRaw) : source.defaultIntervalMs,
      nearDuplicates: nearDuplicateMode(values['near-duplicates'], 'skip'),
      onProgress: (added, total) => progress.update(added, total),
      // The URL and the reason (which may quote the source or a redirect) came from outside.
      onSkip: (url, reason) => ctx.err(`skipped ${printable(url)}: ${printable(reason)}`),
      onNotice: (message) => ctx.err(message)
    })
    progress.finish()
    const resumed = report.resumed > 0 || report.runAdded > report.added ? ` (${report.runAdded - report.added + report.resumed} finished from an interrupted run)` : ''
    ctx.out(`Added ${report.runAdded} of ${count} ${category} gif(s) from ${source.name}${resumed}; skipped ${report.duplicates} duplicate(s), ${report.nearDuplicates} near-duplicate(s), ${report.rejected} refused; ${report.requests} request(s).`)
    if (!report.complete) {
      ctx.err(`${source.name} gave nothing new for a while: the category holds what it offers (or its answers repeat). Run again later for more.`)
      return 1
    }
    return 0
  } catch (err) {
    progress.finish()
    if (err instanceof PullError) { ctx.err(`Error: ${printable(err.message, ERROR_MESSAGE_MAX)}`); return 1 }
    // The source's refusals and failures (AppErrors of the fetcher) end the run; the journal keeps it for the next one.
    if ((err as { code?: string }).code?.startsWith('REMOTE_FETCH') === true) { ctx.err(`Error: ${printable((err as Error).message, ERROR_MESSAGE_MAX)}. Run the same command again to go on.`); return 1 }
    throw err
  }
}
