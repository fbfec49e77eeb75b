// The fixed labels, dates and numbers of the profile and now-playing cards, in English
// until the labels of every locale (issue 40, item 4) take their place here.
const ENGLISH = {
  'profile.member_since': 'Member since {date}',
  'profile.level': 'Level',
  'profile.rank': 'Rank',
  'profile.xp': 'XP',
  'profile.to_next': '{xp} XP to level {level}',
  'nowplaying.title': 'Now playing',
  'nowplaying.up_next': 'Up next: {title}',
  'nowplaying.queue': '{count} in queue'
} as const

export type LabelKey = keyof typeof ENGLISH

export function label (key: LabelKey, vars: Record<string, string> = {}): string {
  return ENGLISH[key].replace(/\{(\w+)\}/g, (all, name: string) => vars[name] ?? all)
}

export function formatDate (date: Date): string {
  return new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(date)
}

/** Compact from ten thousand (12.5K), grouped below (1,234). */
export function formatNumber (n: number): string {
  return new Intl.NumberFormat('en', Math.abs(n) >= 1e4 ? { notation: 'compact', maximumFractionDigits: 1 } : { maximumFractionDigits: 0 }).format(n)
}
