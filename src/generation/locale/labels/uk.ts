// Ukrainian (uk): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'ЛАСКАВО ПРОСИМО',
  'goodbye.title': 'ДО ПОБАЧЕННЯ',
  'card.someone': 'Хтось',
  'greeting.member': 'Учасник №{number}',
  'rank.level': 'РІВЕНЬ {level}',
  'rank.rank': 'МІСЦЕ #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '«{text}»',
  'quote.author': '— {name}',
  'leaderboard.title': 'Таблиця лідерів',
  'leaderboard.level': 'Рівень',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Місце',
  'leaderboard.page': 'Сторінка {page} з {pages}',
  'profile.member_since': 'Учасник з {date}',
  'profile.level': 'Рівень',
  'profile.rank': 'Місце',
  'profile.xp': 'XP',
  'profile.to_next': 'Ще {xp} XP до рівня {level}',
  'nowplaying.title': 'Зараз грає',
  'nowplaying.up_next': 'Далі: {title}',
  'nowplaying.queue': 'У черзі: {count}'
}
