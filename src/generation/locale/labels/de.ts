// German (de): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'WILLKOMMEN',
  'goodbye.title': 'AUF WIEDERSEHEN',
  'card.someone': 'Jemand',
  'greeting.member': 'Mitglied #{number}',
  'rank.level': 'LEVEL {level}',
  'rank.rank': 'RANG #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '„{text}“',
  'quote.author': '— {name}',
  'leaderboard.title': 'Bestenliste',
  'leaderboard.level': 'Level',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Rang',
  'leaderboard.page': 'Seite {page} von {pages}',
  'profile.member_since': 'Mitglied seit {date}',
  'profile.level': 'Level',
  'profile.rank': 'Rang',
  'profile.xp': 'XP',
  'profile.to_next': 'Noch {xp} XP bis Level {level}',
  'nowplaying.title': 'Läuft gerade',
  'nowplaying.up_next': 'Als Nächstes: {title}',
  'nowplaying.queue': '{count} in der Warteschlange'
}
