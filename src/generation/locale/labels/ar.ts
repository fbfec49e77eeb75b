// Arabic (ar): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'أهلًا بك',
  'goodbye.title': 'وداعًا',
  'card.someone': 'شخص ما',
  'greeting.member': 'العضو رقم {number}',
  'rank.level': 'المستوى {level}',
  'rank.rank': 'الترتيب #{rank}',
  'rank.xp': '{xp} / {max} خبرة',
  'quote.text': '«{text}»',
  'quote.author': '— {name}',
  'leaderboard.title': 'لوحة الصدارة',
  'leaderboard.level': 'المستوى',
  'leaderboard.xp': 'الخبرة',
  'leaderboard.rank': 'الترتيب',
  'leaderboard.page': 'الصفحة {page} من {pages}',
  'profile.member_since': 'عضو منذ {date}',
  'profile.level': 'المستوى',
  'profile.rank': 'الترتيب',
  'profile.xp': 'الخبرة',
  'profile.to_next': 'باقي {xp} خبرة للمستوى {level}',
  'nowplaying.title': 'يُشغَّل الآن',
  'nowplaying.up_next': 'التالي: {title}',
  'nowplaying.queue': '{count} في قائمة الانتظار'
}
