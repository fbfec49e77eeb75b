// Japanese (ja): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'ようこそ',
  'goodbye.title': 'さようなら',
  'card.someone': 'だれか',
  'greeting.member': '{number} 人目のメンバー',
  'rank.level': 'レベル {level}',
  'rank.rank': 'ランク #{rank}',
  'rank.xp': '{xp} / {max} 経験値',
  'quote.text': '「{text}」',
  'quote.author': '— {name}',
  'leaderboard.title': 'ランキング',
  'leaderboard.level': 'レベル',
  'leaderboard.xp': '経験値',
  'leaderboard.rank': '順位',
  'leaderboard.page': '{page} / {pages} ページ',
  'profile.member_since': '{date} に参加',
  'profile.level': 'レベル',
  'profile.rank': '順位',
  'profile.xp': '経験値',
  'profile.to_next': 'レベル {level} まであと {xp} 経験値',
  'nowplaying.title': '再生中',
  'nowplaying.up_next': '次の曲：{title}',
  'nowplaying.queue': 'キューに {count} 曲'
}
