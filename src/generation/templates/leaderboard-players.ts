// The players of /gen/leaderboard: read from the `players` field (a JSON array, sent as
// a JSON value in a body or as JSON text in a query parameter), every value bounded and
// every bad one a 400 naming it (`players[3].xp`), ranked, and cut into pages.
import { AppError } from '../../errors.js'

/** Players a leaderboard takes in one request (canvacord draws 10 at most). */
export const MAX_PLAYERS = 100
/** Players a page draws at most: a page of 20 is 1,718 px high. */
export const MAX_PER_PAGE = 20
export const DEFAULT_PER_PAGE = 10
/** The `players` field as JSON text: 100 players with Discord CDN avatars and long names fit with room. */
export const MAX_PLAYERS_JSON_LENGTH = 100_000
/** Names as Discord allows them are 32 characters; longer ones are cut when drawn. */
export const MAX_NAME_LENGTH = 100
export const MAX_LABEL_LENGTH = 40
export const MAX_ID_LENGTH = 64
export const MAX_URL_LENGTH = 2000
/** Levels, XP and values: whole or not, within what a double holds exactly. */
export const MAX_NUMBER = 1e15
export const MAX_RANK = 1_000_000_000

export interface Player {
  rank: number
  username?: string
  displayName?: string
  avatar?: string
  level?: number
  xp?: number
  /** Shown instead of the XP, with its label: any score a bot keeps (messages, coins, wins). */
  value?: number
  label?: string
  id?: string
}

export interface Page {
  players: Player[]
  page: number
  pages: number
  perPage: number
  /** The players before this page. */
  offset: number
}

function invalid (field: string, message: string): AppError {
  return new AppError('VALIDATION', `Invalid "${field}": ${message}`, { details: { field } })
}

/** A player's keys as clients write them: `displayName`, `display_name`, `DisplayName` are one key. */
function keyOf (key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '')
}

function text (value: unknown, field: string, max: number): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' && typeof value !== 'number') throw invalid(field, 'expected a string')
  const s = String(value).trim()
  if (s.length > max) throw invalid(field, `at most ${max} characters (got ${s.length})`)
  return s === '' ? undefined : s
}

/** A number as JSON clients send it (12) or as the hosted service's clients do ("12"). */
export function numberValue (value: unknown, field: string, min: number, max: number, integer = false): number | undefined {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return undefined
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN
  if (!Number.isFinite(n)) throw invalid(field, `expected a number, got ${JSON.stringify(value).slice(0, 40)}`)
  if (integer && !Number.isInteger(n)) throw invalid(field, `expected a whole number, got ${n}`)
  if (n < min || n > max) throw invalid(field, `expected ${min} to ${max}, got ${n}`)
  return n
}

/**
 * The `players` field: a JSON array of 1 to MAX_PLAYERS objects, keys in any case. Each
 * player has a username or a display name; its rank is its place in the list unless
 * given. Sorted by rank (stable: ties keep the caller's order). Keys a player does not
 * use are ignored, as clients send extra ones.
 */
export function parsePlayers (json: string | undefined): Player[] {
  if (json === undefined || json.trim() === '') throw invalid('players', `a JSON array of 1 to ${MAX_PLAYERS} players is required, e.g. [{"username":"ada","level":12,"xp":8420}]`)
  if (json.length > MAX_PLAYERS_JSON_LENGTH) throw invalid('players', `at most ${MAX_PLAYERS_JSON_LENGTH} characters of JSON (got ${json.length})`)
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    throw invalid('players', 'not JSON: send a JSON array of players (a JSON value in a body, or JSON text in the query string)')
  }
  if (!Array.isArray(value)) throw invalid('players', 'expected a JSON array of players')
  if (value.length < 1 || value.length > MAX_PLAYERS) throw invalid('players', `expected 1 to ${MAX_PLAYERS} players, got ${value.length}`)
  const players = value.map((item: unknown, i): Player => {
    const at = `players[${i}]`
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalid(at, 'expected an object such as {"username":"ada","level":12,"xp":8420}')
    const p = new Map(Object.entries(item as Record<string, unknown>).map(([k, v]) => [keyOf(k), v]))
    const player: Player = {
      rank: numberValue(p.get('rank'), `${at}.rank`, 1, MAX_RANK, true) ?? i + 1,
      username: text(p.get('username'), `${at}.username`, MAX_NAME_LENGTH),
      displayName: text(p.get('displayname'), `${at}.display_name`, MAX_NAME_LENGTH),
      avatar: text(p.get('avatar'), `${at}.avatar`, MAX_URL_LENGTH),
      level: numberValue(p.get('level'), `${at}.level`, 0, MAX_NUMBER),
      xp: numberValue(p.get('xp'), `${at}.xp`, 0, MAX_NUMBER),
      value: numberValue(p.get('value'), `${at}.value`, -MAX_NUMBER, MAX_NUMBER),
      label: text(p.get('label'), `${at}.label`, MAX_LABEL_LENGTH),
      id: text(p.get('id'), `${at}.id`, MAX_ID_LENGTH)
    }
    if (player.username === undefined && player.displayName === undefined) throw invalid(`${at}.username`, 'each player needs a username or a display_name')
    return player
  })
  return players.map((p, i) => ({ p, i })).sort((a, b) => a.p.rank - b.p.rank || a.i - b.i).map(({ p }) => p)
}

/** The page asked for: `per_page` 1 to MAX_PER_PAGE, `page` 1 to the page count. */
export function pageOf (players: Player[], pageField: string | undefined, perPageField: string | undefined): Page {
  const perPage = numberValue(perPageField, 'per_page', 1, MAX_PER_PAGE, true) ?? DEFAULT_PER_PAGE
  const pages = Math.ceil(players.length / perPage)
  const page = numberValue(pageField, 'page', 1, Math.max(1, pages), true) ?? 1
  const offset = (page - 1) * perPage
  return { players: players.slice(offset, offset + perPage), page, pages, perPage, offset }
}

/** Whether `highlight` names this player: its id, its username (any case, with or without "@"), or its rank. */
export function isHighlighted (player: Player, highlight: string | undefined): boolean {
  const h = (highlight ?? '').trim().replace(/^@/, '').toLowerCase()
  if (h === '') return false
  return player.id?.toLowerCase() === h || player.username?.replace(/^@/, '').toLowerCase() === h || String(player.rank) === h
}
