// Bulgarian (bg): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'ДОБРЕ ДОШЛИ',
  'goodbye.title': 'ДОВИЖДАНЕ',
  'card.someone': 'Някой',
  'greeting.member': 'Член №{number}',
  'rank.level': 'НИВО {level}',
  'rank.rank': 'МЯСТО #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '„{text}“',
  'quote.author': '— {name}',
  'leaderboard.title': 'Класация',
  'leaderboard.level': 'Ниво',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Място',
  'leaderboard.page': 'Страница {page} от {pages}',
  'profile.member_since': 'Член от {date}',
  'profile.level': 'Ниво',
  'profile.rank': 'Място',
  'profile.xp': 'XP',
  'profile.to_next': 'Още {xp} XP до ниво {level}',
  'nowplaying.title': 'Сега звучи',
  'nowplaying.up_next': 'Следва: {title}',
  'nowplaying.queue': '{count} на опашката'
}
