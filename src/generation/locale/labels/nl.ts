// Dutch (nl): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'WELKOM',
  'goodbye.title': 'TOT ZIENS',
  'card.someone': 'Iemand',
  'greeting.member': 'Lid #{number}',
  'rank.level': 'LEVEL {level}',
  'rank.rank': 'RANG #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '‘{text}’',
  'quote.author': '— {name}',
  'leaderboard.title': 'Ranglijst',
  'leaderboard.level': 'Level',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Rang',
  'leaderboard.page': 'Pagina {page} van {pages}',
  'profile.member_since': 'Lid sinds {date}',
  'profile.level': 'Level',
  'profile.rank': 'Rang',
  'profile.xp': 'XP',
  'profile.to_next': 'Nog {xp} XP tot level {level}',
  'nowplaying.title': 'Nu aan het spelen',
  'nowplaying.up_next': 'Hierna: {title}',
  'nowplaying.queue': '{count} in de wachtrij'
}
