// Writes .env.example and the settings tables of docs/configuration.md from the table of
// settings (src/config/settings.ts), so that neither can drift from what the server reads.
// Run after changing a setting:
//   node --import tsx scripts/settings-docs.ts
// test/unit/config/settings.test.ts fails while the committed files differ from what this makes.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { RETIRED_SETTINGS, type Setting, SETTING_GROUPS, type SettingGroup, SETTINGS } from '../src/config/settings.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const ENV_EXAMPLE = path.join(root, '.env.example')
export const CONFIGURATION_PAGE = path.join(root, 'docs', 'configuration.md')

const BEGIN = '<!-- settings: made by scripts/settings-docs.ts from src/config/settings.ts; edit the table there, then run the script -->'
const END = '<!-- end of the settings made by scripts/settings-docs.ts -->'

/** Comment lines of .env.example are wrapped to this width, as the rest of the file. */
const COMMENT_WIDTH = 88

function byGroup (): Array<[SettingGroup, Setting[]]> {
  return (Object.keys(SETTING_GROUPS) as SettingGroup[]).map((group) => [group, (SETTINGS as readonly Setting[]).filter((s) => s.group === group)])
}

function comment (text: string): string[] {
  const lines: string[] = []
  let line = '#'
  for (const word of text.split(/\s+/)) {
    if (line.length + 1 + word.length > COMMENT_WIDTH && line !== '#') {
      lines.push(line)
      line = '#'
    }
    line += ` ${word}`
  }
  lines.push(line)
  return lines
}

/** The whole of .env.example. */
export function envExample (): string {
  const out = [
    ...comment('Settings of the Utility Media API, each with its default. Copy this file to .env (read at start by `npm start` and `npm run cli` from the working directory, or the file ENV_FILE names) and uncomment what you change. Variables set in the environment win over this file. docs/configuration.md says what each one means.'),
    ...comment('Made from src/config/settings.ts by scripts/settings-docs.ts: change the table there, not this file.')
  ]
  for (const [group, settings] of byGroup()) {
    const g: { title: string, envTitle?: string, page?: string } = SETTING_GROUPS[group]
    out.push('', `# --- ${g.envTitle ?? g.title}${g.page === undefined ? '' : ` (docs/${g.page})`} ---`)
    for (const s of settings) {
      if (s.envComment !== undefined) out.push(...comment(s.envComment))
      out.push(`# ${s.name}=${s.shown}`)
    }
  }
  return out.join('\n') + '\n'
}

function defaultCell (s: Setting): string {
  const shown = s.shown === '' ? '–' : `\`${s.shown}\``
  return s.defaultNote === undefined ? shown : `${shown} (${s.defaultNote})`
}

/** The generated part of docs/configuration.md, markers included. */
export function settingsSection (): string {
  const out = [BEGIN]
  for (const [group, settings] of byGroup()) {
    const g: { title: string, page?: string } = SETTING_GROUPS[group]
    out.push('', `## ${g.title}`, '')
    if (g.page !== undefined) out.push(`Described in [${g.page}](${g.page}).`, '')
    out.push('| variable | default | meaning |', '|---|---|---|')
    for (const s of settings) out.push(`| \`${s.name}\` | ${defaultCell(s)} | ${s.doc} |`)
  }
  out.push('', '## Settings that no longer apply', '', 'A start with one of these set says so once, on standard error, and carries on:', '')
  for (const [name, why] of Object.entries(RETIRED_SETTINGS)) out.push(`- \`${name}\`: ${why}`)
  out.push('', END)
  return out.join('\n')
}

/** `page` (docs/configuration.md) with its generated part made anew. */
export function configurationPage (page: string): string {
  const begin = page.indexOf(BEGIN)
  const end = page.indexOf(END)
  if (begin < 0 || end < begin) throw new Error(`docs/configuration.md has lost the markers around its settings: ${BEGIN} … ${END}`)
  return page.slice(0, begin) + settingsSection() + page.slice(end + END.length)
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(ENV_EXAMPLE, envExample())
  fs.writeFileSync(CONFIGURATION_PAGE, configurationPage(fs.readFileSync(CONFIGURATION_PAGE, 'utf8')))
  process.stdout.write('Wrote .env.example and the settings of docs/configuration.md from src/config/settings.ts\n')
}
