// Spanish (Latin America) (es-419): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': '¡BIENVENIDO!',
  'goodbye.title': '¡ADIÓS!',
  'card.someone': 'Alguien',
  'greeting.member': 'Miembro #{number}',
  'rank.level': 'NIVEL {level}',
  'rank.rank': 'PUESTO #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '“{text}”',
  'quote.author': '— {name}',
  'leaderboard.title': 'Tabla de posiciones',
  'leaderboard.level': 'Nivel',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Puesto',
  'leaderboard.page': 'Página {page} de {pages}',
  'profile.member_since': 'Miembro desde el {date}',
  'profile.level': 'Nivel',
  'profile.rank': 'Puesto',
  'profile.xp': 'XP',
  'profile.to_next': '{xp} XP para el nivel {level}',
  'nowplaying.title': 'Reproduciendo ahora',
  'nowplaying.up_next': 'Sigue: {title}',
  'nowplaying.queue': '{count} en la cola'
}
