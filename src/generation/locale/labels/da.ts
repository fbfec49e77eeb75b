// Danish (da): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'VELKOMMEN',
  'goodbye.title': 'FARVEL',
  'card.someone': 'Nogen',
  'greeting.member': 'Medlem #{number}',
  'rank.level': 'NIVEAU {level}',
  'rank.rank': 'RANG #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '»{text}«',
  'quote.author': '— {name}',
  'leaderboard.title': 'Rangliste',
  'leaderboard.level': 'Niveau',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Rang',
  'leaderboard.page': 'Side {page} af {pages}',
  'profile.member_since': 'Medlem siden {date}',
  'profile.level': 'Niveau',
  'profile.rank': 'Rang',
  'profile.xp': 'XP',
  'profile.to_next': '{xp} XP til niveau {level}',
  'nowplaying.title': 'Spiller nu',
  'nowplaying.up_next': 'Næste: {title}',
  'nowplaying.queue': '{count} i køen'
}
