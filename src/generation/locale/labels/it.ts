// Italian (it): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'BENVENUTO',
  'goodbye.title': 'ARRIVEDERCI',
  'card.someone': 'Qualcuno',
  'greeting.member': 'Membro n. {number}',
  'rank.level': 'LIVELLO {level}',
  'rank.rank': 'POSIZIONE #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '«{text}»',
  'quote.author': '— {name}',
  'leaderboard.title': 'Classifica',
  'leaderboard.level': 'Livello',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Posizione',
  'leaderboard.page': 'Pagina {page} di {pages}',
  'profile.member_since': 'Membro dal {date}',
  'profile.level': 'Livello',
  'profile.rank': 'Posizione',
  'profile.xp': 'XP',
  'profile.to_next': '{xp} XP al livello {level}',
  'nowplaying.title': 'In riproduzione',
  'nowplaying.up_next': 'A seguire: {title}',
  'nowplaying.queue': '{count} in coda'
}
