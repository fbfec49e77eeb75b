// Lithuanian (lt): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'SVEIKI ATVYKĘ',
  'goodbye.title': 'VISO GERO',
  'card.someone': 'Kažkas',
  'greeting.member': 'Narys Nr. {number}',
  'rank.level': 'LYGIS {level}',
  'rank.rank': 'VIETA #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '„{text}“',
  'quote.author': '— {name}',
  'leaderboard.title': 'Lyderių lentelė',
  'leaderboard.level': 'Lygis',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Vieta',
  'leaderboard.page': 'Puslapis {page} iš {pages}',
  'profile.member_since': 'Narys nuo {date}',
  'profile.level': 'Lygis',
  'profile.rank': 'Vieta',
  'profile.xp': 'XP',
  'profile.to_next': 'Iki {level} lygio liko {xp} XP',
  'nowplaying.title': 'Dabar groja',
  'nowplaying.up_next': 'Toliau: {title}',
  'nowplaying.queue': 'Eilėje: {count}'
}
