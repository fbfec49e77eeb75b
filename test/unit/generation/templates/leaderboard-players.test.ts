// The leaderboard's players and pages (src/generation/templates/leaderboard-players.ts):
// every bound, every bad value named, ranks and pages.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isAppError } from '../../../../src/errors.js'
import { isHighlighted, MAX_PER_PAGE, MAX_PLAYERS, MAX_PLAYERS_JSON_LENGTH, pageOf, parsePlayers } from '../../../../src/generation/templates/leaderboard-players.js'

/** The field a 400 names, or a failure when the call did not throw one. */
function fieldOf (fn: () => unknown): string {
  try {
    fn()
  } catch (err) {
    assert.ok(isAppError(err), String(err))
    assert.equal(err.status, 400)
    return String((err.details as { field: string }).field)
  }
  assert.fail('expected a 400')
}

const players = (n: number): Array<Record<string, unknown>> => Array.from({ length: n }, (_, i) => ({ username: `p${i}`, xp: 1000 - i }))

describe('leaderboard players', () => {
  it('reads canvacord\'s keys and ours in any case, numbers as numbers or strings', () => {
    const [p] = parsePlayers(JSON.stringify([{ DisplayName: 'Ada', USERNAME: 'ada', Avatar: 'http://x/a.png', level: '12', xp: 8420, Rank: '3', Value: '-5.5', Label: 'coins', Id: 77, extra: { ignored: true } }]))
    assert.deepEqual(p, { rank: 3, displayName: 'Ada', username: 'ada', avatar: 'http://x/a.png', level: 12, xp: 8420, value: -5.5, label: 'coins', id: '77' })
    assert.equal(parsePlayers(JSON.stringify([{ display_name: 'Bo' }]))[0]!.displayName, 'Bo')
  })

  it('ranks by the place in the list unless given, and draws by rank, ties in the order sent', () => {
    const list = parsePlayers(JSON.stringify([{ username: 'c', rank: 3 }, { username: 'a', rank: 1 }, { username: 'b', rank: 3 }, { username: 'd' }]))
    assert.deepEqual(list.map((p) => [p.username, p.rank]), [['a', 1], ['c', 3], ['b', 3], ['d', 4]])
  })

  it('names each bad value in a 400', () => {
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'players'],
      ['', 'players'],
      ['not json', 'players'],
      ['{"username":"a"}', 'players'],
      ['[]', 'players'],
      [JSON.stringify(players(MAX_PLAYERS + 1)), 'players'],
      ['x'.repeat(MAX_PLAYERS_JSON_LENGTH + 1), 'players'],
      ['[1]', 'players[0]'],
      ['[{"username":"a"},null]', 'players[1]'],
      ['[{"username":"a"},{"level":3}]', 'players[1].username'],
      ['[{"username":"a","xp":"lots"}]', 'players[0].xp'],
      ['[{"username":"a","xp":-1}]', 'players[0].xp'],
      ['[{"username":"a","level":1e16}]', 'players[0].level'],
      ['[{"username":"a","value":"Infinity"}]', 'players[0].value'],
      ['[{"username":"a","rank":0}]', 'players[0].rank'],
      ['[{"username":"a","rank":1.5}]', 'players[0].rank'],
      [JSON.stringify([{ username: 'a'.repeat(101) }]), 'players[0].username'],
      [JSON.stringify([{ username: 'a', display_name: { a: 1 } }]), 'players[0].display_name'],
      [JSON.stringify([{ username: 'a', label: 'l'.repeat(41) }]), 'players[0].label'],
      [JSON.stringify([{ username: 'a', avatar: 'h'.repeat(2001) }]), 'players[0].avatar']
    ]
    for (const [json, field] of cases) assert.equal(fieldOf(() => parsePlayers(json)), field, `${String(json).slice(0, 60)} names ${field}`)
  })

  it('takes 1 to 100 players', () => {
    assert.equal(parsePlayers(JSON.stringify(players(1))).length, 1)
    assert.equal(parsePlayers(JSON.stringify(players(MAX_PLAYERS))).length, MAX_PLAYERS)
  })
})

describe('leaderboard pages', () => {
  const hundred = parsePlayers(JSON.stringify(players(100)))

  it('cuts the players into pages of per_page, 10 by default', () => {
    assert.deepEqual((({ page, pages, perPage, offset }) => ({ page, pages, perPage, offset }))(pageOf(hundred, undefined, undefined)), { page: 1, pages: 10, perPage: 10, offset: 0 })
    const last = pageOf(hundred, '5', String(MAX_PER_PAGE))
    assert.deepEqual([last.page, last.pages, last.players.length, last.players[0]!.rank, last.players.at(-1)!.rank], [5, 5, 20, 81, 100])
    const partial = pageOf(hundred.slice(0, 45), '3', '20')
    assert.deepEqual([partial.pages, partial.players.length, partial.players[0]!.rank], [3, 5, 41])
  })

  it('names page and per_page when out of bounds or not whole numbers', () => {
    assert.equal(fieldOf(() => pageOf(hundred, '6', '20')), 'page')
    assert.equal(fieldOf(() => pageOf(hundred, '0', undefined)), 'page')
    assert.equal(fieldOf(() => pageOf(hundred, '1.5', undefined)), 'page')
    assert.equal(fieldOf(() => pageOf(hundred, 'two', undefined)), 'page')
    assert.equal(fieldOf(() => pageOf(hundred, undefined, '21')), 'per_page')
    assert.equal(fieldOf(() => pageOf(hundred, undefined, '0')), 'per_page')
  })

  it('highlights a player by id, username (with or without @, any case) or rank', () => {
    const [p] = parsePlayers(JSON.stringify([{ username: 'Ada', id: '42', rank: 7 }]))
    for (const h of ['42', 'ada', '@ADA', '7']) assert.ok(isHighlighted(p!, h), h)
    for (const h of [undefined, '', '43', 'bob']) assert.ok(!isHighlighted(p!, h), String(h))
  })
})
