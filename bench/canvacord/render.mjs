// The reference of bench/cards.bench.ts: canvacord's RankCardBuilder in a process of
// its own, rendering rank cards one at a time. Started with the avatar's file (and the
// presence mark to draw, none when absent); each
// line on stdin is a number of seconds to render for, answered on stdout by one JSON
// line: { cardsPerSec, cpuMsPerCard, bytes } (CPU time of every thread of this process,
// bytes: the last card's PNG). Only this folder's own
// install (package.json, package-lock.json) is loaded here.
import fs from 'node:fs'
import readline from 'node:readline'
import { performance } from 'node:perf_hooks'
import { Font, RankCardBuilder } from 'canvacord'

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

async function renderFor (seconds) {
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

// A first card outside any measurement: the fonts and the JIT warm up.
await card()
process.stdout.write(JSON.stringify({ ready: true }) + '\n')
for await (const line of readline.createInterface({ input: process.stdin })) {
  const seconds = Number(line)
  if (!(seconds > 0)) break
  process.stdout.write(JSON.stringify(await renderFor(seconds)) + '\n')
}
