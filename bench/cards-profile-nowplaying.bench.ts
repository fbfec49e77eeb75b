// Profile and now-playing cards one at a time (issue 40, items 2 and 3): our /gen/profile
// and /gen/nowplaying over loopback HTTP against the nearest card canvacord 6 has, its
// RankCardBuilder (canvacord has no profile or music card): an avatar with a presence
// mark, a name and a username, level, rank and an XP bar for the profile; a picture, two
// lines and a progress bar for the now-playing card. Target: ≥ 3 times its cards a
// second. canvacord runs from its own install in a process of its own, as in
// cards.bench.ts (whose helpers this uses); both sides draw one card at a time, in
// alternating rounds, medians printed.
//
// The content: ours draws a 256×256 PNG avatar or album art from a loopback server
// (fetched once, then from the fetcher's cache), canvacord the same file from a buffer.
// The profile: display name, username, presence online, level 12, rank 3, 8420 of 12000
// XP, a member-since date; the now-playing card: title, artist, 1:35 of 3:33, a queue
// line, and no colour given, so its tint is the art's dominant colour, found per card.
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { parseAllowList } from '../src/remote-fetch/address.js'
import { installCanvacord, type Reference, startCanvacord } from './cards.bench.js'
import { type Benchmark, type BenchRow, median, perRoundRatios, requestLoop } from './harness.js'
import { startOurServer } from './shared-path.bench.js'

const ROUNDS = 5

const bench: Benchmark = {
  name: 'Profile and now-playing cards one at a time (/gen/profile, /gen/nowplaying against canvacord 6 RankCardBuilder)',
  async run ({ duration, quick }) {
    await installCanvacord()
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bench-cards-more-'))
    // A picture with a few colours, so that the dominant colour has something to find.
    const avatar = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#3366cc' } })
      .composite([{ input: { create: { width: 128, height: 128, channels: 3, background: '#ffcc33' } }, left: 64, top: 64 }]).png().toBuffer()
    const avatarFile = path.join(tmp, 'avatar.png')
    fs.writeFileSync(avatarFile, avatar)
    const imageServer = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'image/png' }); res.end(avatar) })
    await new Promise<void>((resolve) => imageServer.listen(0, '127.0.0.1', resolve))
    const imageUrl = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}/avatar.png`
    const cards = [
      { name: 'profile 800×450 PNG', path: '/gen/profile', status: 'online', fields: { display_name: 'Benchmark User', username: 'benchmark', avatar: imageUrl, status: 'online', member_since: '2021-03-14', level: '12', rank: '3', xp: '8420', max_xp: '12000', subtitle: 'Drawing cards since 2021', output: 'png' } },
      { name: 'now playing 1000×300 PNG', path: '/gen/nowplaying', status: 'none', fields: { title: 'Benchmark Song', artist: 'Benchmark Artist', album_art: imageUrl, elapsed: '1:35', duration: '3:33', next: 'Another Song', queue: '4', output: 'png' } }
    ]
    // A generous request deadline: the first card starts a drawing thread (its fonts), which a loaded host took past 30 s.
    const ours = await startOurServer(undefined, { remoteFetchAllow: parseAllowList(['127.0.0.1']), requestTimeoutMs: 120_000 })
    const seconds = quick ? 0.5 : Math.max(0.5, duration / ROUNDS)
    const headers = { authorization: ours.key, 'content-type': 'application/json' }
    const rows: BenchRow[] = []
    try {
      for (const card of cards) {
        const canvacord: Reference = await startCanvacord(avatarFile, card.status)
        const results = { ours: [] as number[], canvacord: [] as number[], oursCpu: [] as number[], canvacordCpu: [] as number[] }
        try {
          const body = JSON.stringify(card.fields)
          const first = await fetch(`${ours.url}${card.path}`, { method: 'POST', headers, body })
          if (first.status !== 200) throw new Error(`${card.path} answered ${first.status}: ${await first.text()}`)
          const ourBytes = (await first.arrayBuffer()).byteLength
          let canvacordBytes = 0
          for (let round = 0; round < (quick ? 1 : ROUNDS); round++) {
            const sides = [
              async () => {
                const cpu = process.cpuUsage()
                const perSec = await requestLoop({ url: `${ours.url}${card.path}`, headers, body, parallel: 1, seconds })
                const { user, system } = process.cpuUsage(cpu)
                results.ours.push(perSec)
                results.oursCpu.push((user + system) / 1000 / Math.max(1, perSec * seconds))
              },
              async () => {
                const r = await canvacord.renderFor(seconds)
                results.canvacord.push(r.cardsPerSec)
                results.canvacordCpu.push(r.cpuMsPerCard)
                canvacordBytes = r.bytes
              }
            ]
            for (const side of round % 2 === 1 ? sides.reverse() : sides) await side()
          }
          rows.push({
            name: `${card.name}, one at a time (POST ${card.path} over loopback HTTP, the picture from the fetcher's cache and decoded once per drawing thread (src/generation/pipeline/decoded-images.ts), as a bot's member or song comes again; canvacord decodes its buffer each card; canvacord's rank card 930×280 PNG${card.status === 'none' ? '' : ` with status ${card.status}`} in a process of its own)`,
            ours: median(results.ours),
            reference: median(results.canvacord),
            referenceName: 'canvacord 6 RankCardBuilder',
            unit: 'cards/s',
            better: 'higher',
            target: 3,
            note: `per round: ${perRoundRatios(results.ours, results.canvacord)}; bytes a card: ours ${ourBytes}, canvacord ${canvacordBytes}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`
          }, {
            name: `${card.name}: CPU time per card, ms (ours: this process, server, client and image server; canvacord: its process)`,
            ours: median(results.oursCpu),
            reference: median(results.canvacordCpu),
            referenceName: 'canvacord 6 RankCardBuilder',
            unit: 'ms',
            better: 'lower',
            note: 'less sensitive to the host\'s load than cards a second; the target is set on cards a second'
          })
        } finally {
          canvacord.close()
        }
      }
    } finally {
      await ours.close()
      imageServer.closeAllConnections()
      imageServer.close()
      fs.rmSync(tmp, { recursive: true, force: true })
    }
    return rows
  }
}
export default bench
