// Thai (th): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'ยินดีต้อนรับ',
  'goodbye.title': 'ลาก่อน',
  'card.someone': 'ใครบางคน',
  'greeting.member': 'สมาชิก #{number}',
  'rank.level': 'เลเวล {level}',
  'rank.rank': 'อันดับ #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '“{text}”',
  'quote.author': '— {name}',
  'leaderboard.title': 'กระดานผู้นำ',
  'leaderboard.level': 'เลเวล',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'อันดับ',
  'leaderboard.page': 'หน้า {page}/{pages}',
  'profile.member_since': 'เป็นสมาชิกตั้งแต่ {date}',
  'profile.level': 'เลเวล',
  'profile.rank': 'อันดับ',
  'profile.xp': 'XP',
  'profile.to_next': 'อีก {xp} XP ถึงเลเวล {level}',
  'nowplaying.title': 'กำลังเล่น',
  'nowplaying.up_next': 'ถัดไป: {title}',
  'nowplaying.queue': 'ในคิว {count}'
}
