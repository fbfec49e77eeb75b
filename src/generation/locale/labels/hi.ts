// Hindi (hi): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'स्वागत है',
  'goodbye.title': 'अलविदा',
  'card.someone': 'कोई',
  'greeting.member': 'सदस्य #{number}',
  'rank.level': 'लेवल {level}',
  'rank.rank': 'रैंक #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '“{text}”',
  'quote.author': '— {name}',
  'leaderboard.title': 'लीडरबोर्ड',
  'leaderboard.level': 'लेवल',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'रैंक',
  'leaderboard.page': 'पेज {page}/{pages}',
  'profile.member_since': '{date} से सदस्य',
  'profile.level': 'लेवल',
  'profile.rank': 'रैंक',
  'profile.xp': 'XP',
  'profile.to_next': 'लेवल {level} के लिए {xp} XP',
  'nowplaying.title': 'अभी चल रहा है',
  'nowplaying.up_next': 'अगला: {title}',
  'nowplaying.queue': 'कतार में {count}'
}
