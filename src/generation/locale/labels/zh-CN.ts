// Chinese (Simplified) (zh-CN): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': '欢迎',
  'goodbye.title': '再见',
  'card.someone': '某人',
  'greeting.member': '第 {number} 位成员',
  'rank.level': '等级 {level}',
  'rank.rank': '排名 #{rank}',
  'rank.xp': '{xp} / {max} 经验',
  'quote.text': '“{text}”',
  'quote.author': '—— {name}',
  'leaderboard.title': '排行榜',
  'leaderboard.level': '等级',
  'leaderboard.xp': '经验',
  'leaderboard.rank': '排名',
  'leaderboard.page': '第 {page} / {pages} 页',
  'profile.member_since': '加入于 {date}',
  'profile.level': '等级',
  'profile.rank': '排名',
  'profile.xp': '经验',
  'profile.to_next': '距 {level} 级还差 {xp} 经验',
  'nowplaying.title': '正在播放',
  'nowplaying.up_next': '下一首：{title}',
  'nowplaying.queue': '队列中有 {count} 首'
}
