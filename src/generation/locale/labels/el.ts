// Greek (el): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'ΚΑΛΩΣ ΗΡΘΕΣ',
  'goodbye.title': 'ΑΝΤΙΟ',
  'card.someone': 'Κάποιος',
  'greeting.member': 'Μέλος #{number}',
  'rank.level': 'ΕΠΙΠΕΔΟ {level}',
  'rank.rank': 'ΘΕΣΗ #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '«{text}»',
  'quote.author': '— {name}',
  'leaderboard.title': 'Κατάταξη',
  'leaderboard.level': 'Επίπεδο',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Θέση',
  'leaderboard.page': 'Σελίδα {page} από {pages}',
  'profile.member_since': 'Μέλος από {date}',
  'profile.level': 'Επίπεδο',
  'profile.rank': 'Θέση',
  'profile.xp': 'XP',
  'profile.to_next': '{xp} XP για το επίπεδο {level}',
  'nowplaying.title': 'Παίζει τώρα',
  'nowplaying.up_next': 'Επόμενο: {title}',
  'nowplaying.queue': '{count} στην ουρά'
}
