// Norwegian (Bokmål) (no): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'VELKOMMEN',
  'goodbye.title': 'HA DET BRA',
  'card.someone': 'Noen',
  'greeting.member': 'Medlem #{number}',
  'rank.level': 'NIVÅ {level}',
  'rank.rank': 'RANG #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '«{text}»',
  'quote.author': '— {name}',
  'leaderboard.title': 'Toppliste',
  'leaderboard.level': 'Nivå',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Rang',
  'leaderboard.page': 'Side {page} av {pages}',
  'profile.member_since': 'Medlem siden {date}',
  'profile.level': 'Nivå',
  'profile.rank': 'Rang',
  'profile.xp': 'XP',
  'profile.to_next': '{xp} XP til nivå {level}',
  'nowplaying.title': 'Spilles nå',
  'nowplaying.up_next': 'Neste: {title}',
  'nowplaying.queue': '{count} i køen'
}
