// Swedish (sv-SE): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'VÄLKOMMEN',
  'goodbye.title': 'HEJ DÅ',
  'card.someone': 'Någon',
  'greeting.member': 'Medlem #{number}',
  'rank.level': 'NIVÅ {level}',
  'rank.rank': 'PLATS #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '”{text}”',
  'quote.author': '— {name}',
  'leaderboard.title': 'Topplista',
  'leaderboard.level': 'Nivå',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Placering',
  'leaderboard.page': 'Sida {page} av {pages}',
  'profile.member_since': 'Medlem sedan {date}',
  'profile.level': 'Nivå',
  'profile.rank': 'Placering',
  'profile.xp': 'XP',
  'profile.to_next': '{xp} XP till nivå {level}',
  'nowplaying.title': 'Spelas nu',
  'nowplaying.up_next': 'Härnäst: {title}',
  'nowplaying.queue': '{count} i kön'
}
