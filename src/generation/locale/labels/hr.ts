// Croatian (hr): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'DOBRO DOŠLI',
  'goodbye.title': 'DOVIĐENJA',
  'card.someone': 'Netko',
  'greeting.member': 'Član br. {number}',
  'rank.level': 'RAZINA {level}',
  'rank.rank': 'RANG #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '„{text}”',
  'quote.author': '— {name}',
  'leaderboard.title': 'Ljestvica',
  'leaderboard.level': 'Razina',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Rang',
  'leaderboard.page': 'Stranica {page} od {pages}',
  'profile.member_since': 'Član od {date}',
  'profile.level': 'Razina',
  'profile.rank': 'Rang',
  'profile.xp': 'XP',
  'profile.to_next': 'Još {xp} XP do razine {level}',
  'nowplaying.title': 'Sada svira',
  'nowplaying.up_next': 'Sljedeće: {title}',
  'nowplaying.queue': '{count} u redu čekanja'
}
