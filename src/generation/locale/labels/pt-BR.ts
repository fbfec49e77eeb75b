// Portuguese (Brazil) (pt-BR): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'BEM-VINDO',
  'goodbye.title': 'ATÉ LOGO',
  'card.someone': 'Alguém',
  'greeting.member': 'Membro nº {number}',
  'rank.level': 'NÍVEL {level}',
  'rank.rank': 'POSIÇÃO #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '“{text}”',
  'quote.author': '— {name}',
  'leaderboard.title': 'Classificação',
  'leaderboard.level': 'Nível',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Posição',
  'leaderboard.page': 'Página {page} de {pages}',
  'profile.member_since': 'Membro desde {date}',
  'profile.level': 'Nível',
  'profile.rank': 'Posição',
  'profile.xp': 'XP',
  'profile.to_next': '{xp} XP para o nível {level}',
  'nowplaying.title': 'Tocando agora',
  'nowplaying.up_next': 'A seguir: {title}',
  'nowplaying.queue': '{count} na fila'
}
