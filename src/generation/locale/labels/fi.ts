// Finnish (fi): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'TERVETULOA',
  'goodbye.title': 'NÄKEMIIN',
  'card.someone': 'Joku',
  'greeting.member': 'Jäsen #{number}',
  'rank.level': 'TASO {level}',
  'rank.rank': 'SIJA #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '”{text}”',
  'quote.author': '— {name}',
  'leaderboard.title': 'Tulostaulu',
  'leaderboard.level': 'Taso',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Sija',
  'leaderboard.page': 'Sivu {page}/{pages}',
  'profile.member_since': 'Jäsen {date} alkaen',
  'profile.level': 'Taso',
  'profile.rank': 'Sija',
  'profile.xp': 'XP',
  'profile.to_next': '{xp} XP tasoon {level}',
  'nowplaying.title': 'Nyt soi',
  'nowplaying.up_next': 'Seuraavaksi: {title}',
  'nowplaying.queue': 'Jonossa {count}'
}
