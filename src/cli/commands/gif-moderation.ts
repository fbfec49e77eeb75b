// npm run cli -- gifs reports | hide | unhide | dismiss: what keys reported (POST
// /sfw/gif/{id}/report) and the operator's answer to it. A hidden gif is never picked
// and its file answers 404, but nothing is deleted until `gifs remove`. Kept apart from
// gifs.ts and joined to the `gifs` group by withModeration (src/cli/main.ts).
import { parseArgs } from 'node:util'
import { createGifCatalog } from '../../gifs/catalog.js'
import { CLI_ACTOR, createAuditLog } from '../../admin/audit.js'
import { GIF_REPORT_REASONS, type GifCatalogStore, type GifRecord, type GifReport, type GifReportStatus, type KeyStore, type Store } from '../../store/interface.js'
import { type CliContext, type CommandGroup, UsageError } from '../context.js'
import { positiveInt } from '../options.js'
import { printable, printableJson } from '../terminal-text.js'

/** Reports read per page when summing them up. */
const REPORT_PAGE = 1000
const DEFAULT_REPORTED_GIFS = 50

export const MODERATION_HELP = `  reports [--gif ID] [--limit N] [--all] [--json]
        Gifs that keys reported (POST /sfw/gif/{id}/report), most reported first:
        id, category, whether hidden, number of open reports, reasons, last report,
        file. With --gif, that gif's reports one by one (report id, when, reason,
        the reporting key's name). Dismissed reports only with --all.
  reports dismiss REPORT_ID...
        Dismiss reports (nothing wrong with the gif): they leave the open queue, and
        stay listed with --all. Exit code 1 if an id is unknown.
  hide ID...
        Take gifs out of the picks: never answered by GET /sfw/gif, their files
        answer 404; nothing is deleted (gifs remove does that). Exit code 1 if an id
        is unknown (the others are hidden).
  unhide ID...
        Put hidden gifs back among the picks.
`

const COMMANDS = new Set(['reports', 'hide', 'unhide'])

/** The `gifs` group with reports, hide and unhide added. */
export function withModeration (group: CommandGroup): CommandGroup {
  const help = group.help.includes('\nTypes:') ? group.help.replace('\nTypes:', `${MODERATION_HELP}\nTypes:`) : `${group.help}\n${MODERATION_HELP}`
  return {
    ...group,
    summary: group.summary.replace(' and remove', ', hide and remove'),
    help,
    async run (args, ctx) {
      const [command, ...rest] = args
      if (command === undefined || !COMMANDS.has(command)) return await group.run(args, ctx)
      const opened = await ctx.store()
      const store = opened.gifs
      if (command === 'reports' && rest[0] === 'dismiss') return await dismiss(rest.slice(1), ctx, opened)
      if (command === 'reports') return await reports(rest, ctx, store, opened.keys)
      return await setHidden(command === 'hide', rest, ctx, store)
    }
  }
}

function ids (positionals: string[], command: string): number[] {
  if (positionals.length === 0) throw new UsageError(`gifs ${command} takes one or more gif ids: gifs ${command} ID...`)
  return positionals.map((p) => {
    if (!/^\d{1,15}$/.test(p)) throw new UsageError(`"${p}" is not a gif id (a whole number, as gifs list shows it)`)
    return Number(p)
  })
}

async function setHidden (hide: boolean, args: string[], ctx: CliContext, store: GifCatalogStore): Promise<number> {
  const command = hide ? 'hide' : 'unhide'
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true })
  let failed = 0
  for (const id of ids(positionals, command)) {
    const before = await store.get(id)
    if (!before) {
      ctx.err(`Error: no gif has the id ${id}`)
      failed++
      continue
    }
    if (before.hidden === hide) {
      ctx.out(`Gif ${id} (${printable(before.category)}) is already ${hide ? 'hidden' : 'shown'}.`)
      continue
    }
    const after = hide ? await store.hide(id) : await store.unhide(id)
    if (!after) {
      ctx.err(`Error: no gif has the id ${id} (removed meanwhile)`)
      failed++
      continue
    }
    ctx.out(hide
      ? `Hid gif ${id} (${printable(after.category)}): no longer picked, its file answers 404; "gifs unhide ${id}" shows it again.`
      : `Gif ${id} (${printable(after.category)}) is shown again.`)
  }
  return failed > 0 ? 1 : 0
}

interface ReportedGif {
  gif: GifRecord | undefined
  gifId: number
  count: number
  reasons: Record<string, number>
  last: Date
}

