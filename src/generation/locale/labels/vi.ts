// Vietnamese (vi): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'CHÀO MỪNG',
  'goodbye.title': 'TẠM BIỆT',
  'card.someone': 'Ai đó',
  'greeting.member': 'Thành viên #{number}',
  'rank.level': 'CẤP {level}',
  'rank.rank': 'HẠNG #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '“{text}”',
  'quote.author': '— {name}',
  'leaderboard.title': 'Bảng xếp hạng',
  'leaderboard.level': 'Cấp',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Hạng',
  'leaderboard.page': 'Trang {page}/{pages}',
  'profile.member_since': 'Thành viên từ {date}',
  'profile.level': 'Cấp',
  'profile.rank': 'Hạng',
  'profile.xp': 'XP',
  'profile.to_next': 'Còn {xp} XP để lên cấp {level}',
  'nowplaying.title': 'Đang phát',
  'nowplaying.up_next': 'Tiếp theo: {title}',
  'nowplaying.queue': '{count} bài trong hàng chờ'
}
