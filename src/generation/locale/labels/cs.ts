// Czech (cs): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'VÍTEJ',
  'goodbye.title': 'NASHLEDANOU',
  'card.someone': 'Někdo',
  'greeting.member': 'Člen č. {number}',
  'rank.level': 'ÚROVEŇ {level}',
  'rank.rank': 'POŘADÍ #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '„{text}“',
  'quote.author': '— {name}',
  'leaderboard.title': 'Žebříček',
  'leaderboard.level': 'Úroveň',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Pořadí',
  'leaderboard.page': 'Strana {page} z {pages}',
  'profile.member_since': 'Členem od {date}',
  'profile.level': 'Úroveň',
  'profile.rank': 'Pořadí',
  'profile.xp': 'XP',
  'profile.to_next': 'Ještě {xp} XP do úrovně {level}',
  'nowplaying.title': 'Právě hraje',
  'nowplaying.up_next': 'Další: {title}',
  'nowplaying.queue': 'Ve frontě: {count}'
}
