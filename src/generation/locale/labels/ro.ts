// Romanian (ro): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'BUN VENIT',
  'goodbye.title': 'LA REVEDERE',
  'card.someone': 'Cineva',
  'greeting.member': 'Membru nr. {number}',
  'rank.level': 'NIVEL {level}',
  'rank.rank': 'LOCUL #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '„{text}”',
  'quote.author': '— {name}',
  'leaderboard.title': 'Clasament',
  'leaderboard.level': 'Nivel',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Loc',
  'leaderboard.page': 'Pagina {page} din {pages}',
  'profile.member_since': 'Membru din {date}',
  'profile.level': 'Nivel',
  'profile.rank': 'Loc',
  'profile.xp': 'XP',
  'profile.to_next': 'Încă {xp} XP până la nivelul {level}',
  'nowplaying.title': 'Se redă acum',
  'nowplaying.up_next': 'Urmează: {title}',
  'nowplaying.queue': '{count} în coadă'
}
