// Indonesian (id): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'SELAMAT DATANG',
  'goodbye.title': 'SAMPAI JUMPA',
  'card.someone': 'Seseorang',
  'greeting.member': 'Anggota #{number}',
  'rank.level': 'LEVEL {level}',
  'rank.rank': 'PERINGKAT #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '“{text}”',
  'quote.author': '— {name}',
  'leaderboard.title': 'Papan Peringkat',
  'leaderboard.level': 'Level',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Peringkat',
  'leaderboard.page': 'Halaman {page} dari {pages}',
  'profile.member_since': 'Anggota sejak {date}',
  'profile.level': 'Level',
  'profile.rank': 'Peringkat',
  'profile.xp': 'XP',
  'profile.to_next': '{xp} XP lagi ke level {level}',
  'nowplaying.title': 'Sedang diputar',
  'nowplaying.up_next': 'Berikutnya: {title}',
  'nowplaying.queue': '{count} dalam antrean'
}
