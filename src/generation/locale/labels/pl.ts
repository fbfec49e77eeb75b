// Polish (pl): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'WITAJ',
  'goodbye.title': 'DO ZOBACZENIA',
  'card.someone': 'Ktoś',
  'greeting.member': 'Członek nr {number}',
  'rank.level': 'POZIOM {level}',
  'rank.rank': 'MIEJSCE #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '„{text}”',
  'quote.author': '— {name}',
  'leaderboard.title': 'Ranking',
  'leaderboard.level': 'Poziom',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Miejsce',
  'leaderboard.page': 'Strona {page} z {pages}',
  'profile.member_since': 'Członek od {date}',
  'profile.level': 'Poziom',
  'profile.rank': 'Miejsce',
  'profile.xp': 'XP',
  'profile.to_next': '{xp} XP do poziomu {level}',
  'nowplaying.title': 'Teraz odtwarzane',
  'nowplaying.up_next': 'Następnie: {title}',
  'nowplaying.queue': 'W kolejce: {count}'
}
