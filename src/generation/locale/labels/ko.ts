// Korean (ko): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': '환영합니다',
  'goodbye.title': '안녕히 가세요',
  'card.someone': '누군가',
  'greeting.member': '멤버 #{number}',
  'rank.level': '레벨 {level}',
  'rank.rank': '순위 #{rank}',
  'rank.xp': '{xp} / {max} 경험치',
  'quote.text': '“{text}”',
  'quote.author': '— {name}',
  'leaderboard.title': '순위표',
  'leaderboard.level': '레벨',
  'leaderboard.xp': '경험치',
  'leaderboard.rank': '순위',
  'leaderboard.page': '{page} / {pages} 페이지',
  'profile.member_since': '가입일: {date}',
  'profile.level': '레벨',
  'profile.rank': '순위',
  'profile.xp': '경험치',
  'profile.to_next': '레벨 {level}까지 {xp} 경험치',
  'nowplaying.title': '지금 재생 중',
  'nowplaying.up_next': '다음 곡: {title}',
  'nowplaying.queue': '대기열 {count}곡'
}
