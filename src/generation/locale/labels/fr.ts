// French (fr): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'BIENVENUE',
  'goodbye.title': 'AU REVOIR',
  'card.someone': 'Quelqu’un',
  'greeting.member': 'Membre n°\u00a0{number}',
  'rank.level': 'NIVEAU {level}',
  'rank.rank': 'RANG #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '«\u00a0{text}\u00a0»',
  'quote.author': '— {name}',
  'leaderboard.title': 'Classement',
  'leaderboard.level': 'Niveau',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Rang',
  'leaderboard.page': 'Page {page} sur {pages}',
  'profile.member_since': 'Membre depuis le {date}',
  'profile.level': 'Niveau',
  'profile.rank': 'Rang',
  'profile.xp': 'XP',
  'profile.to_next': '{xp} XP avant le niveau {level}',
  'nowplaying.title': 'En cours de lecture',
  'nowplaying.up_next': 'À suivre\u00a0: {title}',
  'nowplaying.queue': '{count} en file d’attente'
}
