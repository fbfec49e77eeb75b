// The reference of bench/cards.bench.ts: canvacord's RankCardBuilder and
// LeaderboardBuilder in a process of its own, rendering cards one at a time. Started
// with the avatar's file (and the presence mark to draw on rank cards, none when
// absent); each line on stdin is a number of seconds to render rank cards for, or
// `leaderboard` and a number of seconds, answered on stdout by one JSON line:
// { cardsPerSec, cpuMsPerCard, bytes } (CPU time of every thread of this process,
// bytes: the last card's PNG). Only this folder's own install (package.json,
// package-lock.json) is loaded here.
import fs from 'node:fs'
import readline from 'node:readline'
import { performance } from 'node:perf_hooks'
import { Font, LeaderboardBuilder, RankCardBuilder } from 'canvacord'

const avatar = fs.readFileSync(process.argv[2])
const status = process.argv[3] ?? 'none'
Font.loadDefault()

/** One card, the same content as the bench's /gen/rank request. */
async function card () {
  return await new RankCardBuilder()
    .setDisplayName('Benchmark User')
    .setUsername('@benchmark')
    .setAvatar(avatar)
    .setLevel(12)
    .setRank(3)
    .setCurrentXP(8420)
    .setRequiredXP(12000)
    .setBackground('#23272a')
    .setStatus(status)
    .build({ format: 'png' })
}

/**
 * One leaderboard, the same content as the bench's /gen/leaderboard request: 10 players
 * (canvacord draws 10 at most), each with the avatar, and a header with the avatar as
 * its image. canvacord sizes it itself: 500×1074 for 10 players.
 */
const LEADERBOARD_PLAYERS = Array.from({ length: 10 }, (_, i) => ({ displayName: `Player ${i + 1}`, username: `player${i + 1}`, level: 50 - i * 4, xp: 125_000 - i * 11_111, rank: i + 1 }))

async function leaderboard () {
  return await new LeaderboardBuilder()
    .setHeader({ title: 'Benchmark Server', subtitle: '1,234 members', image: avatar })
    .setPlayers(LEADERBOARD_PLAYERS.map((p) => ({ ...p, avatar })))
    .setBackgroundColor('#23272a')
    .build({ format: 'png' })
}

async function renderFor (seconds, card) {
  let n = 0
  let last
  const cpu = process.cpuUsage()
  const start = performance.now()
  const end = start + seconds * 1000
  while (performance.now() < end) {
    last = await card()
    n++
  }
  const { user, system } = process.cpuUsage(cpu)
  return { cardsPerSec: n / ((performance.now() - start) / 1000), cpuMsPerCard: (user + system) / 1000 / n, bytes: last.length }
}

// A first card of each outside any measurement: the fonts and the JIT warm up.
await card()
await leaderboard()
process.stdout.write(JSON.stringify({ ready: true }) + '\n')
for await (const line of readline.createInterface({ input: process.stdin })) {
  const [kind, value] = line.startsWith('leaderboard') ? [leaderboard, line.split(/\s+/)[1]] : [card, line]
  const seconds = Number(value)
  if (!(seconds > 0)) break
  process.stdout.write(JSON.stringify(await renderFor(seconds, kind)) + '\n')
}
