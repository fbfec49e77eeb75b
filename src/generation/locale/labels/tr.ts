// Turkish (tr): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'HOŞ GELDİN',
  'goodbye.title': 'GÜLE GÜLE',
  'card.someone': 'Birisi',
  'greeting.member': 'Üye #{number}',
  'rank.level': 'SEVİYE {level}',
  'rank.rank': 'SIRA #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '“{text}”',
  'quote.author': '— {name}',
  'leaderboard.title': 'Lider Tablosu',
  'leaderboard.level': 'Seviye',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Sıra',
  'leaderboard.page': 'Sayfa {page}/{pages}',
  'profile.member_since': '{date} tarihinden beri üye',
  'profile.level': 'Seviye',
  'profile.rank': 'Sıra',
  'profile.xp': 'XP',
  'profile.to_next': 'Seviye {level} için {xp} XP',
  'nowplaying.title': 'Şimdi çalıyor',
  'nowplaying.up_next': 'Sıradaki: {title}',
  'nowplaying.queue': 'Sırada {count} şarkı'
}