async function dismiss (args: string[], ctx: CliContext, store: Store): Promise<number> {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true })
  let failed = 0
  for (const id of ids(positionals, 'reports dismiss')) {
    const report = await store.gifs.dismissReport(id)
    if (!report) {
      ctx.err(`Error: no gif report has the id ${id} (gifs reports --gif ID lists them)`)
      failed++
      continue
    }
    await createAuditLog(store.admin).write({ actor: CLI_ACTOR, action: 'report.dismiss', target: `report:${report.id}`, details: { gif: String(report.gifId), reason: report.reason } })
    ctx.out(`Dismissed report ${id} (gif ${report.gifId}, ${printable(report.reason)}).`)
  }
  return failed > 0 ? 1 : 0
}

async function allReports (store: GifCatalogStore, gifId?: number, status: GifReportStatus = 'open'): Promise<GifReport[]> {
  const out: GifReport[] = []
  for (let afterId = 0; ;) {
    const page = await store.reports({ gifId, afterId, limit: REPORT_PAGE, status })
    out.push(...page)
    if (page.length < REPORT_PAGE) return out
    afterId = page[page.length - 1]!.id
  }
}

async function reports (args: string[], ctx: CliContext, store: GifCatalogStore, keys: KeyStore): Promise<number> {
  const { values } = parseArgs({ args, options: { gif: { type: 'string' }, limit: { type: 'string' }, all: { type: 'boolean' }, json: { type: 'boolean' } } })
  const catalog = createGifCatalog({ store, publicUrl: ctx.config.publicUrl })
  const status: GifReportStatus = values.all ? 'all' : 'open'
  if (values.gif !== undefined) {
    const [gifId] = ids([values.gif], 'reports --gif')
    const gif = await store.get(gifId!)
    if (!gif) { ctx.err(`Error: no gif has the id ${gifId}`); return 1 }
    const list = await allReports(store, gifId, status)
    const names = new Map((await keys.list()).map((k) => [k.id, k.name]))
    const keyName = (r: GifReport): string | null => r.keyId === null ? null : names.get(r.keyId) ?? null
    if (values.json) {
      ctx.out(printableJson(list.map((r) => ({ id: String(r.id), gif: String(r.gifId), reason: r.reason, key_name: keyName(r), created_at: r.createdAt.toISOString(), dismissed_at: r.dismissedAt?.toISOString() ?? null }))))
      return 0
    }
    // The records' category, URL and reasons are printed as data, never as terminal controls.
    ctx.out(`Gif ${gif.id} (${printable(gif.category)}${gif.hidden ? ', hidden' : ''}): ${list.length} report(s). ${printable(catalog.fileUrl(gif))}`)
    for (const r of list) ctx.out(`  report ${String(r.id).padEnd(6)}  ${r.createdAt.toISOString()}  ${printable(r.reason).padEnd(14)}  key ${printable(keyName(r) ?? '(gone)')}${r.dismissedAt ? `  dismissed ${r.dismissedAt.toISOString()}` : ''}`)
    return 0
  }
  const limit = positiveInt(values.limit, 'limit') ?? DEFAULT_REPORTED_GIFS
  const byGif = new Map<number, ReportedGif>()
  for (const r of await allReports(store, undefined, status)) {
    const entry = byGif.get(r.gifId) ?? { gif: undefined, gifId: r.gifId, count: 0, reasons: {}, last: r.createdAt }
    entry.count++
    entry.reasons[r.reason] = (entry.reasons[r.reason] ?? 0) + 1
    if (r.createdAt > entry.last) entry.last = r.createdAt
    byGif.set(r.gifId, entry)
  }
  const top = [...byGif.values()].sort((a, b) => b.count - a.count || b.last.getTime() - a.last.getTime()).slice(0, limit)
  for (const entry of top) entry.gif = await store.get(entry.gifId)
  const reasonsText = (r: Record<string, number>): string => GIF_REPORT_REASONS.filter((x) => r[x]).map((x) => `${x} ${r[x]}`).join(', ')
  if (values.json) {
    ctx.out(printableJson(top.map((e) => ({
      id: String(e.gifId),
      category: e.gif?.category ?? null,
      hidden: e.gif?.hidden ?? null,
      reports: e.count,
      reasons: e.reasons,
      lastReport: e.last.toISOString(),
      file: e.gif ? catalog.fileUrl(e.gif) : null
    }))))
    return 0
  }
  if (top.length === 0) {
    ctx.out('No reports.')
    return 0
  }
  const rows = [['ID', 'CATEGORY', 'HIDDEN', 'REPORTS', 'REASONS', 'LAST REPORT', 'FILE'],
    ...top.map((e) => [String(e.gifId), printable(e.gif?.category ?? '?'), e.gif?.hidden ? 'yes' : 'no', String(e.count), reasonsText(e.reasons), e.last.toISOString(), e.gif ? printable(catalog.fileUrl(e.gif)) : ''])]
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  ctx.out(rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n'))
  if (byGif.size > top.length) ctx.out(`(${byGif.size - top.length} more reported gif(s): --limit N)`)
  return 0
}
