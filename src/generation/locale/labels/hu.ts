// Hungarian (hu): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'ÜDVÖZLÜNK',
  'goodbye.title': 'VISZLÁT',
  'card.someone': 'Valaki',
  'greeting.member': 'Tag #{number}',
  'rank.level': '{level}. SZINT',
  'rank.rank': '{rank}. HELY',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '„{text}”',
  'quote.author': '— {name}',
  'leaderboard.title': 'Ranglista',
  'leaderboard.level': 'Szint',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Helyezés',
  'leaderboard.page': '{page}. oldal / {pages}',
  'profile.member_since': 'Tag {date} óta',
  'profile.level': 'Szint',
  'profile.rank': 'Helyezés',
  'profile.xp': 'XP',
  'profile.to_next': '{level}. szintig még {xp} XP',
  'nowplaying.title': 'Most szól',
  'nowplaying.up_next': 'Következik: {title}',
  'nowplaying.queue': '{count} a sorban'
}
