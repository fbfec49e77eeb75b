// Russian (ru): the labels of en-US.ts.
import type { Labels } from './en-US.js'

export const labels: Labels = {
  'welcome.title': 'ДОБРО ПОЖАЛОВАТЬ',
  'goodbye.title': 'ДО СВИДАНИЯ',
  'card.someone': 'Кто-то',
  'greeting.member': 'Участник №{number}',
  'rank.level': 'УРОВЕНЬ {level}',
  'rank.rank': 'МЕСТО #{rank}',
  'rank.xp': '{xp} / {max} XP',
  'quote.text': '«{text}»',
  'quote.author': '— {name}',
  'leaderboard.title': 'Таблица лидеров',
  'leaderboard.level': 'Уровень',
  'leaderboard.xp': 'XP',
  'leaderboard.rank': 'Место',
  'leaderboard.page': 'Страница {page} из {pages}',
  'profile.member_since': 'Участник с {date}',
  'profile.level': 'Уровень',
  'profile.rank': 'Место',
  'profile.xp': 'XP',
  'profile.to_next': 'Ещё {xp} XP до уровня {level}',
  'nowplaying.title': 'Сейчас играет',
  'nowplaying.up_next': 'Далее: {title}',
  'nowplaying.queue': 'В очереди: {count}'
}
