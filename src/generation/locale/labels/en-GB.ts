// English (United Kingdom) (en-GB): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'WELCOME',
  'goodbye.title': 'GOODBYE',
  'card.someone': 'Someone',
  'greeting.member': 'Member #{number}',
  'rank.level': 'LEVEL {level}',
  'rank.rank': 'RANK #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '‘{text}’',
  'quote.author': '— {name}',
  'leaderboard.title': 'Leaderboard',
  'leaderboard.level': 'Level',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Rank',
  'leaderboard.page': 'Page {page} of {pages}',
  'profile.member_since': 'Member since {date}',
  'profile.level': 'Level',
  'profile.rank': 'Rank',
  'profile.xp': 'XP',
  'profile.to_next': '{xp} XP to level {level}',
  'nowplaying.title': 'Now playing',
  'nowplaying.up_next': 'Up next: {title}',
  'nowplaying.queue': '{count} in queue'
}
