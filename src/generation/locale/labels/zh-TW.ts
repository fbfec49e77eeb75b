// Chinese (Traditional) (zh-TW): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': '歡迎',
  'goodbye.title': '再見',
  'card.someone': '某人',
  'greeting.member': '第 {number} 位成員',
  'rank.level': '等級 {level}',
  'rank.rank': '排名 #{rank}',
  'rank.xp': '{xp} / {max} 經驗值',
  'quote.text': '「{text}」',
  'quote.author': '—— {name}',
  'leaderboard.title': '排行榜',
  'leaderboard.level': '等級',
  'leaderboard.xp': '經驗值',
  'leaderboard.rank': '排名',
  'leaderboard.page': '第 {page} / {pages} 頁',
  'profile.member_since': '加入於 {date}',
  'profile.level': '等級',
  'profile.rank': '排名',
  'profile.xp': '經驗值',
  'profile.to_next': '距離 {level} 級還差 {xp} 經驗值',
  'nowplaying.title': '正在播放',
  'nowplaying.up_next': '下一首：{title}',
  'nowplaying.queue': '佇列中有 {count} 首'
}
