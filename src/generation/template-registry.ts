// The /gen/{template} pictures, one file each in templates/: the welcome and goodbye
// banners (greeting.ts), the rank card (rank.ts) and the quote card (quote.ts), on the
// card they share (card.ts); what a template is: templates/template.ts.
import { greetingTemplate } from './templates/greeting.js'
import { quote } from './templates/quote.js'
import { rank } from './templates/rank.js'
import type { Template } from './templates/template.js'

export { xpProgress } from './templates/rank.js'
export { type Draw, type FieldDoc, MAX_FIELD_LENGTH, sized, type Template, type TemplateDeps, type TemplateFields } from './templates/template.js'

export const TEMPLATES: readonly Template[] = [
  greetingTemplate('welcome', 'white', 'A welcome banner: avatar, username, member count, icon and banner'),
  greetingTemplate('goodbye', '#ff8a80', 'A goodbye banner, the welcome banner\'s twin for members who leave'),
  rank,
  quote
]

/** Field names a template reads, lower-cased (query and body keys are case-insensitive). */
export function templateByName (name: string): Template | undefined {
  return TEMPLATES.find((t) => t.name === name.toLowerCase())
}
